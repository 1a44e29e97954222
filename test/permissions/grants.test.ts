import { beforeAll, describe, expect, it } from 'vitest';
import { issueApiClient } from '../../src/modules/access/access.service';
import { type GraphQLClient, clientsFor, forbidden, refusal } from '../support/client';
import { type World, createUser, createWorld, unique } from '../support/factories';
import { useTestServer } from '../support/harness';
import { expectNothingWritten } from '../support/writes';
import { encodeGlobalId } from '../../src/core/global-id';

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
  const createUserDoc = `mutation($input: CreateUserInput!) { createUser(input: $input) { user { triggerAdmin } } }`;
  const teacher = (triggerAdmin: boolean) => ({
    input: { username: unique('t'), nameFirst: 'Tess', nameLast: 'Hook', role: 'TEACHER', triggerAdmin },
  });

  it('is granted by district administrators only: a school administrator is refused with FORBIDDEN', async () => {
    const refused = await expectNothingWritten(() => schoolAdmin(createUserDoc, teacher(true)));
    expect(refusal(refused)).toEqual({
      ...forbidden('Only district administrators grant trigger administration'),
      data: { createUser: null },
    });
    expect((await schoolAdmin(createUserDoc, teacher(false))).data.createUser).toEqual({
      user: { triggerAdmin: false },
    });
    const districtAdmin = await clients.graphql(world.districtAdmin);
    expect((await districtAdmin(createUserDoc, teacher(true))).data.createUser).toEqual({
      user: { triggerAdmin: true },
    });
  });

  it('is for staff: granting it to a student or parent is a userError naming triggerAdmin, writing nothing', async () => {
    const districtAdmin = await clients.graphql(world.districtAdmin);
    const doc = `mutation($input: CreateUserInput!) { createUser(input: $input) { user { id } userErrors { field code message } } }`;
    for (const role of ['STUDENT', 'PARENT']) {
      const input = { username: unique('s'), nameFirst: 'Sam', nameLast: 'Hook', role, triggerAdmin: true };
      const refused = await expectNothingWritten(() => districtAdmin(doc, { input }));
      expect(refused.data.createUser).toEqual({
        user: null,
        userErrors: [
          {
            field: ['input', 'triggerAdmin'],
            code: 'INVALID',
            message: 'is for staff: students and parents do not administer triggers',
          },
        ],
      });
    }
  });
});

describe('credentials of administrators', () => {
  const notTheirs = (field: string) => ({
    ...forbidden("You may not manage this user's credentials"),
    data: { [field]: null },
  });

  it('are not issued by a school administrator for another administrator of the school (FORBIDDEN)', async () => {
    const doc = `mutation($input: CreateApiClientInput!) {
      createApiClient(input: $input) { issuedApiClient { userId } userErrors { code } } }`;
    const refused = await expectNothingWritten(() => schoolAdmin(doc, { input: { userId: id(colleague) } }));
    expect(refusal(refused)).toEqual(notTheirs('createApiClient'));
    expect((await schoolAdmin(doc, { input: { userId: id(world.parent) } })).data.createApiClient).toEqual({
      issuedApiClient: { userId: encodeGlobalId('User', world.parent.id) },
      userErrors: [],
    });
  });

  it('are not revoked by a school administrator for another administrator of the school (FORBIDDEN)', async () => {
    const issued = await issueApiClient(server.serverKey, { userId: colleague.id });
    const doc = 'mutation($id: ID!) { deleteApiClient(input: { id: $id }) { deletedApiClientId userErrors { code } } }';
    const refused = await expectNothingWritten(() => schoolAdmin(doc, { id: id(issued) }));
    expect(refusal(refused)).toEqual(notTheirs('deleteApiClient'));
    expect((await (await clients.graphql(colleague))(doc, { id: id(issued) })).data.deleteApiClient).toEqual({
      deletedApiClientId: encodeGlobalId('ApiClient', issued.id),
      userErrors: [],
    });
  });
});
