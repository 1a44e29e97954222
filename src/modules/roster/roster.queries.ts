import { db } from '../../db/database';
import { builder } from '../../graphql/builder';
import { connectionOf, connectionOptions, hiddenUnless, keysetWindow } from '../../graphql/connections';
import { objectQuery } from '../../graphql/operations';
import { readableCoursesWhere, readableSectionsWhere, sectionPolicy } from './roster.policy';
import { registerNodeVisibility, visibleThrough, visibleThroughAll } from '../../graphql/nodes';
import { can, realmVerdict } from '../../auth/policy';
import { userPolicy } from '../users/user.policy';
import { EnrollmentStatusEnum, EnrollmentPage } from './roster.type';
import { listSectionEnrollments, readsRoster, sectionEnrollment, sectionEnrollmentsWhere } from './enrollment.service';
import type { Viewer } from '../../auth/viewer';
import type { EnrollmentStatus } from '../../generated/prisma/enums';
import { offsetListBeside, pageArgs, pageOf, paged } from '../../graphql/paging';
import { isStorableId } from '../../auth/realms';
import { findIfVisible } from '../../graphql/visible';
import type { Prisma } from '../../generated/prisma/client';
import { parseId } from '../../graphql/realm';

objectQuery('section', 'Section', sectionPolicy);

const CoursePage = pageOf('Course', 'A page of courses, by id.');
export const SectionPage = pageOf('Section', 'A page of sections, by id.');

/** An id filter; an id beyond the database's integer range matches nothing (-1) instead of failing the query. */
const storable = (id: number) => (isStorableId(id) ? id : -1);
const sectionOf = (id: string | number) => parseId(id, 'Section', 'sectionId');

const courseArgs = builder.args((t) => ({
  buildingId: t.id({ description: 'Only the courses of this school or building.' }),
}));
/** The courses `courses` lists, optionally of one school or building. */
const coursesWhere = (viewer: Viewer, buildingId: string | number | null | undefined): Prisma.CourseWhereInput => ({
  AND: [
    readableCoursesWhere(viewer),
    buildingId ? { schoolId: storable(parseId(buildingId, 'School', 'buildingId')) } : {},
  ],
});

const courseSectionArgs = builder.args((t) => ({
  courseId: t.id({ required: true, description: 'The course.' }),
}));
/** The sections of a course that `sections` lists. */
const courseSectionsWhere = (viewer: Viewer, courseId: string | number): Prisma.SectionWhereInput => ({
  AND: [{ courseId: storable(parseId(courseId, 'Course', 'courseId')) }, readableSectionsWhere(viewer)],
});

const enrollmentArgs = builder.args((t) => ({
  sectionId: t.id({ required: true, description: 'The course section.' }),
  status: t.field({ type: [EnrollmentStatusEnum], description: 'Only enrollments in these states.' }),
  admin: t.boolean({ description: 'Only section administrators (true), or only the others (false).' }),
  userIds: t.idList({ description: 'Only the enrollments of these users.' }),
}));
const enrollmentFilter = (args: {
  status?: readonly EnrollmentStatus[] | null;
  admin?: boolean | null;
  userIds?: readonly (string | number)[] | null;
}) => ({ status: args.status, admin: args.admin, userIds: args.userIds?.map((id) => parseId(id, 'User', 'userIds')) });

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
  courseList: t.withAuth({ authenticated: true }).field({
    ...offsetListBeside('courseListConnection'),
    type: CoursePage,
    description: 'The courses `courses` lists, optionally of one school or building, as /v1 pages them (by id).',
    args: { ...courseArgs, ...pageArgs },
    resolve: (_root, { buildingId, ...page }, { viewer }) => {
      const where = coursesWhere(viewer, buildingId);
      return paged(page, {
        findMany: (query) => db().course.findMany({ ...query, where, orderBy: { id: 'asc' } }),
        count: () => db().course.count({ where }),
      });
    },
  }),
  courseListConnection: t.withAuth({ authenticated: true }).prismaConnection(
    {
      type: 'Course',
      ...connectionOptions,
      description: 'The courses `courseList` pages, as a Relay connection in the same order.',
      args: courseArgs,
      resolve: (query, _root, { buildingId }, { viewer }) =>
        db().course.findMany(keysetWindow(query, coursesWhere(viewer, buildingId))),
      totalCount: (_root, { buildingId }, { viewer }) => db().course.count({ where: coursesWhere(viewer, buildingId) }),
    },
    connectionOf('Course'),
  ),
  course: t.withAuth({ authenticated: true }).prismaField({
    type: 'Course',
    nullable: true,
    description: 'A course the viewer reads (as `courses` lists them); null when it does not exist or is hidden.',
    args: { id: t.arg.id({ required: true, description: 'Course id.' }) },
    resolve: (query, _root, args, { viewer }) => {
      const id = parseId(args.id, 'Course');
      return findIfVisible(query, isStorableId(id), (selection) =>
        db().course.findFirst({ ...selection, where: { AND: [{ id }, readableCoursesWhere(viewer)] } }),
      );
    },
  }),
  courseSections: t.withAuth({ authenticated: true }).field({
    ...offsetListBeside('courseSectionsConnection'),
    type: SectionPage,
    description: 'The sections of a course that the viewer reads (as `sections` lists them), by id.',
    args: { ...courseSectionArgs, ...pageArgs },
    resolve: (_root, { courseId, ...page }, { viewer }) => {
      const where = courseSectionsWhere(viewer, courseId);
      return paged(page, {
        findMany: (query) => db().section.findMany({ ...query, where, orderBy: { id: 'asc' } }),
        count: () => db().section.count({ where }),
      });
    },
  }),
  courseSectionsConnection: t.withAuth({ authenticated: true }).prismaConnection(
    {
      type: 'Section',
      ...connectionOptions,
      description: 'The sections `courseSections` pages, as a Relay connection in the same order.',
      args: courseSectionArgs,
      resolve: (query, _root, { courseId }, { viewer }) =>
        db().section.findMany(keysetWindow(query, courseSectionsWhere(viewer, courseId))),
      totalCount: (_root, { courseId }, { viewer }) =>
        db().section.count({ where: courseSectionsWhere(viewer, courseId) }),
    },
    connectionOf('Section'),
  ),
  sectionList: t.withAuth({ authenticated: true }).field({
    ...offsetListBeside('sectionListConnection'),
    type: SectionPage,
    description: 'The sections `sections` lists, as /v1 pages them (by id).',
    args: {
      ...pageArgs,
      sectionSchoolCode: t.arg.string({ description: 'Only the sections with this section school code.' }),
    },
    resolve: (_root, { sectionSchoolCode, ...page }, { viewer }) => {
      const readable = readableSectionsWhere(viewer);
      const where = typeof sectionSchoolCode === 'string' ? { AND: [readable, { sectionSchoolCode }] } : readable;
      return paged(page, {
        findMany: (query) => db().section.findMany({ ...query, where, orderBy: { id: 'asc' } }),
        count: () => db().section.count({ where }),
      });
    },
  }),
  sectionListConnection: t.withAuth({ authenticated: true }).prismaConnection(
    {
      type: 'Section',
      ...connectionOptions,
      description:
        'The sections `sectionList` pages (those `sections` lists), as a Relay connection in the same order.',
      resolve: (query, _root, _args, { viewer }) =>
        db().section.findMany(keysetWindow(query, readableSectionsWhere(viewer))),
      totalCount: (_root, _args, { viewer }) => db().section.count({ where: readableSectionsWhere(viewer) }),
    },
    connectionOf('Section'),
  ),
  sectionEnrollments: t.withAuth({ authenticated: true }).field({
    ...offsetListBeside('sectionEnrollmentsConnection'),
    type: EnrollmentPage,
    nullable: true,
    description:
      "A section's enrollments by id, for its members and administrators, filtered as /v1 filters them; null when the " +
      'section does not exist or is hidden; FORBIDDEN when the viewer knows the section but not its roster.',
    args: { ...enrollmentArgs, ...pageArgs },
    resolve: (_root, { sectionId, status, admin, userIds, ...page }, { viewer }) =>
      listSectionEnrollments(viewer, sectionOf(sectionId), enrollmentFilter({ status, admin, userIds }), page),
  }),
  sectionEnrollmentsConnection: t.withAuth({ authenticated: true }).prismaConnection(
    {
      type: 'Enrollment',
      ...connectionOptions,
      ...hiddenUnless((args: { sectionId: string | number }, { viewer }) =>
        readsRoster(viewer, sectionOf(args.sectionId)),
      ),
      description:
        'The enrollments `sectionEnrollments` pages, as a Relay connection in the same order; null when the section ' +
        'does not exist or is hidden; FORBIDDEN when the viewer knows the section but not its roster.',
      args: enrollmentArgs,
      resolve: (query, _root, { sectionId, ...filter }, { viewer }) =>
        db().enrollment.findMany(
          keysetWindow(query, sectionEnrollmentsWhere(viewer, sectionOf(sectionId), enrollmentFilter(filter))),
        ),
      totalCount: (_root, { sectionId, ...filter }, { viewer }) =>
        db().enrollment.count({
          where: sectionEnrollmentsWhere(viewer, sectionOf(sectionId), enrollmentFilter(filter)),
        }),
    },
    connectionOf('Enrollment'),
  ),
  sectionEnrollment: t.withAuth({ authenticated: true }).prismaField({
    type: 'Enrollment',
    nullable: true,
    description:
      'An enrollment of a section; null when it, or the section, does not exist or is hidden from the viewer; ' +
      'FORBIDDEN when the viewer knows the section but not its roster.',
    args: {
      sectionId: t.arg.id({ required: true, description: 'The course section.' }),
      id: t.arg.id({ required: true, description: 'Enrollment id.' }),
    },
    resolve: (query, _root, args, { viewer }) =>
      sectionEnrollment(viewer, parseId(args.sectionId, 'Section', 'sectionId'), parseId(args.id, 'Enrollment'), query),
  }),
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
