import { encodeGlobalId } from '../../core/global-id';
import { builder } from '../../graphql/builder';
import { userReference } from '../../graphql/references';
import { UserType } from '../users/user.type';
import { exposeColumns, exposeOptionalText, exposeDatabaseId, nodeId } from '../../graphql/columns';
import type { IssuedAccessToken, IssuedApiClient } from './access.service';

builder.prismaNode('ApiClient', {
  id: nodeId,
  fields: (t) => ({
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'ApiClient', ['consumerKey', 'createdAt']),
    ...exposeOptionalText(t, 'ApiClient', ['name']),
    user: t.relation('user'),
  }),
});

builder.prismaNode('AccessToken', {
  id: nodeId,
  fields: (t) => ({
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'AccessToken', ['createdAt', 'expiresAt']),
    ...exposeOptionalText(t, 'AccessToken', ['name']),
  }),
});

export const IssuedApiClientType = builder.objectRef<IssuedApiClient>('IssuedApiClient').implement({
  description: 'Newly issued consumer credentials. The secret is shown only here.',
  fields: (t) => ({
    id: t.id({
      description: 'Global id of the API client.',
      resolve: (client) => encodeGlobalId('ApiClient', client.id),
    }),
    databaseId: t.exposeID('id', { description: 'Database id of the API client.' }),
    userId: t.id({
      description: 'Global id of the user the credentials act as; `user` is the user.',
      resolve: (client) => encodeGlobalId('User', client.userId),
    }),
    user: t.field({
      type: UserType,
      nullable: true,
      description: 'The user the credentials act as (`userId`); null when the viewer may not see them.',
      resolve: (client, _args, context) => userReference(client.userId, context),
    }),
    name: t.string({
      nullable: true,
      description: 'What the credentials are for.',
      resolve: (client) => client.name || null,
    }),
    consumerKey: t.exposeString('consumerKey', { description: 'OAuth consumer key.' }),
    consumerSecret: t.exposeString('consumerSecret', { description: 'OAuth consumer secret; store it now.' }),
  }),
});

export const IssuedAccessTokenType = builder.objectRef<IssuedAccessToken>('IssuedAccessToken').implement({
  description: 'A newly issued bearer token. The token is shown only here.',
  fields: (t) => ({
    id: t.id({
      description: 'Global id of the access token.',
      resolve: (token) => encodeGlobalId('AccessToken', token.id),
    }),
    databaseId: t.exposeID('id', { description: 'Database id of the access token.' }),
    name: t.string({ nullable: true, description: 'What the token is for.', resolve: (token) => token.name || null }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true, description: 'When it stops working.' }),
    token: t.exposeString('token', { description: 'Send as `Authorization: Bearer <token>`; store it now.' }),
  }),
});
