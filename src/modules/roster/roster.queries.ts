import { db } from '../../db/database';
import { builder } from '../../graphql/builder';
import { connectionOf, connectionOptions, keysetWindow } from '../../graphql/connections';
import { objectQuery } from '../../graphql/operations';
import { readableCoursesWhere, readableSectionsWhere, sectionPolicy } from './roster.policy';
import { registerNodeVisibility, visibleThrough, visibleThroughAll } from '../../graphql/nodes';
import { can, realmVerdict } from '../../auth/policy';
import { userPolicy } from '../users/user.policy';

objectQuery('section', 'Section', sectionPolicy);

// The roster as a front end lists it, each list only what the viewer reads: administrators their district's or
// school's, teachers and students the sections they are active members of. A section's people are its
// `enrollmentsConnection`; a user's are `User.sections` and `User.enrollments`.
builder.queryFields((t) => ({
  sections: t.withAuth({ authenticated: true }).prismaConnection(
    {
      type: 'Section',
      ...connectionOptions,
      description:
        "The sections the viewer reads, by id: their school's (district's) for an administrator, those they teach or " +
        'take (active enrollments) for anyone.',
      resolve: (query, _root, _args, { viewer }) =>
        db().section.findMany(keysetWindow(query, readableSectionsWhere(viewer))),
      totalCount: (_root, _args, { viewer }) => db().section.count({ where: readableSectionsWhere(viewer) }),
    },
    connectionOf('Section'),
  ),
  courses: t.withAuth({ authenticated: true }).prismaConnection(
    {
      type: 'Course',
      ...connectionOptions,
      description:
        "The courses the viewer reads, by id: their school's (district's) for an administrator, those of the sections " +
        'they teach or take for anyone.',
      resolve: (query, _root, _args, { viewer }) =>
        db().course.findMany(keysetWindow(query, readableCoursesWhere(viewer))),
      totalCount: (_root, _args, { viewer }) => db().course.count({ where: readableCoursesWhere(viewer) }),
    },
    connectionOf('Course'),
  ),
}));

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
