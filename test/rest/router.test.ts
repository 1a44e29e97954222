import { describe, expect, it } from 'vitest';
import { graphql } from '../../src/graphql/typed-document';
import type { RestRoute } from '../../src/rest/route';
import { createRouter } from '../../src/rest/router';

const route = (method: RestRoute['method'], path: string, realms?: RestRoute['realms']): RestRoute => ({
  method,
  path,
  realms,
  summary: 'a test route',
  document: graphql('{ __typename }'),
  responses: { 200: null },
  variables: () => ({}),
  respond: () => ({ status: 200 }),
});

const albums = route('GET', '/[realm]/albums/{id}', ['SECTION', 'GROUP']);
const match = createRouter([
  route('GET', '/groups'),
  route('POST', '/groups'),
  route('GET', '/groups/{id}'),
  route('GET', '/groups/categories'),
  albums,
]);

describe('the /v1 router', () => {
  it('matches literal segments and numeric ids, with the realm prefix parsed', () => {
    expect(match('GET', '/groups/categories')).toMatchObject({ kind: 'route', route: { path: '/groups/categories' } });
    expect(match('GET', '/groups/42')).toMatchObject({ kind: 'route', params: { id: '42' }, realm: null });
    expect(match('GET', '/groups/4x')).toEqual({ kind: 'not-found' });
    expect(match('GET', '/groups/42/')).toMatchObject({ kind: 'route', params: { id: '42' } });
    expect(match('GET', '/groups/7/albums/3')).toMatchObject({
      kind: 'route',
      route: albums,
      params: { id: '3' },
      realm: { type: 'GROUP', id: '7' },
    });
  });

  it('refuses a realm the resource does not support with its own outcome (403), and unknown prefixes as not found', () => {
    expect(match('GET', '/districts/1/albums/3')).toEqual({ kind: 'realm-not-supported', realm: 'DISTRICT' });
    expect(match('GET', '/courses/1/albums/3')).toEqual({ kind: 'not-found' });
  });

  it('matches a word segment as any one segment, percent-decoded, and leaves checking its value to the route', () => {
    const invites = route('GET', '/users/{userId}/invites/{realm:word}');
    const words = createRouter([invites]);
    expect(words('GET', '/users/5/invites/groups')).toMatchObject({
      kind: 'route',
      route: invites,
      params: { userId: '5', realm: 'groups' },
    });
    expect(words('GET', '/users/5/invites/no%20such')).toMatchObject({ kind: 'route', params: { realm: 'no such' } });
    expect(words('GET', '/users/5/invites/%E0%A4%A')).toMatchObject({ kind: 'route', params: { realm: '%E0%A4%A' } });
    expect(words('GET', '/users/5/invites/groups/extra')).toEqual({ kind: 'not-found' });
    expect(words('GET', '/users/x/invites/groups')).toEqual({ kind: 'not-found' });
  });

  it('lists the methods of a path for 405 and OPTIONS', () => {
    expect(match('DELETE', '/groups')).toEqual({ kind: 'method-not-allowed', allow: ['GET', 'POST', 'OPTIONS'] });
    expect(match('OPTIONS', '/groups/42')).toEqual({ kind: 'options', allow: ['GET', 'OPTIONS'] });
    expect(match('HEAD', '/groups')).toMatchObject({ kind: 'route', route: { method: 'GET' } });
  });
});
