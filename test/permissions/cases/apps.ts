import { encryptSecret, randomToken } from '../../../src/auth/secrets';
import { db } from '../../../src/db/database';
import type { TestServer } from '../../support/harness';
import { type Fixture, outcome, permissionCases } from '../../support/permissions';

const id = (object: { id: number }) => String(object.id);
/** An app of the cast's district, written straight to the database. */
const createApp = (districtId: number, server: TestServer) =>
  db().app.create({
    data: {
      districtId,
      name: 'Matrix app',
      consumerKey: randomToken(16),
      encryptedSecret: encryptSecret(randomToken(24), server.serverKey),
      redirectUris: [],
    },
  });
/** The user's approval of the app, made if missing: each request that revokes it finds one. */
const approval = (appId: number, userId: number) =>
  db().appAuthorization.upsert({
    where: { userId_appId: { userId, appId } },
    create: { userId, appId },
    update: {},
  });

const registerAppDoc = `mutation($input: RegisterAppInput!) { registerApp(input: $input) { ${outcome} } }`;
const updateAppDoc = `mutation($input: UpdateAppInput!) { updateApp(input: $input) { ${outcome} } }`;
const deleteAppDoc = `mutation($input: DeleteAppInput!) { deleteApp(input: $input) { ${outcome} } }`;
const revokeDoc = `mutation($input: RevokeAppAuthorizationInput!) { revokeAppAuthorization(input: $input) { ${outcome} } }`;

type Apps = { app: { id: number } };

// Columns:                  outsider, otherSchoolStudent, student, teacher, parent, schoolAdmin, districtAdmin.
export default permissionCases('apps', async (world, server) => ({ app: await createApp(world.district.id, server) }), [
  {
    graphql: '{ apps { id: databaseId } }',
    name: "the district's, for its administrators",
    expect: 'h h h h h h o',
    finds: (answer: { id: string }[], f: Fixture<Apps>) => answer.some((app) => app.id === id(f.app)),
  },
  {
    // The outsider administers a district of their own, where the app is registered.
    graphql: registerAppDoc,
    name: "in the viewer's district",
    expect: 'o f f f f f o',
    variables: () => ({ input: { name: 'Registered' } }),
  },
  {
    graphql: registerAppDoc,
    name: 'an OAuth 2.0 public client',
    expect: 'o f f f f f o',
    variables: () => ({
      input: { name: 'Browser app', clientType: 'PUBLIC', redirectUris: ['https://app.example/callback'] },
    }),
  },
  {
    graphql: updateAppDoc,
    name: "an app of the cast's district",
    expect: 'h f f f f f o',
    variables: (f: Fixture<Apps>) => ({ input: { id: id(f.app), description: 'Changed.' } }),
  },
  {
    graphql: deleteAppDoc,
    name: "an app of the cast's district",
    expect: 'h f f f f f o',
    variables: async (f: Fixture<Apps>) => ({ input: { id: id(await createApp(f.district.id, f.server)) } }),
  },
  {
    graphql: revokeDoc,
    name: "the viewer's own",
    expect: 'o o o o o o o',
    variables: async (f: Fixture<Apps>, caller) => {
      await approval(f.app.id, caller.user.id);
      return { input: { appId: id(f.app) } };
    },
  },
  {
    graphql: revokeDoc,
    name: "a student's",
    expect: 'h h o f f o o',
    variables: async (f: Fixture<Apps>) => {
      await approval(f.app.id, f.student.id);
      return { input: { appId: id(f.app), userId: id(f.student) } };
    },
  },
]);
