import { createGroup, createSection } from '../../support/factories';
import { permissionCases } from '../../support/permissions';

const realmEvents = 'subscription($realm: RealmInput!) { realmEvents(realm: $realm) { type } }';
const realm = (type: string, object: { id: number }) => ({ realm: { type, id: String(object.id) } });

// Columns:                  outsider, otherSchoolStudent, student, teacher, parent, schoolAdmin, districtAdmin.
export default permissionCases(
  'events',
  async (world) => ({
    open: await createGroup(world.school.id, { privacyLevel: 'SCHOOL', admins: [world.teacher.id] }),
    closed: await createGroup(world.school.id, {
      privacyLevel: 'GROUP',
      admins: [world.teacher.id],
      members: [world.student.id],
    }),
    section: await createSection(world.school.id, [
      { userId: world.teacher.id, admin: true },
      { userId: world.student.id },
    ]),
  }),
  [
    {
      graphql: realmEvents,
      name: 'the district',
      expect: 'h o o o o o o',
      variables: (f) => realm('DISTRICT', f.district),
    },
    { graphql: realmEvents, name: 'a school', expect: 'h o o o o o o', variables: (f) => realm('SCHOOL', f.school) },
    {
      graphql: realmEvents,
      name: 'a school-wide group',
      expect: 'h h o o o o o',
      variables: (f) => realm('GROUP', f.open),
    },
    {
      graphql: realmEvents,
      name: 'a members-only group',
      expect: 'h h o o h o o',
      variables: (f) => realm('GROUP', f.closed),
    },
    {
      graphql: realmEvents,
      name: 'a section (closed to those not enrolled)',
      expect: 'h h o o f o o',
      variables: (f) => realm('SECTION', f.section),
    },
    {
      graphql: realmEvents,
      name: "a student's own realm",
      expect: 'h h o o o o o',
      variables: (f) => realm('USER', f.student),
    },
    // Everyone follows what they may read; the event the matrix publishes is in the caller's own realm (the variable
    // names it for the matrix only: the operation takes none).
    {
      graphql: 'subscription { viewerEvents { type } }',
      name: "the viewer's dashboard",
      expect: 'o o o o o o o',
      variables: (_f, caller) => realm('USER', caller.user),
    },
  ],
);
