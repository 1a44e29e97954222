import { builder } from '../../graphql/builder';

export const SchoolType = builder.prismaObject('School', {
  description: 'A school, or a building of a school (a building is a school whose parent is a school).',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'School id.' }),
    title: t.exposeString('title', { description: 'Name of the school.' }),
    address1: t.exposeString('address1', { description: 'First address line.' }),
    address2: t.exposeString('address2', { description: 'Second address line.' }),
    city: t.exposeString('city', { description: 'City.' }),
    state: t.exposeString('state', { description: 'State or region.' }),
    postalCode: t.exposeString('postalCode', { description: 'Postal code.' }),
    country: t.exposeString('country', { description: 'Country.' }),
    website: t.exposeString('website', { description: 'Website URL.' }),
    phone: t.exposeString('phone', { description: 'Phone number.' }),
    fax: t.exposeString('fax', { description: 'Fax number.' }),
    pictureUrl: t.exposeString('pictureUrl', { description: 'Picture URL.' }),
    buildingCode: t.exposeString('buildingCode', { description: 'Code of the building, used by imports.' }),
    isBuilding: t.boolean({
      description: 'Whether this is a building of another school.',
      select: { parentId: true },
      resolve: (school) => school.parentId !== null,
    }),
    parent: t.relation('parent', { nullable: true, description: 'The school this building belongs to.' }),
    districtId: t.exposeID('districtId', { description: 'District the school belongs to.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the school was created.' }),
  }),
});
