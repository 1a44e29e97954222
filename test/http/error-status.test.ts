import { beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../src/modules/access/access.service';
import { type World, createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';

const server = useTestServer({ RATE_LIMIT: '2/1m', BODY_LIMIT: '1kb' });
let world: World;
let studentToken: string;

beforeAll(async () => {
  world = await createWorld();
  ({ token: studentToken } = await issueAccessToken({ userId: world.student.id }));
});

const graphql = (body: string, headers: Record<string, string> = {}) =>
  server.fetch('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

/** The response's status and its errors' `extensions.http`, which must agree. */
async function statuses(response: Response) {
  const body = (await response.json()) as { errors: { extensions?: { http?: unknown } }[] };
  return { status: response.status, http: body.errors.map((error) => error.extensions?.http) };
}

describe('extensions.http.status on GraphQL errors that set the HTTP status', () => {
  it('401: no credential, or an invalid one', async () => {
    expect(await statuses(await graphql(JSON.stringify({ query: '{ viewer { id: databaseId } }' })))).toEqual({
      status: 401,
      http: [{ status: 401 }],
    });
    expect(
      await statuses(
        await graphql(JSON.stringify({ query: '{ viewer { id: databaseId } }' }), { authorization: 'Bearer nope' }),
      ),
    ).toEqual({
      status: 401,
      http: [{ status: 401 }],
    });
  });

  it('none on a refused mutation: its field is null, so the answer is 200 (partial data), its code FORBIDDEN', async () => {
    const response = await graphql(
      JSON.stringify({
        query: `mutation { createApiClient(input: { userId: "${world.teacher.id}" }) { userErrors { code } } }`,
      }),
      {
        authorization: `Bearer ${studentToken}`,
      },
    );
    const body = await response.clone().json();
    expect([body.data, body.errors[0].extensions.code]).toEqual([{ createApiClient: null }, 'FORBIDDEN']);
    expect(await statuses(response)).toEqual({ status: 200, http: [undefined] });
  });

  it('400: a malformed body', async () => {
    expect(await statuses(await graphql('{ not json', { authorization: `Bearer ${studentToken}` }))).toEqual({
      status: 400,
      http: [{ status: 400 }],
    });
  });

  it('400 for a syntax error only where the status is 400 (graphql-response+json), none where it stays 200', async () => {
    const body = JSON.stringify({ query: '{ viewer { ' });
    const strict = await graphql(body, {
      authorization: `Bearer ${studentToken}`,
      accept: 'application/graphql-response+json',
    });
    expect(await statuses(strict)).toEqual({ status: 400, http: [{ status: 400 }] });
    const lenient = await graphql(body, { authorization: `Bearer ${studentToken}`, accept: 'application/json' });
    expect(await statuses(lenient)).toEqual({ status: 200, http: [undefined] });
  });

  it('413: a body over the limit', async () => {
    const response = await graphql(JSON.stringify({ query: `{ viewer { id: databaseId } } # ${'x'.repeat(2000)}` }));
    expect(await statuses(response)).toEqual({ status: 413, http: [{ status: 413 }] });
  });

  it('429: over the rate limit, without the headers in the body', async () => {
    const ask = () =>
      graphql(JSON.stringify({ query: '{ viewer { id: databaseId } }' }), { authorization: `Bearer ${studentToken}` });
    let response = await ask();
    while (response.status === 200) response = await ask();
    expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await statuses(response)).toEqual({ status: 429, http: [{ status: 429 }] });
  });
});
