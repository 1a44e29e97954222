import { z } from 'zod';
import { type ResultOf, graphql } from '../../graphql/typed-document';
import { UserErrors } from '../../rest/user-errors';
import {
  type LinkBuilder,
  createRoute,
  deleteRoute,
  listRoute,
  selfLink,
  updateRoute,
  viewRoute,
  wireBit,
} from '../../rest/route';
import { flag, id, oneOf, text, wireBody, withoutMembers } from '../../rest/wire-body';

export const RestGroup = graphql(`
  fragment RestGroup on Group @_unmask {
    id: databaseId title description pictureUrl website accessCode privacyLevel category { id: databaseId } groupCode
    inviteType memberPost memberPostComment createDiscussion createFiles school { id: databaseId } building { id: databaseId }
  }
`);

const inviteTypeCodes = { INVITE_ONLY: 0, REQUEST_TO_JOIN: 1, ANYONE_CAN_JOIN: 2 } as const;
const privacyLevels = {
  EVERYONE: 'everyone',
  SCHOOL: 'school',
  BUILDING: 'building',
  GROUP: 'group',
  CUSTOM: 'custom',
} as const;
const bit = (value: boolean) => (value ? 1 : 0);

/** Group, school and building ids are strings on the wire (spec 2.7); `access_code` appears for admins only. */
export const groupWire = z
  .object({
    id: z.string(),
    title: z.string(),
    description: z.string().describe('Plain text, stored as given.'),
    picture_url: z.string(),
    website: z.string(),
    access_code: z.string().optional().describe("Only for the group's administrators."),
    privacy_level: z.enum(Object.values(privacyLevels)),
    category: z.string().describe('Category id; empty when none.'),
    group_code: z.string(),
    school_id: z.string(),
    building_id: z.string().describe('Empty when the group belongs to no building.'),
    options: z.object({
      invite_type: z
        .union([z.literal(0), z.literal(1), z.literal(2)])
        .describe('0 invite only, 1 request to join, 2 anyone can join.'),
      member_post: wireBit,
      member_post_comment: wireBit,
      create_discussion: wireBit,
      create_files: wireBit,
    }),
    links: selfLink,
  })
  .meta({ id: 'Group', description: 'A group of users, such as a club (spec 2.7).' });

export function groupToWire(group: ResultOf<typeof RestGroup>, link: LinkBuilder): z.input<typeof groupWire> {
  return {
    id: group.id,
    title: group.title,
    description: group.description ?? '',
    picture_url: group.pictureUrl ?? '',
    website: group.website ?? '',
    ...(group.accessCode !== null ? { access_code: group.accessCode } : {}),
    privacy_level: privacyLevels[group.privacyLevel],
    category: group.category?.id ?? '',
    group_code: group.groupCode ?? '',
    school_id: group.school.id,
    building_id: group.building?.id ?? '',
    options: {
      invite_type: inviteTypeCodes[group.inviteType],
      member_post: bit(group.memberPost),
      member_post_comment: bit(group.memberPostComment),
      create_discussion: bit(group.createDiscussion),
      create_files: bit(group.createFiles),
    },
    links: { self: link(`/groups/${group.id}`) },
  };
}

const groupMembers = {
  title: text('title'),
  description: text('description'),
  picture_url: text('pictureUrl'),
  website: text('website'),
  // `custom` is deliberately absent: it cannot be written.
  privacy_level: oneOf({ everyone: 'EVERYONE', school: 'SCHOOL', building: 'BUILDING', group: 'GROUP' })(
    'privacyLevel',
  ),
  category: id('categoryId'),
  group_code: text('groupCode'),
  school_id: id('schoolId'),
  building_id: id('buildingId'),
  options: {
    invite_type: oneOf({ 0: 'INVITE_ONLY', 1: 'REQUEST_TO_JOIN', 2: 'ANYONE_CAN_JOIN' })('inviteType'),
    member_post: flag('memberPost'),
    member_post_comment: flag('memberPostComment'),
    create_discussion: flag('createDiscussion'),
    create_files: flag('createFiles'),
  },
};

const RestGroupCategory = graphql(`fragment RestGroupCategory on GroupCategory @_unmask { id: databaseId title }`);
const categoryWire = z
  .object({ id: z.string(), title: z.string() })
  .meta({ id: 'GroupCategory', description: 'A group category.' });

export const groupRoutes = [
  listRoute({
    path: '/groups',
    summary: "List the groups of the caller's district that the caller may see",
    item: 'group',
    wire: groupWire,
    filters: wireBody({ building_id: id('buildingId') }),
    document: graphql(
      `query($start: Int!, $limit: Int!, $buildingId: ID) {
        groups(start: $start, limit: $limit, buildingId: $buildingId) { total items { ...RestGroup } }
      }`,
      [RestGroup],
    ),
    variables: ({ filters }) => ({ buildingId: filters.buildingId }),
    shape: groupToWire,
  }),
  viewRoute({
    path: '/groups/{id}',
    summary: 'View a group',
    wire: groupWire,
    document: graphql(`query($id: ID!) { group(id: $id) { ...RestGroup } }`, [RestGroup]),
    variables: ({ params }) => ({ id: params.id }),
    shape: groupToWire,
  }),
  createRoute({
    path: '/groups',
    summary: 'Create a group; the caller becomes its first administrator',
    body: wireBody(groupMembers, ['title']),
    wire: groupWire,
    document: graphql(
      `mutation($input: CreateGroupInput!) {
        createGroup(input: $input) { userErrors { ...UserErrors } group { ...RestGroup } }
      }`,
      [UserErrors, RestGroup],
    ),
    variables: ({ input }) => ({ input }),
    payload: 'group',
    shape: groupToWire,
  }),
  updateRoute({
    path: '/groups/{id}',
    summary: 'Update a group (its administrators)',
    body: wireBody(withoutMembers(groupMembers, 'school_id')),
    document: graphql(
      `mutation($input: UpdateGroupInput!) { updateGroup(input: $input) { userErrors { ...UserErrors } } }`,
      [UserErrors],
    ),
    variables: ({ params, input }) => ({ input: { ...input, id: params.id } }),
  }),
  deleteRoute({
    path: '/groups/{id}',
    summary: 'Delete a group with its memberships and what it owns',
    document: graphql(
      `mutation($input: DeleteGroupInput!) { deleteGroup(input: $input) { userErrors { ...UserErrors } } }`,
      [UserErrors],
    ),
    variables: ({ params }) => ({ input: { id: params.id } }),
  }),
  listRoute({
    path: '/groups/categories',
    summary: "List the group categories of the caller's district",
    item: 'category',
    wire: categoryWire,
    document: graphql(
      `query($start: Int!, $limit: Int!) { groupCategories(start: $start, limit: $limit) { total items { ...RestGroupCategory } } }`,
      [RestGroupCategory],
    ),
    variables: () => ({}),
    shape: (category) => ({ id: category.id, title: category.title }),
  }),
];
