import { encodeGlobalId } from '../../core/global-id';
import { db } from '../../db/database';
import { builder } from '../../graphql/builder';
import { exposeColumns, exposeDatabaseId, exposeOptionalText, nodeId } from '../../graphql/columns';
import { AppClientType } from '../../generated/prisma/enums';
import type { RegisteredApp } from './app.service';

export const AppClientTypeEnum = builder.enumType(AppClientType, {
  name: 'AppClientType',
  description: 'How an app authenticates at the OAuth 2.0 token endpoint (RFC 6749 §2.1).',
  values: {
    CONFIDENTIAL: { description: 'With its consumer secret (a server-side web app).' },
    PUBLIC: {
      description: 'With nothing: it cannot keep a secret (a browser or mobile app), so PKCE alone proves it.',
    },
  },
});

builder.prismaNode('App', {
  id: nodeId,
  description:
    'A third-party app the district registered: it acts for the users who approve it (three-legged OAuth 1.0a, or OAuth 2.0 with its consumer key as client_id).',
  fields: (t) => ({
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'App', ['name', 'consumerKey', 'createdAt']),
    redirectUris: t.exposeStringList('redirectUris', {
      description: 'Callback URLs the app may send users back to, compared exactly.',
    }),
    ...exposeOptionalText(t, 'App', ['description']),
    clientType: t.expose('clientType', {
      type: AppClientTypeEnum,
      description: 'OAuth 2.0 client type, fixed at registration.',
    }),
  }),
});

builder.prismaNode('AppAuthorization', {
  id: nodeId,
  description: "A user's approval of an app, which lets the app act for them until it is revoked.",
  fields: (t) => ({
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'AppAuthorization', ['createdAt']),
    appId: t.id({
      description: 'Global id of the app; `revokeAppAuthorization` takes it.',
      select: { appId: true },
      resolve: (authorization) => encodeGlobalId('App', authorization.appId),
    }),
    appName: t.string({
      description: 'Name of the app.',
      select: { app: { select: { name: true } } },
      resolve: (authorization) => authorization.app.name,
    }),
    appDescription: t.string({
      nullable: true,
      description: 'What the app does; null when it does not say.',
      select: { app: { select: { description: true } } },
      resolve: (authorization) => authorization.app.description || null,
    }),
  }),
});

builder.prismaObjectField('User', 'authorizedApps', (t) =>
  t.prismaField({
    type: ['AppAuthorization'],
    nullable: true,
    description: 'The apps acting for the user, oldest approval first; only the user sees them (null for others).',
    select: { id: true },
    resolve: (query, user, _args, { viewer }) =>
      user.id === viewer?.id
        ? db().appAuthorization.findMany({ ...query, where: { userId: user.id }, orderBy: { id: 'asc' } })
        : null,
  }),
);

export const RegisteredAppType = builder.objectRef<RegisteredApp>('RegisteredApp').implement({
  description: "A newly registered app's OAuth consumer credentials. The secret is shown only here.",
  fields: (t) => ({
    id: t.id({ description: 'Global id of the app.', resolve: (app) => encodeGlobalId('App', app.id) }),
    databaseId: t.exposeID('id', { description: 'Database id of the app.' }),
    consumerKey: t.exposeString('consumerKey', { description: 'OAuth consumer key.' }),
    consumerSecret: t.exposeString('consumerSecret', { description: 'OAuth consumer secret; store it now.' }),
  }),
});
