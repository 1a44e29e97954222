import { db } from '../../db/database';
import { builder } from '../../graphql/builder';

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
