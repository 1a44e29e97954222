import { EnrollmentStatus } from '../../generated/prisma/enums';
import { builder } from '../../graphql/builder';

export const EnrollmentStatusEnum = builder.enumType(EnrollmentStatus, {
  name: 'EnrollmentStatus',
  description: 'State of an enrollment.',
});

builder.prismaObject('Course', {
  description: 'A course of a school; its sections are where teaching happens.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Course id.' }),
    title: t.exposeString('title', { description: 'Course title.' }),
    courseCode: t.exposeString('courseCode', { description: 'Course code, unique in the school.' }),
    school: t.relation('school', { description: 'School offering the course.' }),
  }),
});

builder.prismaObject('Section', {
  description: 'A course section: a class of students with its teachers.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Section id.' }),
    title: t.exposeString('title', { description: 'Section title.' }),
    sectionCode: t.exposeString('sectionCode', { description: 'Section code.' }),
    course: t.relation('course', { description: 'The course of the section.' }),
    enrollments: t.relation('enrollments', { description: 'Enrollments, in the order they were made.', query: { orderBy: { id: 'asc' } } }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the section was created.' }),
  }),
});

builder.prismaObject('Enrollment', {
  description: 'A user enrolled in a section; teachers are section administrators.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Enrollment id.' }),
    admin: t.exposeBoolean('admin', { description: 'Whether the user administers the section.' }),
    status: t.expose('status', { type: EnrollmentStatusEnum, description: 'State of the enrollment.' }),
    user: t.relation('user', { description: 'The enrolled user.' }),
    section: t.relation('section', { description: 'The section.' }),
  }),
});
