import { builder } from '../../graphql/builder';
import { objectMutation, required } from '../../graphql/operations';
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

objectMutation('createSection', {
  type: 'Section',
  description: 'Creates a course section (school and district administrators).',
  args: (arg) => ({ input: arg(required(CreateSectionInput)) }),
  resolve: (viewer, args, query) => createSection(viewer, args.input, query),
});
objectMutation('createEnrollment', {
  type: 'Enrollment',
  description: 'Enrolls a user in a section (its administrators).',
  args: (arg) => ({ input: arg(required(CreateEnrollmentInput)) }),
  resolve: (viewer, args, query) => createEnrollment(viewer, args.input, query),
});
