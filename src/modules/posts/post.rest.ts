import type { RealmType } from '../../generated/prisma/enums';
import {
  type LinkBuilder,
  type RestRequest,
  type RestRoute,
  createRoute,
  deleteRoute,
  listRoute,
  payloadSelection,
  updateRoute,
  viewRoute,
} from '../../rest/route';
import { realmPrefixes } from '../../rest/router';
import { type WireBody, text } from '../../rest/wire-body';

const postFields = /* GraphQL */ `fragment RestPost on BlogPost { id title body realmType realmId createdAt }`;

interface RestPost {
  id: string;
  title: string;
  body: string;
  realmType: RealmType;
  realmId: string;
  createdAt: string;
}

const prefixOf = Object.fromEntries(Object.entries(realmPrefixes).map(([prefix, type]) => [type, prefix])) as Record<
  RealmType,
  string
>;

/** Post ids are strings and `created` a unix timestamp on the wire (spec 2.10). */
function postToWire(post: RestPost, link: LinkBuilder) {
  return {
    id: post.id,
    title: post.title,
    body: post.body,
    created: Math.floor(Date.parse(post.createdAt) / 1000),
    links: { self: link(`/${prefixOf[post.realmType]}/${post.realmId}/posts/${post.id}`) },
  };
}

const postBody: WireBody = { title: text('title'), body: text('body') };
const realms = ['DISTRICT', 'SCHOOL', 'USER', 'SECTION', 'GROUP'] as const;
const realmOf = (request: RestRequest) => request.realm!;

export const postRoutes: RestRoute[] = [
  listRoute<RestPost>({
    path: '/[realm]/posts',
    realms,
    item: 'post',
    document: `query($realm: RealmInput!, $start: Int!, $limit: Int!) {
      blogPosts(realm: $realm, start: $start, limit: $limit) { total items { ...RestPost } }
    } ${postFields}`,
    variables: (request) => ({ realm: realmOf(request) }),
    shape: postToWire,
  }),
  viewRoute<RestPost>({
    path: '/[realm]/posts/{id}',
    realms,
    document: `query($realm: RealmInput!, $id: ID!) { blogPost(realm: $realm, id: $id) { ...RestPost } } ${postFields}`,
    variables: (request) => ({ realm: realmOf(request), id: request.params.id }),
    shape: postToWire,
  }),
  createRoute<RestPost>({
    path: '/[realm]/posts',
    realms,
    body: postBody,
    requiredFields: ['title'],
    document: `mutation($realm: RealmInput!, $input: CreateBlogPostInput!) {
      ${payloadSelection('createBlogPost', 'realm: $realm, input: $input', 'RestPost')}
    } ${postFields}`,
    variables: (request) => ({ realm: realmOf(request), input: request.input }),
    shape: postToWire,
  }),
  updateRoute({
    path: '/[realm]/posts/{id}',
    realms,
    body: postBody,
    document: `mutation($realm: RealmInput!, $id: ID!, $input: UpdateBlogPostInput!) {
      ${payloadSelection('updateBlogPost', 'realm: $realm, id: $id, input: $input')}
    }`,
    variables: (request) => ({ realm: realmOf(request), id: request.params.id, input: request.input }),
  }),
  deleteRoute({
    path: '/[realm]/posts/{id}',
    realms,
    document: `mutation($realm: RealmInput!, $id: ID!) { ${payloadSelection('deleteBlogPost', 'realm: $realm, id: $id')} }`,
    variables: (request) => ({ realm: realmOf(request), id: request.params.id }),
  }),
];
