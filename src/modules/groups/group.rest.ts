import {
  type LinkBuilder,
  type RestRoute,
  createRoute,
  deleteRoute,
  listRoute,
  payloadSelection,
  updateRoute,
  viewRoute,
} from '../../rest/route';
import { type WireBody, WireInputError, flag, id, oneOf, text } from '../../rest/wire-body';

const groupFields = /* GraphQL */ `
  fragment RestGroup on Group {
    id title description pictureUrl website accessCode privacyLevel category { id } groupCode
    inviteType memberPost memberPostComment createDiscussion createFiles school { id } building { id }
  }
`;

interface RestGroup {
  id: string;
  title: string;
  description: string;
  pictureUrl: string;
  website: string;
  accessCode: string | null;
  privacyLevel: string;
  category: { id: string } | null;
  groupCode: string;
  inviteType: keyof typeof inviteTypeCodes;
  memberPost: boolean;
  memberPostComment: boolean;
  createDiscussion: boolean;
  createFiles: boolean;
  school: { id: string };
  building: { id: string } | null;
}

const inviteTypeCodes = { INVITE_ONLY: 0, REQUEST_TO_JOIN: 1, ANYONE_CAN_JOIN: 2 } as const;
const bit = (value: boolean) => (value ? 1 : 0);

/** Group, school and building ids are strings on the wire (spec 2.7); `access_code` appears for admins only. */
function groupToWire(group: RestGroup, link: LinkBuilder) {
  return {
    id: group.id,
    title: group.title,
    description: group.description,
    picture_url: group.pictureUrl,
    website: group.website,
    ...(group.accessCode !== null ? { access_code: group.accessCode } : {}),
    privacy_level: group.privacyLevel.toLowerCase(),
    category: group.category?.id ?? '',
    group_code: group.groupCode,
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

const groupBody: WireBody = {
  title: text('title'),
  description: text('description'),
  picture_url: text('pictureUrl'),
  website: text('website'),
  // `custom` is deliberately absent: it cannot be written.
  privacy_level: oneOf('privacyLevel', { everyone: 'EVERYONE', school: 'SCHOOL', building: 'BUILDING', group: 'GROUP' }),
  category: id('categoryId'),
  group_code: text('groupCode'),
  school_id: id('schoolId'),
  building_id: id('buildingId'),
  'options/invite_type': oneOf('inviteType', { 0: 'INVITE_ONLY', 1: 'REQUEST_TO_JOIN', 2: 'ANYONE_CAN_JOIN' }),
  'options/member_post': flag('memberPost'),
  'options/member_post_comment': flag('memberPostComment'),
  'options/create_discussion': flag('createDiscussion'),
  'options/create_files': flag('createFiles'),
};

const { school_id: _schoolOnCreate, ...groupUpdateBody } = groupBody;

/** The `building_id` filter of the list, checked here so that a bad value is reported under its wire name. */
function buildingFilter(query: URLSearchParams): string | null {
  const value = query.get('building_id')?.trim();
  if (!value) return null;
  if (!/^\d+$/.test(value)) throw new WireInputError('building_id', 'must be a numeric id');
  return value;
}

const categoryFields = /* GraphQL */ `fragment RestGroupCategory on GroupCategory { id title }`;

export const groupRoutes: RestRoute[] = [
  listRoute<RestGroup>({
    path: '/groups',
    item: 'group',
    document: `query($start: Int!, $limit: Int!, $buildingId: ID) {
      groups(start: $start, limit: $limit, buildingId: $buildingId) { total items { ...RestGroup } }
    } ${groupFields}`,
    variables: ({ query }) => ({ buildingId: buildingFilter(query) }),
    shape: groupToWire,
  }),
  viewRoute<RestGroup>({
    path: '/groups/{id}',
    document: `query($id: ID!) { group(id: $id) { ...RestGroup } } ${groupFields}`,
    variables: ({ params }) => ({ id: params.id }),
    shape: groupToWire,
  }),
  createRoute<RestGroup>({
    path: '/groups',
    body: groupBody,
    requiredFields: ['title'],
    document: `mutation($input: CreateGroupInput!) { ${payloadSelection('createGroup', 'input: $input', 'RestGroup')} } ${groupFields}`,
    variables: ({ input }) => ({ input }),
    shape: groupToWire,
  }),
  updateRoute({
    path: '/groups/{id}',
    body: groupUpdateBody,
    document: `mutation($id: ID!, $input: UpdateGroupInput!) { ${payloadSelection('updateGroup', 'id: $id, input: $input')} }`,
    variables: ({ params, input }) => ({ id: params.id, input }),
  }),
  deleteRoute({
    path: '/groups/{id}',
    document: `mutation($id: ID!) { ${payloadSelection('deleteGroup', 'id: $id')} }`,
    variables: ({ params }) => ({ id: params.id }),
  }),
  listRoute<{ id: string; title: string }>({
    path: '/groups/categories',
    item: 'category',
    document: `query($start: Int!, $limit: Int!) {
      groupCategories(start: $start, limit: $limit) { total items { ...RestGroupCategory } }
    } ${categoryFields}`,
    variables: () => ({}),
    shape: (category) => ({ id: category.id, title: category.title }),
  }),
];
