import { db } from '../../db/database';
import { builder } from '../../graphql/builder';
import { realmObjectQuery } from '../../graphql/operations';
import { pageArgs, pageOf, paged, offsetListBeside } from '../../graphql/paging';
import { RealmInput, realmRef } from '../../graphql/realm';
import { shownPagesWhere } from './page.policy';
import { assertReadable } from './page.service';
import {
  type RealmArgument,
  connectionOf,
  connectionOptions,
  keysetWindow,
  hiddenUnless,
} from '../../graphql/connections';
import type { RealmRef } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';

const PagePage = pageOf('Page', 'A page of pages.');

/** The pages of a realm the viewer is shown. */
const shownPagesOf = async (viewer: Viewer, realm: RealmRef) => ({
  AND: [{ realmType: realm.type, realmId: realm.id }, await shownPagesWhere(viewer, realm)],
});

realmObjectQuery('page', 'Page', {
  description:
    'A page of a realm; null when it or its realm does not exist or is hidden from the viewer, or when the page is ' +
    "unpublished or assigned to others (only the realm's administrators see those).",
  readable: assertReadable,
  shown: shownPagesWhere,
});

builder.queryFields((t) => ({
  pages: t.withAuth({ authenticated: true }).field({
    ...offsetListBeside('pagesConnection'),
    type: PagePage,
    nullable: true,
    description: 'The pages of a realm the viewer sees, oldest first; null when the realm does not exist or is hidden.',
    args: {
      realm: t.arg({
        type: RealmInput,
        required: true,
        description: 'The realm (district, school, user, section or group) whose pages to list.',
      }),
      ...pageArgs,
    },
    resolve: async (_root, args, { viewer }) => {
      const realm = realmRef(args.realm);
      if (!(await assertReadable(viewer, realm))) return null;
      const where = await shownPagesOf(viewer, realm);
      return paged(args, {
        findMany: (query) => db().page.findMany({ ...query, where }),
        count: () => db().page.count({ where }),
      });
    },
  }),
  pagesConnection: t.withAuth({ authenticated: true }).prismaConnection(
    {
      type: 'Page',
      ...connectionOptions,
      ...hiddenUnless((args: { realm: RealmArgument }, { viewer }) => assertReadable(viewer, realmRef(args.realm))),
      description:
        'The pages `pages` lists, as a Relay connection in the same order; null when the realm does not exist or is hidden.',
      args: {
        realm: t.arg({
          type: RealmInput,
          required: true,
          description: 'The realm (district, school, user, section or group) whose pages to list.',
        }),
      },
      resolve: async (query, _root, args, { viewer }) =>
        db().page.findMany(keysetWindow(query, await shownPagesOf(viewer, realmRef(args.realm)))),
      totalCount: async (_root, args, { viewer }) =>
        db().page.count({ where: await shownPagesOf(viewer, realmRef(args.realm)) }),
    },
    connectionOf('Page'),
  ),
}));
