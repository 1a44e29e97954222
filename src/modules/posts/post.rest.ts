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
} from '../../rest/route';
import { realmPath } from '../../rest/router';
import { UserErrors } from '../../rest/user-errors';
import { text, wireBody } from '../../rest/wire-body';

const RestPost = graphql(
  `fragment RestPost on BlogPost @_unmask { id: databaseId title body realmType realmId createdAt }`,
);

/** Post ids are strings and `created` a unix timestamp on the wire (spec 2.10). */
export const postWire = z
  .object({
    id: z.string(),
    title: z.string(),
    body: htmlWire,
    created: z.int().describe('Unix time'),
    links: selfLink,
  })
  .meta({ id: 'BlogPost', description: 'A blog post (spec 2.10).' });

function postToWire(post: ResultOf<typeof RestPost>, link: LinkBuilder): z.input<typeof postWire> {
  return {
    id: post.id,
    title: post.title,
    body: post.body ?? '',
    created: Math.floor(Date.parse(post.createdAt) / 1000),
    links: { self: link(`${realmPath(post.realmType, post.realmId)}/posts/${post.id}`) },
  };
}

const postMembers = { title: text('title'), body: text('body') };
const realms = ['DISTRICT', 'SCHOOL', 'USER', 'SECTION', 'GROUP'] as const;
const realmOf = (request: RestRequest) => request.realm!;

export const postRoutes = [
  listRoute({
    path: '/[realm]/posts',
    realms,
    summary: 'List the blog posts of a realm, oldest first',
    item: 'post',
    wire: postWire,
    document: graphql(
      `query($realm: RealmInput!, $start: Int!, $limit: Int!) {
        blogPosts(realm: $realm, start: $start, limit: $limit) { total items { ...RestPost } }
      }`,
      [RestPost],
    ),
    variables: (request) => ({ realm: realmOf(request) }),
    shape: postToWire,
  }),
  viewRoute({
    path: '/[realm]/posts/{id}',
    realms,
    summary: 'View a blog post',
    wire: postWire,
    document: graphql(`query($realm: RealmInput!, $id: ID!) { blogPost(realm: $realm, id: $id) { ...RestPost } }`, [
      RestPost,
    ]),
    variables: (request) => ({ realm: realmOf(request), id: request.params.id }),
    shape: postToWire,
  }),
  createRoute({
    path: '/[realm]/posts',
    realms,
    summary: 'Write a blog post in a realm',
    body: wireBody(postMembers, ['title']),
    wire: postWire,
    document: graphql(
      `mutation($input: CreateBlogPostInput!) {
        createBlogPost(input: $input) { userErrors { ...UserErrors } blogPost { ...RestPost } }
      }`,
      [UserErrors, RestPost],
    ),
    variables: (request) => ({ input: { ...request.input, realm: realmOf(request) } }),
    payload: 'blogPost',
    shape: postToWire,
  }),
  updateRoute({
    path: '/[realm]/posts/{id}',
    realms,
    summary: 'Update a blog post',
    body: wireBody(postMembers),
    document: graphql(
      `mutation($input: UpdateBlogPostInput!) { updateBlogPost(input: $input) { userErrors { ...UserErrors } } }`,
      [UserErrors],
    ),
    variables: (request) => ({ input: { ...request.input, id: request.params.id, realm: realmOf(request) } }),
  }),
  deleteRoute({
    path: '/[realm]/posts/{id}',
    realms,
    summary: 'Delete a blog post',
    document: graphql(
      `mutation($input: DeleteBlogPostInput!) { deleteBlogPost(input: $input) { userErrors { ...UserErrors } } }`,
      [UserErrors],
    ),
    variables: (request) => ({ input: { id: request.params.id, realm: realmOf(request) } }),
  }),
];
