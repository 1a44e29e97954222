import { canRead } from '../../auth/permissions';
import { db } from '../../db/database';
import { EnrollmentStatus } from '../../generated/prisma/enums';
import { builder } from '../../graphql/builder';
import { findIfVisible } from '../../graphql/visible';
import { DeletedType } from '../../graphql/deleted';
import { parseId } from '../../graphql/realm';
import { RoleEnum } from '../users/user.type';
import { addGroupMember, createEnrollment, createSection, createUser, removeGroupMember } from './roster.service';

const EnrollmentStatusEnum = builder.enumType(EnrollmentStatus, {
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

const CreateUserInput = builder.inputType('CreateUserInput', {
  description: 'A new user of a school.',
  fields: (t) => ({
    schoolId: t.id({ description: 'School; the viewer\'s when left out.' }),
    buildingId: t.id({ description: 'Building of that school.' }),
    username: t.string({ required: true, description: 'Login name, unique in the school.' }),
    schoolUid: t.string({ description: 'The school\'s own id for the user, unique in the school.' }),
    nameFirst: t.string({ required: true, description: 'First name.' }),
    nameLast: t.string({ required: true, description: 'Last name.' }),
    email: t.string({ description: 'Primary email.' }),
    role: t.field({ type: RoleEnum, required: true, description: 'Role in the school.' }),
    triggerAdmin: t.boolean({ description: 'Access to webhook trigger administration.' }),
  }),
});

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

const GroupMemberInput = builder.inputType('GroupMemberInput', {
  description: 'A user\'s membership of a group.',
  fields: (t) => ({
    groupId: t.id({ required: true, description: 'Group.' }),
    userId: t.id({ required: true, description: 'User.' }),
    admin: t.boolean({ description: 'Group administrator; default false.' }),
  }),
});

builder.queryFields((t) => ({
  section: t.withAuth({ authenticated: true }).prismaField({
    type: 'Section',
    nullable: true,
    description: 'A section the viewer is enrolled in or administers; null otherwise.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, { viewer }) => {
      const id = parseId(args.id);
      return findIfVisible(query, canRead(viewer, { type: 'SECTION', id }), (selection) =>
        db().section.findUnique({ ...selection, where: { id } }),
      );
    },
  }),
}));

builder.mutationFields((t) => ({
  createUser: t.withAuth({ authenticated: true }).prismaField({
    type: 'User',
    description: 'Creates a user (school and district administrators).',
    errors: {},
    args: { input: t.arg({ type: CreateUserInput, required: true }) },
    resolve: (query, _root, args, { viewer }) => createUser(viewer, args.input, query),
  }),
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
  addGroupMember: t.withAuth({ authenticated: true }).prismaField({
    type: 'GroupMembership',
    description: 'Adds a user to a group (its administrators).',
    errors: {},
    args: { input: t.arg({ type: GroupMemberInput, required: true }) },
    resolve: (query, _root, args, { viewer }) => addGroupMember(viewer, args.input, query),
  }),
  removeGroupMember: t.withAuth({ authenticated: true }).field({
    type: DeletedType,
    description: 'Removes a user from a group (its administrators); returns the membership id.',
    errors: {},
    args: { input: t.arg({ type: GroupMemberInput, required: true }) },
    resolve: (_root, args, { viewer }) => removeGroupMember(viewer, args.input),
  }),
}));
