import { beforeAll, describe, expect, it } from 'vitest';
import { decryptSecret } from '../../src/auth/secrets';
import { db } from '../../src/db/database';
import { type GraphQLClient, clientsFor } from '../support/client';
import { type World, createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';
import { expectNothingWritten } from '../support/writes';
import { registerApp } from './oauth1-support';

const server = useTestServer();
const clients = clientsFor(server);

let world: World;
let admin: GraphQLClient;

beforeAll(async () => {
  world = await createWorld();
  admin = await clients.graphql(world.districtAdmin);
});

const registerDoc = `mutation($input: RegisterAppInput!) { registerApp(input: $input) {
  registeredApp { id } userErrors { field code } } }`;
const updateDoc = `mutation($input: UpdateAppInput!) { updateApp(input: $input) {
  app { name description redirectUris } userErrors { field code } } }`;

describe('registering apps', () => {
  it("registers an app in the administrator's district, its secret stored encrypted and shown once", async () => {
    const keys = await registerApp(admin, { name: 'Reader', redirectUris: ['https://reader.example/cb'] });
    const stored = await db().app.findUniqueOrThrow({ where: { id: Number(keys.databaseId) } });
    expect(stored).toMatchObject({ districtId: world.district.id, name: 'Reader', consumerKey: keys.consumerKey });
    expect(stored.encryptedSecret).not.toContain(keys.consumerSecret);
    expect(decryptSecret(stored.encryptedSecret, server.serverKey)).toBe(keys.consumerSecret);
    const listed = await admin('{ apps { databaseId name description redirectUris } }');
    expect(listed.data.apps).toContainEqual({
      databaseId: keys.databaseId,
      name: 'Reader',
      description: null,
      redirectUris: ['https://reader.example/cb'],
    });
    // Nobody else of the district lists it.
    expect((await (await clients.graphql(world.schoolAdmin))('{ apps { id } }')).data.apps).toEqual([]);
  });

  it('refuses redirect URIs that are not absolute URLs without a fragment, and a blank name, writing nothing', async () => {
    for (const [input, field, code] of [
      [{ name: 'X', redirectUris: ['/relative'] }, ['input', 'redirectUris', '0'], 'INVALID'],
      [{ name: 'X', redirectUris: ['https://x.example/#frag'] }, ['input', 'redirectUris', '0'], 'INVALID'],
      [{ name: ' ' }, ['input', 'name'], 'REQUIRED'],
    ] as const) {
      const answer = await expectNothingWritten(() => admin(registerDoc, { input }));
      expect(answer.data.registerApp).toEqual({ registeredApp: null, userErrors: [{ field, code }] });
    }
  });

  it('changes what is given and keeps the rest', async () => {
    const keys = await registerApp(admin, { name: 'Before', description: 'Old.', redirectUris: ['app://cb'] });
    const changed = await admin(updateDoc, { input: { id: keys.id, name: 'After', redirectUris: [] } });
    expect(changed.data.updateApp).toEqual({
      app: { name: 'After', description: 'Old.', redirectUris: [] },
      userErrors: [],
    });
    const cleared = await admin(updateDoc, { input: { id: keys.id, description: null } });
    expect(cleared.data.updateApp.app.description).toBeNull();
  });

  it("hides another district's app from its administrator", async () => {
    const keys = await registerApp(admin, { name: 'Ours' });
    const outsider = await clients.graphql(world.outsider);
    const answer = await expectNothingWritten(() => outsider(updateDoc, { input: { id: keys.id, name: 'Theirs' } }));
    expect(answer.data.updateApp.userErrors).toEqual([{ field: ['input', 'id'], code: 'NOT_FOUND' }]);
  });
});
