import { builder } from '../../graphql/builder';
import { exposeColumns, exposeDatabaseId, nodeId } from '../../graphql/columns';
import { launchGrant, launchPath } from './web-package.launch';
import { loadRealm, userReference } from '../../graphql/references';
import { SectionType } from '../roster/roster.type';
import { UserType } from '../users/user.type';

export const WebPackageObject = builder.prismaNode('WebPackage', {
  id: nodeId,
  fields: (t) => ({
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'WebPackage', ['title', 'creatorId', 'entryPath', 'createdAt']),
    sectionId: t.exposeID('realmId', { description: 'The course section the package belongs to.' }),
    section: t.field({
      type: SectionType,
      nullable: true,
      description: 'The course section the package belongs to (`sectionId`).',
      select: { realmId: true },
      resolve: (item, _args, context) => loadRealm(context, { type: 'SECTION', id: item.realmId }),
    }),
    creator: t.field({
      type: UserType,
      nullable: true,
      description:
        'The user who uploaded the package (`creatorId`); null when they are gone or hidden from the viewer.',
      select: { creatorId: true },
      resolve: (item, _args, context) => userReference(item.creatorId, context),
    }),
    url: t.string({
      description:
        "The launch URL: opens the package's site for the viewer, and for no one else. It carries a grant signed for " +
        'this package and viewer that lasts 12 to 24 hours; ask again for a fresh one.',
      select: { id: true, entryPath: true },
      resolve: (item, _args, { serverKey, origin, viewer }) =>
        `${origin}${launchPath(item.id, launchGrant(serverKey, item.id, viewer!.id), item.entryPath)}`,
    }),
  }),
});
