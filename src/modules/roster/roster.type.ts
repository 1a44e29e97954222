import { EnrollmentStatus, GradeLevel, SubjectArea, Weekday } from '../../generated/prisma/enums';
import { type AuthenticatedContext, builder } from '../../graphql/builder';
import { exposeColumns, exposeDatabaseId, exposeLongText, exposeOptionalText, nodeId } from '../../graphql/columns';
import { descriptionMaxLength } from './section.validation';
import { can } from '../../auth/policy';
import { readableUsersWhere, userPolicy } from '../users/user.policy';
import { UserType } from '../users/user.type';
import { GroupMembershipType, GroupType } from '../groups/group.type';
import { readableGroupsWhere } from '../groups/group.policy';
import { keysetRelatedConnection, listOrder } from '../../graphql/connections';
import { rosterEnrollmentsWhere, sectionPolicy } from './roster.policy';
import { itemResultType } from '../../graphql/error-types';
import { pageOf } from '../../graphql/paging';
import type { GroupMembership } from '../../generated/prisma/client';
import { type EnrollmentResult, type RosterResult, enrollmentItemCodes } from './enrollment.service';

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

export const SubjectAreaEnum = builder.enumType(SubjectArea, {
  name: 'SubjectArea',
  description: "A course's subject area (/v1 `subject_area` 0 to 9, in this order).",
  values: {
    OTHER: { description: 'Other (0).' },
    HEALTH_PHYSICAL_EDUCATION: { description: 'Health and physical education (1).' },
    LANGUAGE_ARTS: { description: 'Language arts (2).' },
    MATHEMATICS: { description: 'Mathematics (3).' },
    PROFESSIONAL_DEVELOPMENT: { description: 'Professional development (4).' },
    SCIENCE: { description: 'Science (5).' },
    SOCIAL_STUDIES: { description: 'Social studies (6).' },
    SPECIAL_EDUCATION: { description: 'Special education (7).' },
    TECHNOLOGY: { description: 'Technology (8).' },
    ARTS: { description: 'Arts (9).' },
  },
});

/** Grade 1 to 12 are /v1's 3 to 14. */
const gradeValues = Object.fromEntries(
  Array.from({ length: 12 }, (_, at) => [`GRADE_${at + 1}`, { description: `Grade ${at + 1} (${at + 3}).` }]),
);

export const GradeLevelEnum = builder.enumType(GradeLevel, {
  name: 'GradeLevel',
  description: 'A grade level (/v1 grade level values 1 to 15, in this order; 0 there is none).',
  values: {
    PRE_K: { description: 'Pre-kindergarten (1).' },
    KINDERGARTEN: { description: 'Kindergarten (2).' },
    ...gradeValues,
    HIGHER_ED: { description: 'Higher education (15).' },
  } as Record<GradeLevel, { description: string }>,
});

export const WeekdayEnum = builder.enumType(Weekday, {
  name: 'Weekday',
  description: 'A day of the week (/v1 `meeting_days` 0 for Sunday to 6 for Saturday).',
  values: {
    SUNDAY: { description: 'Sunday (0).' },
    MONDAY: { description: 'Monday (1).' },
    TUESDAY: { description: 'Tuesday (2).' },
    WEDNESDAY: { description: 'Wednesday (3).' },
    THURSDAY: { description: 'Thursday (4).' },
    FRIDAY: { description: 'Friday (5).' },
    SATURDAY: { description: 'Saturday (6; /v1 also reads 7).' },
  },
});

export const CourseType = builder.prismaNode('Course', {
  id: nodeId,
  fields: (t) => ({
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'Course', ['title', 'courseCode']),
    ...exposeOptionalText(t, 'Course', ['department']),
    ...exposeLongText(t, 'Course', 'description', descriptionMaxLength),
    credits: t.exposeFloat('credits', {
      nullable: true,
      description: 'Credits the course is worth; null when not set.',
    }),
    subjectArea: t.expose('subjectArea', {
      type: SubjectAreaEnum,
      nullable: true,
      description: 'Subject area; null when not set.',
    }),
    gradeLevelRangeStart: t.expose('gradeLevelRangeStart', {
      type: GradeLevelEnum,
      nullable: true,
      description: 'The lowest (or only) grade level; null when not set.',
    }),
    gradeLevelRangeEnd: t.expose('gradeLevelRangeEnd', {
      type: GradeLevelEnum,
      nullable: true,
      description: 'The highest grade level; null when not set.',
    }),
    school: t.relation('school'),
  }),
});

export const SectionType = builder.prismaNode('Section', {
  id: nodeId,
  fields: (t) => ({
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'Section', ['title', 'createdAt']),
    ...exposeOptionalText(t, 'Section', ['sectionCode', 'location']),
    ...exposeLongText(t, 'Section', 'description', descriptionMaxLength),
    accessCode: t.string({
      nullable: true,
      description: 'Join code (`joinSection`); null unless the viewer administers the section.',
      select: { accessCode: true },
      resolve: async (section, _args, { viewer }) =>
        viewer && (await can(viewer, sectionPolicy, 'enroll', section.id)) ? section.accessCode : null,
    }),
    sectionSchoolCode: t.exposeString('sectionSchoolCode', {
      nullable: true,
      description: "The school's own code for the section, unique in the school; null when none.",
    }),
    meetingDays: t.expose('meetingDays', { type: [WeekdayEnum], description: 'Days of the week the section meets.' }),
    active: t.exposeBoolean('active', { description: 'Whether the section is active (current) rather than archived.' }),
    gradingPeriods: t.relation('gradingPeriods', {
      description: 'Grading periods the section is taught in, by id.',
      query: { orderBy: { id: 'asc' } },
    }),
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

export const EnrollmentPage = pageOf('Enrollment', 'A page of the enrollments of a section, by id.');

const EnrollmentItemStatusEnum = builder.enumType('EnrollmentItemStatus', {
  description: 'What became of one item of a bulk enrollment write; /v1 answers the `response_code` named.',
  values: {
    WRITTEN: { value: enrollmentItemCodes.WRITTEN, description: 'Enrolled, changed, or already as asked (200).' },
    DELETED: { value: enrollmentItemCodes.DELETED, description: 'The enrollment was removed (204).' },
    INVALID: {
      value: enrollmentItemCodes.INVALID,
      description: 'Refused: an invalid member, listed in `issues` (400).',
    },
    FORBIDDEN: { value: enrollmentItemCodes.FORBIDDEN, description: 'Refused: the viewer may not write it (403).' },
    NOT_FOUND: {
      value: enrollmentItemCodes.NOT_FOUND,
      description: 'No such user, or enrollment of the section (404).',
    },
    CONFLICT: {
      value: enrollmentItemCodes.CONFLICT,
      description: 'Another request enrolled the user at the same moment (409).',
    },
  },
});

export const EnrollmentResultType = itemResultType<EnrollmentResult>('EnrollmentResult', {
  description: 'What became of one item of a bulk enrollment write.',
  codes: EnrollmentItemStatusEnum,
  written: (t) => ({
    enrollmentId: t.id({
      nullable: true,
      description: 'Database id of the enrollment written or removed; null when the item failed.',
      resolve: (result) => (result.id === null ? null : String(result.id)),
    }),
    enrollment: t.field({
      type: EnrollmentType,
      nullable: true,
      description: 'The enrollment as written; null when the item failed or removed it.',
      resolve: (result) => result.enrollment,
    }),
  }),
});

export const GroupMembershipResultType = itemResultType<RosterResult<GroupMembership>>('GroupMembershipResult', {
  description: 'What became of one item of a bulk group membership write.',
  codes: EnrollmentItemStatusEnum,
  written: (t) => ({
    groupMembershipId: t.id({
      nullable: true,
      description: 'Database id of the membership written; null when the item failed.',
      resolve: (result) => (result.id === null ? null : String(result.id)),
    }),
    groupMembership: t.field({
      type: GroupMembershipType,
      nullable: true,
      description: 'The membership as written; null when the item failed.',
      resolve: (result) => result.enrollment,
    }),
  }),
});

/** Whether the viewer reads a user's roster (userPolicy `readRoster`); the roster's fields are null when not. */
const readsRosterOf = (user: { id: number }, { viewer }: AuthenticatedContext) =>
  can(viewer, userPolicy, 'readRoster', user.id);

const rosterNullWhen = 'Null unless the viewer is the user, one of their parents, or one of their administrators.';

// A user's roster, at the centre of a front end's dashboard (`viewer { sections { ... } }`): loaded with the user's
// row, each list in one statement for a page of users.
builder.prismaObjectFields('User', (t) => ({
  sections: keysetRelatedConnection(t, 'enrollments', {
    type: SectionType,
    through: { model: 'Enrollment', node: 'section' },
    description:
      `The sections the user is an active member of (teaching or taking), by section id. ${rosterNullWhen} ` +
      'An administrator sees only the sections they read.',
    order: [{ sectionId: 'asc' }],
    where: (_args, { viewer }) => ({ status: 'ACTIVE', ...rosterEnrollmentsWhere(viewer!) }),
    readable: readsRosterOf,
  }),
  enrollments: keysetRelatedConnection(t, 'enrollments', {
    type: EnrollmentType,
    description:
      `The user's enrollments in any state (active, invited, requested, ended), in the order they were made, each with ` +
      `its section. ${rosterNullWhen} An administrator sees only those in the sections they read.`,
    order: [listOrder],
    where: (_args, { viewer }) => rosterEnrollmentsWhere(viewer!),
    readable: readsRosterOf,
  }),
  groups: keysetRelatedConnection(t, 'memberships', {
    type: GroupType,
    through: { model: 'GroupMembership', node: 'group' },
    description: `The groups the user belongs to that the viewer may see, by group id. ${rosterNullWhen}`,
    order: [{ groupId: 'asc' }],
    where: (_args, { viewer }) => ({ group: readableGroupsWhere(viewer!) }),
    readable: readsRosterOf,
  }),
  children: keysetRelatedConnection(t, 'children', {
    type: UserType,
    through: { model: 'ParentLink', node: 'child' },
    description: `A parent's linked children whom the viewer may see, by user id; empty for others. ${rosterNullWhen}`,
    order: [{ childId: 'asc' }],
    where: (_args, { viewer }) => ({ child: readableUsersWhere(viewer) }),
    readable: readsRosterOf,
  }),
}));
