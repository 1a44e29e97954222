import { builder } from '../../graphql/builder';
import { exposeColumns } from '../../graphql/columns';
import { launchGrant, launchPath } from './web-package.launch';

export const WebPackageObject = builder.prismaObject('WebPackage', {
  fields: (t) => ({
    ...exposeColumns(t, 'WebPackage', ['id', 'title', 'creatorId', 'entryPath', 'createdAt']),
    sectionId: t.exposeID('realmId', { description: 'The course section the package belongs to.' }),
    url: t.string({
      description:
        'The launch URL: opens the package\'s site for the viewer, and for no one else. It carries a grant signed for ' +
        'this package and viewer that lasts 12 to 24 hours; ask again for a fresh one.',
      select: { id: true, entryPath: true },
      resolve: (item, _args, { serverKey, origin, viewer }) => `${origin}${launchPath(item.id, launchGrant(serverKey, item.id, viewer!.id), item.entryPath)}`,
    }),
  }),
});
