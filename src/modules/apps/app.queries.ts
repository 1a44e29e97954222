import { db } from '../../db/database';
import { builder } from '../../graphql/builder';
import { registerNodeVisibility, visibleThrough } from '../../graphql/nodes';
import { managedAppsWhere } from './app.policy';

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

// The administrators of the app's district (as `apps`), and the users it acts for (whose `authorizedApps` name it).
registerNodeVisibility('App', async (viewer, ids) => {
  const managed = managedAppsWhere(viewer);
  const rows = await db().app.findMany({
    where: {
      id: { in: ids },
      OR: [...(managed ? [managed] : []), { authorizations: { some: { userId: viewer.id } } }],
    },
    select: { id: true },
  });
  return rows.map((row) => row.id);
});
// As `authorizedApps`: the user the app acts for.
registerNodeVisibility(
  'AppAuthorization',
  visibleThrough(
    'AppAuthorization',
    { select: { userId: true }, of: (row: { id: number; userId: number }) => row.userId },
    (viewer, userId) => viewer.id === userId,
  ),
);
