import { builder } from '../../graphql/builder';
import { createEnrollment, createSection } from './roster.service';
import { EnrollmentStatusEnum } from './roster.type';

const CreateSectionInput = builder.inputType('CreateSectionInput', {
  description: 'A new course section; the course is created when its code is new to the school.',
  fields: (t) => ({
    schoolId: t.id({ description: 'School; the viewer\'s when left out.' }),
    courseTitle: t.string({ required: true, description: 'Course title.' }),
    courseCode: t.string({ required: true, description: 'Course code, unique in the school.' }),
    title: t.string({ required: true, description: 'Section title.' }),
    sectionCode: t.string({ description: 'Section code.' }),
  }),
});

const CreateEnrollmentInput = builder.inputType('CreateEnrollmentInput', {
  description: 'Enrolls a user in a section.',
  fields: (t) => ({
    sectionId: t.id({ required: true, description: 'Section.' }),
    userId: t.id({ required: true, description: 'User.' }),
    admin: t.boolean({ description: 'Section administrator (teacher); default false.' }),
    status: t.field({ type: EnrollmentStatusEnum, description: 'Default ACTIVE.' }),
  }),
});

builder.mutationFields((t) => ({
  createSection: t.withAuth({ authenticated: true }).prismaField({
    type: 'Section',
    description: 'Creates a course section (school and district administrators).',
    errors: {},
    args: { input: t.arg({ type: CreateSectionInput, required: true }) },
    resolve: (query, _root, args, { viewer }) => createSection(viewer, args.input, query),
  }),
  createEnrollment: t.withAuth({ authenticated: true }).prismaField({
    type: 'Enrollment',
    description: 'Enrolls a user in a section (its administrators).',
    errors: {},
    args: { input: t.arg({ type: CreateEnrollmentInput, required: true }) },
    resolve: (query, _root, args, { viewer }) => createEnrollment(viewer, args.input, query),
  }),
}));
