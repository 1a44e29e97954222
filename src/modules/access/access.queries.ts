import { db } from '../../db/database';
import { builder } from '../../graphql/builder';
import { connectionOf, connectionOptions, keysetWindow } from '../../graphql/connections';
import { registerNodeVisibility, visibleThrough } from '../../graphql/nodes';
import { can } from '../../auth/policy';
import type { Viewer } from '../../auth/viewer';
import { credentialPolicy, ownCredentialsWhere } from './access.policy';

builder.queryFields((t) => ({
  apiClients: t.withAuth({ authenticated: true }).prismaField({
    type: ['ApiClient'],
    description: "The viewer's consumer credentials (without secrets).",
    resolve: (query, _root, _args, { viewer }) =>
      db().apiClient.findMany({ ...query, where: ownCredentialsWhere(viewer), orderBy: { id: 'asc' } }),
  }),
  accessTokens: t.withAuth({ authenticated: true }).prismaField({
    type: ['AccessToken'],
    description: "The viewer's bearer tokens (without the tokens themselves).",
    resolve: (query, _root, _args, { viewer }) =>
      db().accessToken.findMany({ ...query, where: ownCredentialsWhere(viewer), orderBy: { id: 'asc' } }),
  }),
  apiClientsConnection: t.withAuth({ authenticated: true }).prismaConnection(
    {
      type: 'ApiClient',
      ...connectionOptions,
      description: 'The credentials `apiClients` lists, as a Relay connection in the same order.',
      resolve: (query, _root, _args, { viewer }) =>
        db().apiClient.findMany(keysetWindow(query, ownCredentialsWhere(viewer))),
      totalCount: (_root, _args, { viewer }) => db().apiClient.count({ where: ownCredentialsWhere(viewer) }),
    },
    connectionOf('ApiClient'),
  ),
  accessTokensConnection: t.withAuth({ authenticated: true }).prismaConnection(
    {
      type: 'AccessToken',
      ...connectionOptions,
      description: 'The tokens `accessTokens` lists, as a Relay connection in the same order.',
      resolve: (query, _root, _args, { viewer }) =>
        db().accessToken.findMany(keysetWindow(query, ownCredentialsWhere(viewer))),
      totalCount: (_root, _args, { viewer }) => db().accessToken.count({ where: ownCredentialsWhere(viewer) }),
    },
    connectionOf('AccessToken'),
  ),
}));

// As `apiClients` and `accessTokens`: the viewer's own.
const ownedByViewer = (viewer: Viewer, userId: number) => can(viewer, credentialPolicy, 'read', userId);
registerNodeVisibility(
  'ApiClient',
  visibleThrough(
    'ApiClient',
    { select: { userId: true }, of: (row: { id: number; userId: number }) => row.userId },
    ownedByViewer,
  ),
);
registerNodeVisibility(
  'AccessToken',
  visibleThrough(
    'AccessToken',
    { select: { userId: true }, of: (row: { id: number; userId: number }) => row.userId },
    ownedByViewer,
  ),
);
