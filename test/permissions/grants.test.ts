import { beforeAll, describe, expect, it } from 'vitest';
import { issueApiClient } from '../../src/modules/access/access.service';
import { type GraphQLClient, clientsFor, forbidden, refusal } from '../support/client';
import { type World, createUser, createWorld, unique } from '../support/factories';
import { useTestServer } from '../support/harness';
import { expectNothingWritten } from '../support/writes';

const server = useTestServer();
const clients = clientsFor(server);

let world: World;
let colleague: { id: number };
let schoolAdmin: GraphQLClient;

beforeAll(async () => {
  world = await createWorld();
  colleague = await createUser(world.school.id, 'SCHOOL_ADMIN');
  schoolAdmin = await clients.graphql(world.schoolAdmin);
});

const id = (object: { id: number }) => String(object.id);

describe('trigger administration', () => {
  const createUserDoc = `mutation($input: CreateUserInput!) { createUser(input: $input) { __typename ... on User { triggerAdmin } } }`;
  const teacher = (triggerAdmin: boolean) => ({
    input: { username: unique('t'), nameFirst: 'Tess', nameLast: 'Hook', role: 'TEACHER', triggerAdmin },
  });

  it('is granted by district administrators only: a school administrator is refused with 403', async () => {
    const refused = await expectNothingWritten(() => schoolAdmin(createUserDoc, teacher(true)));
    expect(refusal(refused)).toEqual(forbidden('Only district administrators grant trigger administration'));
    expect((await schoolAdmin(createUserDoc, teacher(false))).data.createUser).toEqual({
      __typename: 'User',
      triggerAdmin: false,
    });
    const districtAdmin = await clients.graphql(world.districtAdmin);
    expect((await districtAdmin(createUserDoc, teacher(true))).data.createUser).toEqual({
      __typename: 'User',
      triggerAdmin: true,
    });
  });

  it('is for staff: granting it to a student or parent is a ValidationError naming triggerAdmin, writing nothing', async () => {
    const districtAdmin = await clients.graphql(world.districtAdmin);
    const doc = `mutation($input: CreateUserInput!) { createUser(input: $input) { __typename ... on ValidationError { issues { field message } } } }`;
    for (const role of ['STUDENT', 'PARENT']) {
      const input = { username: unique('s'), nameFirst: 'Sam', nameLast: 'Hook', role, triggerAdmin: true };
      const refused = await expectNothingWritten(() => districtAdmin(doc, { input }));
      expect(refused.data.createUser).toEqual({
        __typename: 'ValidationError',
        issues: [{ field: 'triggerAdmin', message: 'is for staff: students and parents do not administer triggers' }],
      });
    }
  });
});

describe('credentials of administrators', () => {
  const notTheirs = forbidden("You may not manage this user's credentials");

  it('are not issued by a school administrator for another administrator of the school (403)', async () => {
    const doc = 'mutation($input: CreateApiClientInput!) { createApiClient(input: $input) { __typename } }';
    const refused = await expectNothingWritten(() => schoolAdmin(doc, { input: { userId: id(colleague) } }));
    expect(refusal(refused)).toEqual(notTheirs);
    expect((await schoolAdmin(doc, { input: { userId: id(world.parent) } })).data.createApiClient).toEqual({
      __typename: 'IssuedApiClient',
    });
  });

  it('are not revoked by a school administrator for another administrator of the school (403)', async () => {
    const issued = await issueApiClient(server.serverKey, { userId: colleague.id });
    const doc = 'mutation($id: ID!) { deleteApiClient(id: $id) { __typename } }';
    const refused = await expectNothingWritten(() => schoolAdmin(doc, { id: id(issued) }));
    expect(refusal(refused)).toEqual(notTheirs);
    expect((await (await clients.graphql(colleague))(doc, { id: id(issued) })).data.deleteApiClient).toEqual({
      __typename: 'Deleted',
    });
  });
});
