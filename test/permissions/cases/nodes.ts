import { encodeGlobalId } from '../../../src/core/global-id';
import { createGroup } from '../../support/factories';
import { permissionCases } from '../../support/permissions';

const nodeDoc = 'query($id: ID!) { node(id: $id) { id } }';
const nodesDoc = 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }';
/** `nodes` answers a list: an object the caller may not see is a null in it. */
const allFound = (answer: unknown) => Array.isArray(answer) && answer.every((item) => item !== null);

// `node` and `nodes` show what the type's own query shows (`group(id)`, `user(id)`): the same columns as there.
// Columns:                  outsider, otherSchoolStudent, student, teacher, parent, schoolAdmin, districtAdmin.
export default permissionCases(
  'nodes',
  async (world) => ({
    privateGroup: await createGroup(world.school.id, {
      privacyLevel: 'GROUP',
      admins: [world.teacher.id],
      members: [world.student.id],
    }),
  }),
  [
    {
      graphql: nodeDoc,
      name: 'a group-privacy group, as group(id)',
      expect: 'h h o o h o o',
      variables: (f) => ({ id: encodeGlobalId('Group', f.privateGroup.id) }),
    },
    {
      graphql: nodeDoc,
      name: 'a student, as user(id)',
      expect: 'h h o o o o o',
      variables: (f) => ({ id: encodeGlobalId('User', f.student.id) }),
    },
    {
      graphql: nodesDoc,
      name: 'a group-privacy group and a student',
      expect: 'h h o o h o o',
      finds: allFound,
      variables: (f) => ({ ids: [encodeGlobalId('Group', f.privateGroup.id), encodeGlobalId('User', f.student.id)] }),
    },
  ],
);
