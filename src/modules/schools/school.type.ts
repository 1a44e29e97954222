import { builder } from '../../graphql/builder';
import { exposeColumns, exposeOptionalText, exposeDatabaseId, nodeId } from '../../graphql/columns';

export const SchoolType = builder.prismaNode('School', {
  id: nodeId,
  fields: (t) => ({
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'School', ['title', 'districtId', 'createdAt']),
    ...exposeOptionalText(t, 'School', [
      'address1',
      'address2',
      'city',
      'state',
      'postalCode',
      'country',
      'website',
      'phone',
      'fax',
      'pictureUrl',
      'buildingCode',
    ]),
    isBuilding: t.boolean({
      description: 'Whether this is a building of another school.',
      select: { parentId: true },
      resolve: (school) => school.parentId !== null,
    }),
    parent: t.relation('parent', { nullable: true }),
    district: t.relation('district', { description: 'The district the school is in (`districtId`).' }),
  }),
});
