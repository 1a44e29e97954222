import { EnrollmentStatus } from '../../generated/prisma/enums';
import { builder } from '../../graphql/builder';
import { exposeColumns } from '../../graphql/columns';

export const EnrollmentStatusEnum = builder.enumType(EnrollmentStatus, {
  name: 'EnrollmentStatus',
  description: 'State of an enrollment.',
});

builder.prismaObject('Course', {
  fields: (t) => ({
    ...exposeColumns(t, 'Course', ['id', 'title', 'courseCode']),
    school: t.relation('school'),
  }),
});

builder.prismaObject('Section', {
  fields: (t) => ({
    ...exposeColumns(t, 'Section', ['id', 'title', 'sectionCode', 'createdAt']),
    course: t.relation('course'),
    enrollments: t.relation('enrollments', { query: { orderBy: { id: 'asc' } } }),
  }),
});

builder.prismaObject('Enrollment', {
  fields: (t) => ({
    ...exposeColumns(t, 'Enrollment', ['id', 'admin']),
    status: t.expose('status', { type: EnrollmentStatusEnum }),
    user: t.relation('user'),
    section: t.relation('section'),
  }),
});
