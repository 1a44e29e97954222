import { db } from '../../db/database';
import { builder } from '../../graphql/builder';
import { pageArgs, pageOf, paged, offsetListBeside } from '../../graphql/paging';
import { parseId } from '../../graphql/realm';
import { findIfVisible } from '../../graphql/visible';
import { connectionOf, connectionOptions, keysetWindow, hiddenUnless } from '../../graphql/connections';
import { sectionReadable, webPackageReadable } from './web-package.service';
import { registerNodeVisibility, visibleByEach } from '../../graphql/nodes';

const WebPackagePage = pageOf('WebPackage', 'A page of web content packages.');

/** The packages of a section, which `webPackages` and `webPackagesConnection` list. */
const packagesOf = (sectionId: number) => ({ realmType: 'SECTION' as const, realmId: sectionId });

builder.queryFields((t) => ({
  webPackage: t.withAuth({ authenticated: true }).prismaField({
    type: 'WebPackage',
    nullable: true,
    description:
      'A web content package; null when it does not exist, is not in the given section, or the viewer does not read its section.',
    args: {
      id: t.arg.id({ required: true, description: 'Package id.' }),
      sectionId: t.arg.id({ description: 'The course section the package must be in.' }),
    },
    resolve: (query, _root, args, { viewer }) => {
      const id = parseId(args.id, 'WebPackage');
      const sectionId =
        args.sectionId === null || args.sectionId === undefined
          ? null
          : parseId(args.sectionId, 'Section', 'sectionId');
      return findIfVisible(query, webPackageReadable(viewer, id, sectionId), (selection) =>
        db().webPackage.findUnique({ ...selection, where: { id } }),
      );
    },
  }),
  webPackages: t.withAuth({ authenticated: true }).field({
    ...offsetListBeside('webPackagesConnection'),
    type: WebPackagePage,
    nullable: true,
    description:
      'The web content packages of a course section, oldest first; null when the section does not exist or is hidden.',
    args: { sectionId: t.arg.id({ required: true, description: 'Course section id.' }), ...pageArgs },
    resolve: async (_root, args, { viewer }) => {
      const sectionId = parseId(args.sectionId, 'Section', 'sectionId');
      if (!(await sectionReadable(viewer, { type: 'SECTION', id: sectionId }))) return null;
      const where = packagesOf(sectionId);
      return paged(args, {
        findMany: (query) => db().webPackage.findMany({ ...query, where }),
        count: () => db().webPackage.count({ where }),
      });
    },
  }),
  webPackagesConnection: t.withAuth({ authenticated: true }).prismaConnection(
    {
      type: 'WebPackage',
      ...connectionOptions,
      ...hiddenUnless((args: { sectionId: string | number }, { viewer }) =>
        sectionReadable(viewer, { type: 'SECTION', id: parseId(args.sectionId, 'Section', 'sectionId') }),
      ),
      description:
        'The packages `webPackages` lists, as a Relay connection in the same order; null when the section does not exist or is hidden.',
      args: { sectionId: t.arg.id({ required: true, description: 'Course section id.' }) },
      resolve: (query, _root, args) =>
        db().webPackage.findMany(keysetWindow(query, packagesOf(parseId(args.sectionId, 'Section', 'sectionId')))),
      totalCount: (_root, args) =>
        db().webPackage.count({ where: packagesOf(parseId(args.sectionId, 'Section', 'sectionId')) }),
    },
    connectionOf('WebPackage'),
  ),
}));

// As `webPackage(id)` without a section: whoever reads the package's section.
registerNodeVisibility(
  'WebPackage',
  visibleByEach((viewer, id) => webPackageReadable(viewer, id, null)),
);
