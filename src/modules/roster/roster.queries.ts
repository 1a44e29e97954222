import { objectQuery } from '../../graphql/operations';
import { sectionPolicy } from './roster.policy';
import { registerNodeVisibility, visibleThrough, visibleThroughAll } from '../../graphql/nodes';
import { can, realmVerdict } from '../../auth/policy';
import { userPolicy } from '../users/user.policy';

objectQuery('section', 'Section', sectionPolicy);

// A course is seen through its sections; `node` shows it to whoever may read its school.
registerNodeVisibility(
  'Course',
  visibleThrough(
    'Course',
    { select: { schoolId: true }, of: (row: { id: number; schoolId: number }) => row.schoolId },
    async (viewer, schoolId) => (await realmVerdict(viewer, { type: 'SCHOOL', id: schoolId }, 'read')) === 'allow',
  ),
);
// As `Section.enrollments`: an enrollment in a section the viewer reads, of a user the viewer may see.
registerNodeVisibility(
  'Enrollment',
  visibleThroughAll<{ id: number; sectionId: number; userId: number }>('Enrollment', [
    {
      select: { sectionId: true },
      of: (row) => row.sectionId,
      readable: (viewer, sectionId) => can(viewer, sectionPolicy, 'read', sectionId),
    },
    {
      select: { userId: true },
      of: (row) => row.userId,
      readable: (viewer, userId) => can(viewer, userPolicy, 'read', userId),
    },
  ]),
);
