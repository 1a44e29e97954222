import { builder } from '../../graphql/builder';
import { DeletedType } from '../../graphql/deleted';
import { parseId } from '../../graphql/realm';
import { db } from '../../db/database';
import {
  type IssuedAccessToken,
  type IssuedApiClient,
  assertManagesCredentialsOf,
  issueAccessToken,
  issueApiClient,
  revokeAccessToken,
  revokeApiClient,
} from './access.service';
import { z } from 'zod';
import { validate } from '../../core/validation';

builder.prismaObject('ApiClient', {
  description: 'OAuth 1.0a consumer credentials that act as their user.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Client id.' }),
    name: t.exposeString('name', { description: 'What the credentials are for.' }),
    consumerKey: t.exposeString('consumerKey', { description: 'OAuth consumer key.' }),
    user: t.relation('user', { description: 'The user the credentials act as.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the credentials were issued.' }),
  }),
});

builder.prismaObject('AccessToken', {
  description: 'A bearer token for GraphQL front ends.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Token id.' }),
    name: t.exposeString('name', { description: 'What the token is for.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the token was issued.' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true, description: 'When the token stops working.' }),
  }),
});

const IssuedApiClientType = builder.objectRef<IssuedApiClient>('IssuedApiClient').implement({
  description: 'Newly issued consumer credentials. The secret is shown only here.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Client id.' }),
    userId: t.exposeID('userId', { description: 'The user the credentials act as.' }),
    name: t.exposeString('name', { description: 'What the credentials are for.' }),
    consumerKey: t.exposeString('consumerKey', { description: 'OAuth consumer key.' }),
    consumerSecret: t.exposeString('consumerSecret', { description: 'OAuth consumer secret; store it now.' }),
  }),
});

const IssuedAccessTokenType = builder.objectRef<IssuedAccessToken>('IssuedAccessToken').implement({
  description: 'A newly issued bearer token. The token is shown only here.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Token id.' }),
    name: t.exposeString('name', { description: 'What the token is for.' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true, description: 'When it stops working.' }),
    token: t.exposeString('token', { description: 'Send as `Authorization: Bearer <token>`; store it now.' }),
  }),
});

const credentialSchema = z.object({
  name: z.string().trim().max(255, 'must be at most 255 characters').optional(),
  expiresInDays: z.number().int().min(1, 'must be at least 1').max(3650, 'must be at most 3650').nullish(),
});

const CreateApiClientInput = builder.inputType('CreateApiClientInput', {
  description: 'Consumer credentials to issue.',
  fields: (t) => ({
    userId: t.id({ description: 'The user they act as; the viewer when left out (administrators may name their users).' }),
    name: t.string({ description: 'What the credentials are for.' }),
  }),
});

const CreateAccessTokenInput = builder.inputType('CreateAccessTokenInput', {
  description: 'A bearer token to issue for the viewer.',
  fields: (t) => ({
    name: t.string({ description: 'What the token is for.' }),
    expiresInDays: t.int({ description: 'Lifetime in days; no expiry when left out.' }),
  }),
});

builder.queryFields((t) => ({
  apiClients: t.withAuth({ authenticated: true }).prismaField({
    type: ['ApiClient'],
    description: 'The viewer\'s consumer credentials (without secrets).',
    resolve: (query, _root, _args, { viewer }) =>
      db().apiClient.findMany({ ...query, where: { userId: viewer.id }, orderBy: { id: 'asc' } }),
  }),
  accessTokens: t.withAuth({ authenticated: true }).prismaField({
    type: ['AccessToken'],
    description: 'The viewer\'s bearer tokens (without the tokens themselves).',
    resolve: (query, _root, _args, { viewer }) =>
      db().accessToken.findMany({ ...query, where: { userId: viewer.id }, orderBy: { id: 'asc' } }),
  }),
}));

builder.mutationFields((t) => ({
  createApiClient: t.withAuth({ authenticated: true }).field({
    type: IssuedApiClientType,
    description: 'Issues OAuth consumer credentials for the viewer, or for a user the viewer administers.',
    errors: {},
    args: { input: t.arg({ type: CreateApiClientInput, required: true }) },
    resolve: async (_root, { input }, { viewer, serverKey }) => {
      const { name } = validate(credentialSchema, { name: input.name ?? undefined });
      const userId = input.userId ? parseId(input.userId, 'userId') : viewer.id;
      await assertManagesCredentialsOf(viewer, userId);
      return issueApiClient(serverKey, { userId, name, actorId: viewer.id });
    },
  }),
  createAccessToken: t.withAuth({ authenticated: true }).field({
    type: IssuedAccessTokenType,
    description: 'Issues a bearer token for the viewer.',
    errors: {},
    args: { input: t.arg({ type: CreateAccessTokenInput, required: true }) },
    resolve: async (_root, { input }, { viewer }) => {
      const options = validate(credentialSchema, { name: input.name ?? undefined, expiresInDays: input.expiresInDays });
      return issueAccessToken({ userId: viewer.id, ...options, actorId: viewer.id });
    },
  }),
  deleteApiClient: t.withAuth({ authenticated: true }).field({
    type: DeletedType,
    description: 'Revokes consumer credentials.',
    errors: {},
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, { viewer }) => revokeApiClient(viewer, parseId(args.id)),
  }),
  deleteAccessToken: t.withAuth({ authenticated: true }).field({
    type: DeletedType,
    description: 'Revokes a bearer token.',
    errors: {},
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, { viewer }) => revokeAccessToken(viewer, parseId(args.id)),
  }),
}));
