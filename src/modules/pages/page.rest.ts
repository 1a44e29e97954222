import { z } from 'zod';
import { type ResultOf, graphql } from '../../graphql/typed-document';
import {
  type LinkBuilder,
  type RestRequest,
  createRoute,
  deleteRoute,
  htmlWire,
  listRoute,
  selfLink,
  updateRoute,
  viewRoute,
  wireBit,
} from '../../rest/route';
import { realmPath } from '../../rest/router';
import { UserErrors } from '../../rest/user-errors';
import { flag, id, idList, list, text, wireBody } from '../../rest/wire-body';
import { pageRealms } from './page.service';

const RestPage = graphql(`
  fragment RestPage on Page @_unmask {
    id: databaseId title published inline parentId childIds createdAt assigneeIds gradingGroupIds realmType realmId
  }
`);

/** Page ids are integers, as in the platform's examples; `parent` is 0 for a page at the top (spec 2.8). */
export const pageWire = z
  .object({
    id: z.int(),
    title: z.string(),
    body: htmlWire.optional().describe('HTML, sanitized on write; in a list only with withcontent=1.'),
    parent: z.int().describe('The page this one is nested under; 0 at the top.'),
    published: wireBit,
    inline: wireBit,
    created: z.int().describe('Unix time'),
    children: z.array(z.int()).describe('The pages nested under this one that the caller sees.'),
    available: wireBit.describe(
      'Always 1: availability windows are not modeled, and pages the caller may not see are not shown.',
    ),
    completed: wireBit.describe('Always 0: completion requirements are not modeled.'),
    completion_status: z.string().describe('Always empty: completion requirements are not modeled.'),
    num_assignees: z.int(),
    assignees: z.array(z.int()).describe('Enrollments the page is individually assigned to.'),
    grading_group_ids: z.array(z.int()),
    tags: z.array(z.string()).optional().describe("The page's tags, with with_tags=1."),
    links: selfLink,
  })
  .meta({ id: 'Page', description: 'A page (spec 2.8).' });

type RestPageResult = ResultOf<typeof RestPage> & { body?: string | null; tags?: readonly string[] };

function pageToWire(page: RestPageResult, link: LinkBuilder): z.input<typeof pageWire> {
  const assignees = page.assigneeIds.map(Number);
  return {
    id: Number(page.id),
    title: page.title,
    ...(page.body !== undefined ? { body: page.body ?? '' } : {}),
    parent: Number(page.parentId ?? 0),
    published: page.published ? 1 : 0,
    inline: page.inline ? 1 : 0,
    created: Math.floor(Date.parse(page.createdAt) / 1000),
    children: page.childIds.map(Number),
    available: 1,
    completed: 0,
    completion_status: '',
    num_assignees: assignees.length,
    assignees,
    grading_group_ids: page.gradingGroupIds.map(Number),
    ...(page.tags ? { tags: [...page.tags] } : {}),
    links: { self: link(`${realmPath(page.realmType, page.realmId)}/pages/${page.id}`) },
  };
}

const pageMembers = {
  title: text('title'),
  body: text('body'),
  published: flag('published'),
  inline: flag('inline'),
  parent: id('parentId'),
  assignees: idList('assigneeIds'),
  grading_group_ids: idList('gradingGroupIds'),
  tags: list(z.union([z.string(), z.number()], { error: 'must be a list of text' }).transform(String))('tags'),
};
const withTags = wireBody({ with_tags: flag('withTags') });
const realms = pageRealms;
const realmOf = (request: RestRequest) => request.realm!;

/** The spec views a page at `/page/{id}`; real clients call `/pages/{id}`, as for update and delete. Both answer. */
const viewPage = (path: string) =>
  viewRoute({
    path,
    realms,
    summary: 'View a page; with_tags=1 includes its tags',
    wire: pageWire,
    filters: withTags,
    document: graphql(
      `query($realm: RealmInput!, $id: ID!, $withTags: Boolean!) { page(realm: $realm, id: $id) { ...RestPage body tags @include(if: $withTags) } }`,
      [RestPage],
    ),
    variables: (request) => ({
      realm: realmOf(request),
      id: request.params.id,
      withTags: request.filters.withTags === true,
    }),
    shape: pageToWire,
  });

export const pageRoutes = [
  listRoute({
    path: '/[realm]/pages',
    realms,
    summary:
      'List the pages of a course section or group that the caller sees; withcontent=1 includes their bodies, with_tags=1 their tags',
    item: 'page',
    filters: wireBody({ withcontent: flag('withContent'), with_tags: flag('withTags') }),
    wire: pageWire,
    document: graphql(
      `query($realm: RealmInput!, $withContent: Boolean!, $withTags: Boolean!, $start: Int!, $limit: Int!) {
        pages(realm: $realm, start: $start, limit: $limit) {
          total items { ...RestPage body @include(if: $withContent) tags @include(if: $withTags) }
        }
      }`,
      [RestPage],
    ),
    variables: (request) => ({
      realm: realmOf(request),
      withContent: request.filters.withContent === true,
      withTags: request.filters.withTags === true,
    }),
    shape: pageToWire,
  }),
  viewPage('/[realm]/page/{id}'),
  viewPage('/[realm]/pages/{id}'),
  createRoute({
    path: '/[realm]/pages',
    realms,
    summary: 'Write a page in a course section or group',
    body: wireBody(pageMembers, ['title']),
    wire: pageWire,
    document: graphql(
      `mutation($input: CreatePageInput!) {
        createPage(input: $input) { userErrors { ...UserErrors } page { ...RestPage body } }
      }`,
      [UserErrors, RestPage],
    ),
    variables: (request) => ({ input: { ...request.input, realm: realmOf(request) } }),
    payload: 'page',
    shape: pageToWire,
  }),
  updateRoute({
    path: '/[realm]/pages/{id}',
    realms,
    summary: 'Update a page (lists given replace the old ones; an empty list removes them all)',
    body: wireBody(pageMembers),
    document: graphql(
      `mutation($input: UpdatePageInput!) { updatePage(input: $input) { userErrors { ...UserErrors } } }`,
      [UserErrors],
    ),
    variables: (request) => ({ input: { ...request.input, id: request.params.id, realm: realmOf(request) } }),
  }),
  deleteRoute({
    path: '/[realm]/pages/{id}',
    realms,
    summary: 'Delete a page (pages nested under it move up to the top)',
    document: graphql(
      `mutation($input: DeletePageInput!) { deletePage(input: $input) { userErrors { ...UserErrors } } }`,
      [UserErrors],
    ),
    variables: (request) => ({ input: { id: request.params.id, realm: realmOf(request) } }),
  }),
];
