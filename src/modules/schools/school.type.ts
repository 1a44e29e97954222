import { builder } from '../../graphql/builder';
import { exposeColumns, exposeOptionalText } from '../../graphql/columns';

export const SchoolType = builder.prismaObject('School', {
  fields: (t) => ({
    ...exposeColumns(t, 'School', [
      'id', 'title', 'districtId', 'createdAt'
    ]),
    ...exposeOptionalText(t, 'School', [
      'address1', 'address2', 'city', 'state', 'postalCode', 'country', 'website', 'phone', 'fax', 'pictureUrl', 'buildingCode',
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
