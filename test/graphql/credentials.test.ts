import { beforeAll, describe, expect, it } from 'vitest';
import { decryptSecret, hashToken } from '../../src/auth/secrets';
import { encodeGlobalId } from '../../src/core/global-id';
import { db } from '../../src/db/database';
import { type GraphQLClient, RestClient, clientsFor, forbidden, refusal } from '../support/client';
import { type World, createUser, createWorld, watchDomainEvents } from '../support/factories';
import { useTestServer } from '../support/harness';
import { v1 } from '../support/wire';
import { expectNothingWritten } from '../support/writes';

const server = useTestServer();
const clients = clientsFor(server);

const cast = [
  'districtAdmin',
  'schoolAdmin',
  'teacher',
  'student',
  'parent',
  'otherSchoolStudent',
  'outsider',
  'colleague',
] as const;
type Person = (typeof cast)[number];
let world: World & { colleague: { id: number } };
let gql: Record<Person, GraphQLClient>;

/** Every GraphQL client is issued up front: issuing its token records a domain event, which would disturb the event assertions. */
beforeAll(async () => {
  const created = await createWorld();
  world = { ...created, colleague: await createUser(created.school.id, 'TEACHER') };
  gql = await clients.graphqlFor(cast, world);
});

const userErrors = 'userErrors { field code message }';
const createApiClientDoc = `mutation($input: CreateApiClientInput!) { createApiClient(input: $input) {
  issuedApiClient { id databaseId userId name consumerKey consumerSecret } apiClient { id consumerKey } ${userErrors} } }`;
const deleteApiClientDoc = `mutation($id: ID!) { deleteApiClient(input: { id: $id }) { deletedApiClientId ${userErrors} } }`;
const createAccessTokenDoc = `mutation($input: CreateAccessTokenInput!) { createAccessToken(input: $input) {
  issuedAccessToken { id databaseId name expiresAt token } accessToken { id name expiresAt } ${userErrors} } }`;
const deleteAccessTokenDoc = `mutation($id: ID!) { deleteAccessToken(input: { id: $id }) { deletedAccessTokenId ${userErrors} } }`;

const id = (object: { id: number }) => String(object.id);
/** A refused mutation: its field is null (the document's other fields would still answer) and the error says why. */
const notTheirs = (field: string) => ({
  ...forbidden("You may not manage this user's credentials"),
  data: { [field]: null },
});
/** A delete's payload when the id names nothing the viewer may see. */
const notFound = (objectType: string, objectId: number | string) => ({
  [`deleted${objectType}Id`]: null,
  userErrors: [{ field: ['input', 'id'], code: 'NOT_FOUND', message: `${objectType} ${objectId} was not found` }],
});
/** A delete's payload: the global id of what it removed. */
const deleted = (objectType: 'ApiClient' | 'AccessToken', databaseId: string) => ({
  [`deleted${objectType}Id`]: encodeGlobalId(objectType, databaseId),
  userErrors: [],
});
/** A credential event as watchDomainEvents reports it: in the realm of the credential's user. */
const credentialEvent = (
  type: string,
  user: { id: number },
  objectId: number | string,
  actor: { id: number },
  schoolId = world.school.id,
) => [type, 'USER', user.id, Number(objectId), actor.id, world.district.id, schoolId];

/** Issues consumer credentials through the API and returns them with a REST client signing with them. */
async function issueClient(person: Person, input: Record<string, unknown> = {}) {
  const answer = (await gql[person](createApiClientDoc, { input })).data.createApiClient;
  const issued = answer.issuedApiClient;
  expect(answer.userErrors).toEqual([]);
  // The node beside the secret is the same client, for a cache to add to `apiClients`.
  expect(answer.apiClient).toEqual({ id: issued.id, consumerKey: issued.consumerKey });
  return { issued, rest: new RestClient(server, issued.consumerKey, issued.consumerSecret) };
}

const bearer = (token: string) =>
  server.fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: '{ viewer { id: databaseId } }' }),
  });

describe('createApiClient', () => {
  it('issues a key and secret for the viewer that sign REST requests, stored only encrypted', async () => {
    const events = await watchDomainEvents();
    const { issued, rest } = await issueClient('student', { name: 'Gradebook sync' });
    expect(issued).toEqual({
      id: encodeGlobalId('ApiClient', issued.databaseId),
      databaseId: expect.stringMatching(/^\d+$/),
      userId: encodeGlobalId('User', world.student.id),
      name: 'Gradebook sync',
      consumerKey: expect.stringMatching(/^[\w-]{22}$/),
      consumerSecret: expect.stringMatching(/^[\w-]{32}$/),
    });
    expect(await events()).toEqual([
      credentialEvent('api_client.create', world.student, issued.databaseId, world.student),
    ]);

    const me = await rest.get('/users/me');
    expect([me.status, me.headers.get('location')]).toEqual([303, `${v1}/users/${world.student.id}`]);

    const row = await db().apiClient.findUniqueOrThrow({ where: { id: Number(issued.databaseId) } });
    expect([row.userId, row.name, row.consumerKey]).toEqual([world.student.id, 'Gradebook sync', issued.consumerKey]);
    expect(row.encryptedSecret).not.toContain(issued.consumerSecret);
    expect(row.encryptedSecret).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(decryptSecret(row.encryptedSecret, server.serverKey)).toBe(issued.consumerSecret);
  });

  it('lets a school administrator issue credentials acting as a user of their school', async () => {
    const events = await watchDomainEvents();
    const { issued, rest } = await issueClient('schoolAdmin', { userId: id(world.teacher), name: null });
    expect([issued.userId, issued.name]).toEqual([encodeGlobalId('User', world.teacher.id), null]);
    expect(await events()).toEqual([
      credentialEvent('api_client.create', world.teacher, issued.databaseId, world.schoolAdmin),
    ]);
    expect((await rest.get('/users/me')).headers.get('location')).toBe(`${v1}/users/${world.teacher.id}`);
    expect((await gql.teacher('{ apiClients { id } }')).data.apiClients).toContainEqual({ id: issued.id });
    expect((await gql.schoolAdmin('{ apiClients { id } }')).data.apiClients).not.toContainEqual({ id: issued.id });
  });

  it('lets a district administrator issue credentials for a user of another school of the district', async () => {
    const { issued } = await issueClient('districtAdmin', { userId: id(world.otherSchoolStudent) });
    expect(issued.userId).toBe(encodeGlobalId('User', world.otherSchoolStudent.id));
  });

  it.each([
    ['a teacher for another user of the school', 'teacher', 'student'],
    ['a student for their teacher', 'student', 'teacher'],
    ['a school administrator for a district administrator', 'schoolAdmin', 'districtAdmin'],
  ] as const)('refuses %s with FORBIDDEN', async (_name, person, target) => {
    const response = await expectNothingWritten(() =>
      gql[person](createApiClientDoc, { input: { userId: id(world[target]) } }),
    );
    expect(refusal(response)).toEqual(notTheirs('createApiClient'));
  });

  it.each([
    ['a user of another district', 'districtAdmin', 'outsider'],
    ['a user of another school, to a teacher', 'teacher', 'otherSchoolStudent'],
    ['a user of this district, to an outsider', 'outsider', 'student'],
  ] as const)('answers NOT_FOUND naming input.userId for %s', async (_name, person, target) => {
    const response = await expectNothingWritten(() =>
      gql[person](createApiClientDoc, { input: { userId: id(world[target]) } }),
    );
    expect(response.data.createApiClient).toEqual({
      issuedApiClient: null,
      apiClient: null,
      userErrors: [
        { field: ['input', 'userId'], code: 'NOT_FOUND', message: `User ${world[target].id} was not found` },
      ],
    });
  });

  it('answers TOO_LONG naming input.name for too long a name', async () => {
    const response = await expectNothingWritten(() =>
      gql.student(createApiClientDoc, { input: { name: 'x'.repeat(256) } }),
    );
    expect(response.data.createApiClient).toEqual({
      issuedApiClient: null,
      apiClient: null,
      userErrors: [{ field: ['input', 'name'], code: 'TOO_LONG', message: 'must be at most 255 characters' }],
    });
  });
});

describe('apiClients and deleteApiClient', () => {
  it("lists the viewer's clients without secrets", async () => {
    const first = (await issueClient('parent', { name: 'one' })).issued;
    const second = (await issueClient('parent', { name: 'two' })).issued;
    const listed = await gql.parent('{ apiClients { id name consumerKey user { id: databaseId } createdAt } }');
    const rows = await db().apiClient.findMany({ where: { userId: world.parent.id }, orderBy: { id: 'asc' } });
    expect(listed.data.apiClients).toEqual(
      [first, second].map((issued, index) => ({
        id: issued.id,
        name: issued.name,
        consumerKey: issued.consumerKey,
        user: { id: id(world.parent) },
        createdAt: rows[index]!.createdAt.toISOString(),
      })),
    );
    expect(JSON.stringify(listed)).not.toContain(first.consumerSecret);
    const type = await gql.parent('{ __type(name: "ApiClient") { fields { name } } }');
    expect(type.data.__type.fields.map((field: { name: string }) => field.name).sort()).toEqual([
      'consumerKey',
      'createdAt',
      'databaseId',
      'id',
      'name',
      'user',
    ]);
  });

  it('revokes a client: its signed requests then answer 401', async () => {
    const { issued, rest } = await issueClient('student');
    expect((await rest.get('/users/me')).status).toBe(303);
    const events = await watchDomainEvents();
    expect((await gql.student(deleteApiClientDoc, { id: issued.id })).data.deleteApiClient).toEqual(
      deleted('ApiClient', issued.databaseId),
    );
    expect(await events()).toEqual([
      credentialEvent('api_client.delete', world.student, issued.databaseId, world.student),
    ]);
    const refused = await rest.get('/users/me');
    expect([refused.status, refused.text]).toEqual([401, 'Unknown consumer key']);
    expect(await db().apiClient.findUnique({ where: { id: Number(issued.databaseId) } })).toBeNull();
    const again = await expectNothingWritten(() => gql.student(deleteApiClientDoc, { id: issued.databaseId }));
    expect(again.data.deleteApiClient).toEqual(notFound('ApiClient', issued.databaseId));
  });

  it("lets a school administrator revoke a client of their school's user, with the administrator as actor", async () => {
    const { issued, rest } = await issueClient('colleague');
    const events = await watchDomainEvents();
    expect((await gql.schoolAdmin(deleteApiClientDoc, { id: issued.id })).data.deleteApiClient).toEqual(
      deleted('ApiClient', issued.databaseId),
    );
    expect(await events()).toEqual([
      credentialEvent('api_client.delete', world.colleague, issued.databaseId, world.schoolAdmin),
    ]);
    expect((await rest.get('/users/me')).status).toBe(401);
  });

  it('refuses another user of the school (FORBIDDEN) and hides the client from other districts and unknown ids', async () => {
    const { issued, rest } = await issueClient('student');
    expect(refusal(await expectNothingWritten(() => gql.teacher(deleteApiClientDoc, { id: issued.id })))).toEqual(
      notTheirs('deleteApiClient'),
    );
    const far = await expectNothingWritten(() => gql.outsider(deleteApiClientDoc, { id: issued.id }));
    expect(far.data.deleteApiClient).toEqual(notFound('ApiClient', issued.databaseId));
    for (const unknown of ['2147483647', '99999999999']) {
      const missing = await expectNothingWritten(() => gql.student(deleteApiClientDoc, { id: unknown }));
      expect(missing.data.deleteApiClient).toEqual(notFound('ApiClient', unknown));
    }
    expect((await rest.get('/users/me')).status).toBe(303);
  });
});

describe('access tokens', () => {
  it('issues a bearer token with an expiry that authenticates GraphQL, stored only as a hash', async () => {
    const events = await watchDomainEvents();
    const before = Date.now();
    const answer = (await gql.student(createAccessTokenDoc, { input: { name: 'Phone', expiresInDays: 30 } })).data
      .createAccessToken;
    const after = Date.now();
    const issued = answer.issuedAccessToken;
    // The node beside the token is the same token, for a cache to add to `accessTokens`.
    expect(answer.accessToken).toEqual({ id: issued.id, name: 'Phone', expiresAt: issued.expiresAt });
    expect(issued).toEqual({
      id: encodeGlobalId('AccessToken', issued.databaseId),
      databaseId: expect.stringMatching(/^\d+$/),
      name: 'Phone',
      expiresAt: expect.any(String),
      token: expect.stringMatching(/^[\w-]{43}$/),
    });
    const expiresAt = Date.parse(issued.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 30 * 86_400_000);
    expect(expiresAt).toBeLessThanOrEqual(after + 30 * 86_400_000);
    expect(await events()).toEqual([
      credentialEvent('access_token.create', world.student, issued.databaseId, world.student),
    ]);

    const response = await bearer(issued.token);
    expect([response.status, await response.json()]).toEqual([200, { data: { viewer: { id: id(world.student) } } }]);

    const row = await db().accessToken.findUniqueOrThrow({ where: { id: Number(issued.databaseId) } });
    expect(row).toEqual({
      id: Number(issued.databaseId),
      userId: world.student.id,
      name: 'Phone',
      tokenHash: hashToken(issued.token),
      createdAt: expect.any(Date),
      expiresAt: new Date(issued.expiresAt),
    });
    expect(row.tokenHash).not.toContain(issued.token);
  });

  it('issues a token without expiry when expiresInDays is left out, and refuses it once expired', async () => {
    const issued = (await gql.parent(createAccessTokenDoc, { input: {} })).data.createAccessToken.issuedAccessToken;
    expect([issued.name, issued.expiresAt]).toEqual([null, null]);
    expect((await bearer(issued.token)).status).toBe(200);
    await db().accessToken.update({
      where: { id: Number(issued.databaseId) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const expired = await bearer(issued.token);
    expect([expired.status, (await expired.json()).errors[0].message]).toEqual([
      401,
      'Invalid or expired bearer token',
    ]);
  });

  it.each([
    [0, 'must be at least 1'],
    [-3, 'must be at least 1'],
    [5000, 'must be at most 3650'],
  ])('answers a userError naming input.expiresInDays for %i', async (expiresInDays, message) => {
    const response = await expectNothingWritten(() => gql.student(createAccessTokenDoc, { input: { expiresInDays } }));
    expect(response.data.createAccessToken).toEqual({
      issuedAccessToken: null,
      accessToken: null,
      userErrors: [{ field: ['input', 'expiresInDays'], code: expiresInDays > 0 ? 'TOO_LARGE' : 'TOO_SMALL', message }],
    });
  });

  it("lists the viewer's tokens without the tokens", async () => {
    const user = await createUser(world.school.id, 'STUDENT');
    const client = await clients.graphql(user);
    const issued = (await client(createAccessTokenDoc, { input: { name: 'Laptop', expiresInDays: 1 } })).data
      .createAccessToken.issuedAccessToken;
    const listed = await client('{ accessTokens { id: databaseId name createdAt expiresAt } }');
    const rows = await db().accessToken.findMany({ where: { userId: user.id }, orderBy: { id: 'asc' } });
    expect(rows.map((row) => row.name)).toEqual(['test', 'Laptop']);
    expect(listed.data.accessTokens).toEqual(
      rows.map((row) => ({
        id: String(row.id),
        name: row.name,
        createdAt: row.createdAt.toISOString(),
        expiresAt: row.expiresAt?.toISOString() ?? null,
      })),
    );
    expect(listed.data.accessTokens[1].expiresAt).toBe(issued.expiresAt);
    expect(JSON.stringify(listed)).not.toContain(issued.token);
  });

  it('revokes a token: it then answers 401; others of the school get FORBIDDEN, other districts NotFoundError', async () => {
    const issued = (await gql.student(createAccessTokenDoc, { input: { name: 'Tablet' } })).data.createAccessToken
      .issuedAccessToken;
    expect(refusal(await expectNothingWritten(() => gql.teacher(deleteAccessTokenDoc, { id: issued.id })))).toEqual(
      notTheirs('deleteAccessToken'),
    );
    const far = await expectNothingWritten(() => gql.outsider(deleteAccessTokenDoc, { id: issued.id }));
    expect(far.data.deleteAccessToken).toEqual(notFound('AccessToken', issued.databaseId));
    expect((await bearer(issued.token)).status).toBe(200);

    const events = await watchDomainEvents();
    expect((await gql.student(deleteAccessTokenDoc, { id: issued.id })).data.deleteAccessToken).toEqual(
      deleted('AccessToken', issued.databaseId),
    );
    expect(await events()).toEqual([
      credentialEvent('access_token.delete', world.student, issued.databaseId, world.student),
    ]);
    const revoked = await bearer(issued.token);
    expect([revoked.status, (await revoked.json()).errors[0].extensions.code]).toEqual([401, 'UNAUTHENTICATED']);
    expect(await db().accessToken.findUnique({ where: { id: Number(issued.databaseId) } })).toBeNull();
    const again = await expectNothingWritten(() => gql.student(deleteAccessTokenDoc, { id: issued.databaseId }));
    expect(again.data.deleteAccessToken).toEqual(notFound('AccessToken', issued.databaseId));
  });

  it('lets a token revoke itself', async () => {
    const issued = (await gql.parent(createAccessTokenDoc, { input: {} })).data.createAccessToken.issuedAccessToken;
    const response = await server.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${issued.token}` },
      body: JSON.stringify({ query: deleteAccessTokenDoc, variables: { id: issued.id } }),
    });
    expect((await response.json()).data.deleteAccessToken).toEqual(deleted('AccessToken', issued.databaseId));
    expect((await bearer(issued.token)).status).toBe(401);
  });
});
