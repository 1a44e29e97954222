import type { RealmRef } from '../../../src/auth/realms';
import { createSection, createStoredUpload, createWebPackage, unique } from '../../support/factories';
import { type Caller, type Fixture, outcome, permissionCases } from '../../support/permissions';
import { buildZip } from '../../support/zips';

interface Shared {
  section: RealmRef;
  package: { id: number };
  zip: Buffer;
}
type F = Fixture<Shared>;

const id = (object: { id: number }) => String(object.id);
const hasId = (items: { id: number | string }[], object: { id: number }) =>
  items.some((item) => String(item.id) === id(object));
const freshPackage = (f: F) => createWebPackage(f.section.id, f.teacher.id);
/** A fresh stored zip of the caller's, attachable once. */
const callersZip = async (f: F, caller: Caller) =>
  String((await createStoredUpload(caller.user.id, { bytes: f.zip, filename: 'site.zip' })).id);

// Columns:                  outsider, otherSchoolStudent, student, teacher, parent, schoolAdmin, districtAdmin.
// The teacher administers the section and the student is enrolled; the parent sees the section in its school but is
// not enrolled (403).
export default permissionCases<Shared>(
  'web packages',
  async (world) => {
    const section = await createSection(world.school.id, [
      { userId: world.teacher.id, admin: true },
      { userId: world.student.id },
    ]);
    const package_ = await createWebPackage(section.id, world.teacher.id);
    const zip = await buildZip([{ name: 'index.html', data: '<p>Lab</p>' }]);
    return { section: { type: 'SECTION', id: section.id }, package: package_, zip };
  },
  [
    {
      route: 'GET /[realm]/web_packages',
      name: "a section's",
      expect: 'h h o o f o o',
      request: (f) => ({ realm: f.section }),
      finds: (answer, f) => hasId(answer.web, f.package),
    },
    {
      route: 'GET /[realm]/web_packages/{id}',
      name: "a section's",
      expect: 'h h o o f o o',
      request: (f) => ({ realm: f.section, params: { id: f.package.id } }),
    },
    {
      route: 'DELETE /[realm]/web_packages/{id}',
      name: "a section's",
      expect: 'h h f o f o o',
      request: async (f) => ({ realm: f.section, params: { id: (await freshPackage(f)).id } }),
    },
    {
      graphql: 'query($sectionId: ID!) { webPackages(sectionId: $sectionId) { items { id: databaseId } } }',
      name: "a section's",
      expect: 'h h o o f o o',
      variables: (f) => ({ sectionId: id(f.section) }),
      finds: (answer, f) => hasId(answer.items, f.package),
    },
    {
      graphql:
        'query($sectionId: ID!) { webPackagesConnection(sectionId: $sectionId) { edges { node { id: databaseId } } } }',
      name: "a section's",
      expect: 'h h o o f o o',
      variables: (f) => ({ sectionId: id(f.section) }),
      finds: (answer, f) =>
        hasId(
          answer.edges.map((edge: { node: { id: string } }) => edge.node),
          f.package,
        ),
    },
    {
      graphql: 'query($id: ID!) { webPackage(id: $id) { id: databaseId } }',
      name: "a section's",
      expect: 'h h o o f o o',
      variables: (f) => ({ id: id(f.package) }),
    },
    {
      graphql: `mutation($input: CreateWebPackageInput!) { createWebPackage(input: $input) { ${outcome} } }`,
      name: 'in a section',
      expect: 'h h f o f o o',
      variables: async (f, caller) => ({
        input: { sectionId: id(f.section), title: unique('Package'), uploadId: await callersZip(f, caller) },
      }),
    },
    {
      graphql: `mutation($id: ID!) { deleteWebPackage(input: { id: $id }) { ${outcome} } }`,
      name: "a section's",
      expect: 'h h f o f o o',
      variables: async (f) => ({ id: id(await freshPackage(f)) }),
    },
  ],
);
