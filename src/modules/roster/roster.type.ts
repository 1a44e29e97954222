import { EnrollmentStatus } from '../../generated/prisma/enums';
import { builder } from '../../graphql/builder';
import { exposeColumns, exposeOptionalText, exposeDatabaseId, nodeId } from '../../graphql/columns';
import { readableUsersWhere } from '../users/user.policy';
import { keysetRelatedConnection, listOrder } from '../../graphql/connections';

export const EnrollmentStatusEnum = builder.enumType(EnrollmentStatus, {
  name: 'EnrollmentStatus',
  description: 'State of an enrollment.',
  values: {
    ACTIVE: { description: 'A current member of the section: attends, is graded, sees its materials.' },
    EXPIRED: { description: 'The membership has ended; the student no longer takes part.' },
    INVITE_PENDING: { description: 'Invited to the section; becomes active when the user accepts.' },
    REQUEST_PENDING: {
      description: 'Asked to join the section; becomes active when a teacher or administrator accepts.',
    },
    ARCHIVED: { description: "Kept for the record after the section ended, such as last year's classes." },
  },
});

builder.prismaNode('Course', {
  id: nodeId,
  fields: (t) => ({
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'Course', ['title', 'courseCode']),
    school: t.relation('school'),
  }),
});

export const SectionType = builder.prismaNode('Section', {
  id: nodeId,
  fields: (t) => ({
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'Section', ['title', 'createdAt']),
    ...exposeOptionalText(t, 'Section', ['sectionCode']),
    course: t.relation('course'),
    // A district administrator may enroll users of several schools; each reader sees only those `user(id)` shows them.
    enrollments: t.relation('enrollments', {
      description: 'Enrollments of users the viewer may see, in the order they were made.',
      query: (_args, { viewer }) => ({ where: { user: readableUsersWhere(viewer) }, orderBy: { id: 'asc' } }),
    }),
    enrollmentsConnection: keysetRelatedConnection(t, 'enrollments', {
      type: EnrollmentType,
      description: 'The enrollments `enrollments` lists, as a Relay connection in the same order.',
      order: [listOrder],
      where: (_args, { viewer }) => ({ user: readableUsersWhere(viewer) }),
    }),
  }),
});

export const EnrollmentType = builder.prismaNode('Enrollment', {
  id: nodeId,
  fields: (t) => ({
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'Enrollment', ['admin']),
    status: t.expose('status', { type: EnrollmentStatusEnum }),
    user: t.relation('user'),
    section: t.relation('section'),
  }),
});
