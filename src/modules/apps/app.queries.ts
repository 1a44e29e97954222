import { can } from '../../auth/policy';
import { db } from '../../db/database';
import { builder } from '../../graphql/builder';
import { registerNodeVisibility, visibleThrough } from '../../graphql/nodes';
import { appPolicy, managedAppsWhere } from './app.policy';

builder.queryFields((t) => ({
  apps: t.withAuth({ authenticated: true }).prismaField({
    type: ['App'],
    description: "The apps registered in the viewer's district, for its administrators; empty for anyone else.",
    resolve: async (query, _root, _args, { viewer }) => {
      const where = managedAppsWhere(viewer);
      return where ? db().app.findMany({ ...query, where, orderBy: { id: 'asc' } }) : [];
    },
  }),
}));

// As `apps`: the administrators of the app's district.
registerNodeVisibility(
  'App',
  visibleThrough(
    'App',
    { select: { districtId: true }, of: (row: { id: number; districtId: number }) => row.districtId },
    (viewer, districtId) => can(viewer, appPolicy, 'manage', districtId),
  ),
);
// As `authorizedApps`: the user the app acts for.
registerNodeVisibility(
  'AppAuthorization',
  visibleThrough(
    'AppAuthorization',
    { select: { userId: true }, of: (row: { id: number; userId: number }) => row.userId },
    (viewer, userId) => viewer.id === userId,
  ),
);
