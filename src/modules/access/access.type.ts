import { builder } from '../../graphql/builder';
import { exposeColumns } from '../../graphql/columns';
import type { IssuedAccessToken, IssuedApiClient } from './access.service';

builder.prismaObject('ApiClient', {
  fields: (t) => ({
    ...exposeColumns(t, 'ApiClient', ['id', 'name', 'consumerKey', 'createdAt']),
    user: t.relation('user'),
  }),
});

builder.prismaObject('AccessToken', {
  fields: (t) => ({
    ...exposeColumns(t, 'AccessToken', ['id', 'name', 'createdAt', 'expiresAt']),
  }),
});

export const IssuedApiClientType = builder.objectRef<IssuedApiClient>('IssuedApiClient').implement({
  description: 'Newly issued consumer credentials. The secret is shown only here.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Client id.' }),
    userId: t.exposeID('userId', { description: 'The user the credentials act as.' }),
    name: t.exposeString('name', { description: 'What the credentials are for.' }),
    consumerKey: t.exposeString('consumerKey', { description: 'OAuth consumer key.' }),
    consumerSecret: t.exposeString('consumerSecret', { description: 'OAuth consumer secret; store it now.' }),
  }),
});

export const IssuedAccessTokenType = builder.objectRef<IssuedAccessToken>('IssuedAccessToken').implement({
  description: 'A newly issued bearer token. The token is shown only here.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Token id.' }),
    name: t.exposeString('name', { description: 'What the token is for.' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true, description: 'When it stops working.' }),
    token: t.exposeString('token', { description: 'Send as `Authorization: Bearer <token>`; store it now.' }),
  }),
});
