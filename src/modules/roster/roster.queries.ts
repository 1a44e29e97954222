import { can } from '../../auth/policy';
import { db } from '../../db/database';
import { objectQuery } from '../../graphql/operations';
import { sectionPolicy } from './roster.policy';

objectQuery('section', {
  type: 'Section',
  description: 'A section the viewer is enrolled in or administers; null otherwise.',
  visible: (viewer, id) => can(viewer, sectionPolicy, 'read', id),
  find: (selection, id) => db().section.findUnique({ ...selection, where: { id } }),
});
