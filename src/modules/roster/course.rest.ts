import { z } from 'zod';
import { type ResultOf, graphql } from '../../graphql/typed-document';
import { type RestRoute, deleteRoute, updateRoute } from '../../rest/route';
import { UserErrors } from '../../rest/user-errors';
import {
  type WireBody,
  type WireField,
  type WireShape,
  flag,
  id,
  idList,
  list,
  oneOf,
  text,
  wireBody,
  withExamples,
  withoutMembers,
} from '../../rest/wire-body';
import { type BulkCreate, bulkCreateRoute, bulkResultsWire } from './bulk-create.rest';
import { maxCourseItems } from './course.validation';
import {
  RestCourse,
  RestSection,
  courseToWire,
  courseWire,
  gradeLevels,
  sectionToWire,
  sectionWire,
  subjectAreas,
  weekdays,
} from './roster.rest';
import { maxSectionItems } from './section.validation';

/** A course's credits: a number, sent as a number or a numeric string; empty or null clears it. */
const credits = (input: string): WireField => ({
  schema: z.union(
    [
      z
        .literal('')
        .nullable()
        .transform(() => null),
      z.number(),
      z
        .string()
        .trim()
        .regex(/^\d{1,6}(\.\d{1,4})?$/)
        .transform(Number),
    ],
    { error: 'must be a number' },
  ),
  input,
});

/** A grade level by the platform's number (1 Pre-K to 15 Higher-Ed); 0 (or empty) removes it. */
const gradeLevel = (input: string): WireField => ({
  schema: z
    .union(
      [
        z.int(),
        z
          .string()
          .trim()
          .regex(/^\d{1,2}$/)
          .transform(Number),
        z.literal('').transform(() => 0),
      ],
      {
        error: 'must be a grade level from 0 to 15',
      },
    )
    .nullable()
    .refine(
      (value) => value === null || (value >= 0 && value <= gradeLevels.length),
      'must be a grade level from 0 to 15',
    )
    .transform((value) => (value ? gradeLevels[value - 1] : null))
    .meta({ examples: ['0', '3', '15'] }),
  input,
});

/** A subject area by the platform's number (0 Other to 9 Arts); empty or null removes it. */
const subjectArea = (input: string): WireField => {
  const area = oneOf(Object.fromEntries(subjectAreas.map((name, number) => [String(number), name])))(input);
  return {
    input,
    schema: z
      .union([
        z
          .literal('')
          .nullable()
          .transform(() => null),
        area.schema,
      ])
      .meta({ examples: ['0', '2', '9'] }),
  };
};

/**
 * A course's members in requests. `building_id` names the school offering it (a course belongs to a school here, not
 * to a building of one). The members the server does not keep (`synced`, `district_course_name`) are read and
 * ignored (docs/rest/roster.md).
 */
const courseMembers: WireShape = {
  building_id: id('schoolId'),
  title: withExamples(text, 'English 101')('title'),
  course_code: withExamples(text, 'ENG101')('courseCode'),
  department: withExamples(text, 'English')('department'),
  description: text('description'),
  credits: credits('credits'),
  subject_area: subjectArea('subjectArea'),
  grade_level_range_start: gradeLevel('gradeLevelRangeStart'),
  grade_level_range_end: gradeLevel('gradeLevelRangeEnd'),
};
const changeBody = wireBody(withoutMembers(courseMembers, 'building_id'));

const courseSpec: BulkCreate = {
  plural: 'courses',
  singular: 'course',
  members: courseMembers,
  required: ['title', 'course_code'],
  max: maxCourseItems,
  key: { wire: 'course_code', input: 'courseCode' },
};
export const courseResultsWire = bulkResultsWire(courseSpec, 'CourseResults', 'no such school');

/** POST /courses: one course (201 with it) or a bulk of up to 50 (a result per item), at the same path. */
const createCoursesRoute = () =>
  bulkCreateRoute(courseSpec, {
    path: '/courses',
    summary: `Create a course (201 with it), or up to ${maxCourseItems} in courses/course with a response code per item (school and district administrators)`,
    filters: wireBody({ update_existing: flag('updateExisting') }),
    wire: courseWire,
    results207: courseResultsWire,
    document: graphql(
      `mutation($input: CreateCoursesInput!) {
        createCourses(input: $input) {
          userErrors { ...UserErrors }
          results { code message issues { field message } course { ...RestCourse } }
        }
      }`,
      [UserErrors, RestCourse],
    ),
    variables: (request, items) => ({
      input: { items: items as never, updateExisting: request.filters.updateExisting ?? false },
    }),
    toWire: courseToWire,
    keyOf: (course: ResultOf<typeof RestCourse>) => course.courseCode,
    pathOf: (course) => `/courses/${course.id}`,
  });

/** A meeting day by the platform's number, 0 Sunday to 6 Saturday; 7, which its field table names Saturday, too. */
const meetingDay = z
  .union([z.int(), z.string().trim().regex(/^\d$/).transform(Number)], { error: 'must be days from 0 to 7' })
  .refine((day) => day >= 0 && day <= 7, 'must be days from 0 to 7')
  .transform((day) => weekdays[Math.min(day, 6)]!);

/** A list member; in a bulk item's XML an empty element reads as a list of one empty text, which is the empty list. */
const listOf =
  (item: z.ZodType) =>
  (input: string): WireField => {
    const member = list(item)(input);
    return {
      ...member,
      schema: z.preprocess(
        (value) => (Array.isArray(value) && value.length === 1 && value[0] === '' ? [] : value),
        member.schema,
      ),
    };
  };

/** A section's members in requests (`section_title` is the platform's other name for `title` in writes). */
const sectionMembers: WireShape = {
  title: withExamples(text, 'Period 1')('title'),
  section_code: withExamples(text, 'P1')('sectionCode'),
  section_school_code: withExamples(text, 'ENG101-P1-2026')('sectionSchoolCode'),
  description: text('description'),
  location: withExamples(text, 'Room 12')('location'),
  meeting_days: listOf(meetingDay)('meetingDays'),
  active: flag('active'),
  grading_periods: idList('gradingPeriodIds'),
};

/** `section_title`, which the platform allows in writes, read as `title` when `title` is not sent. */
const withSectionTitle = (body: WireBody): WireBody => ({
  ...body,
  decode: (raw) => body.decode(aliasTitle(raw)),
});

function aliasTitle(raw: Record<string, unknown>): Record<string, unknown> {
  const alias = (item: unknown) =>
    typeof item === 'object' && item !== null && !Array.isArray(item) && 'section_title' in item && !('title' in item)
      ? { ...item, title: (item as Record<string, unknown>).section_title }
      : item;
  const wrapper = raw.sections;
  if (typeof wrapper === 'object' && wrapper !== null && !Array.isArray(wrapper) && 'section' in wrapper) {
    const items = (wrapper as { section: unknown }).section;
    return {
      ...raw,
      sections: { ...wrapper, section: Array.isArray(items) ? items.map(alias) : alias(items) },
    };
  }
  if (Array.isArray(wrapper)) return { ...raw, sections: wrapper.map(alias) };
  if (Array.isArray(raw.section)) return { ...raw, section: raw.section.map(alias) };
  return alias(raw) as Record<string, unknown>;
}

const sectionSpec: BulkCreate = {
  plural: 'sections',
  singular: 'section',
  members: sectionMembers,
  required: ['title'],
  max: maxSectionItems,
  key: { wire: 'section_school_code', input: 'sectionSchoolCode' },
};
export const sectionResultsWire = bulkResultsWire(sectionSpec, 'SectionResults', 'no such course');

/** POST /courses/{id}/sections: one section (201 with it) or a bulk of up to 50 (a result per item). */
function createSectionsRoute(): RestRoute {
  const route = bulkCreateRoute(sectionSpec, {
    path: '/courses/{id}/sections',
    summary: `Create a section of a course (201 with it), or up to ${maxSectionItems} in sections/section with a response code per item (school and district administrators)`,
    filters: wireBody({ update_existing: flag('updateExisting') }),
    wire: sectionWire,
    results207: sectionResultsWire,
    document: graphql(
      `mutation($input: CreateSectionsInput!) {
        createSections(input: $input) {
          userErrors { ...UserErrors }
          results { code message issues { field message } section { ...RestSection } }
        }
      }`,
      [UserErrors, RestSection],
    ),
    variables: (request, items) => ({
      input: {
        courseId: request.params.id!,
        items: items as never,
        updateExisting: request.filters.updateExisting ?? false,
      },
    }),
    toWire: sectionToWire,
    keyOf: (section: ResultOf<typeof RestSection>) => section.sectionSchoolCode ?? '',
    pathOf: (section) => `/sections/${section.id}`,
  });
  return { ...route, body: withSectionTitle(route.body!) };
}

export const courseRoutes = [
  createCoursesRoute(),
  createSectionsRoute(),
  updateRoute({
    path: '/courses/{id}',
    summary: "Change a course's members (its school's and district's administrators)",
    body: changeBody,
    document: graphql(
      `mutation($input: UpdateCourseInput!) { updateCourse(input: $input) { userErrors { ...UserErrors } } }`,
      [UserErrors],
    ),
    variables: (request) => ({ input: { ...request.input, id: request.params.id! } }),
  }),
  updateRoute({
    path: '/sections/{id}',
    summary: "Change a section's members (its school's and district's administrators)",
    body: withSectionTitle(wireBody(sectionMembers)),
    document: graphql(
      `mutation($input: UpdateSectionInput!) { updateSection(input: $input) { userErrors { ...UserErrors } } }`,
      [UserErrors],
    ),
    variables: (request) => ({ input: { ...request.input, id: request.params.id! } }),
  }),
  deleteRoute({
    path: '/sections/{id}',
    summary: "Delete a section with its enrollments, invites and content (its school's and district's administrators)",
    document: graphql(
      `mutation($input: DeleteSectionInput!) { deleteSection(input: $input) { userErrors { ...UserErrors } } }`,
      [UserErrors],
    ),
    variables: (request) => ({ input: { id: request.params.id! } }),
  }),
  deleteRoute({
    path: '/courses/{id}',
    summary:
      "Delete a course with its sections, their enrollments and content (its school's and district's administrators)",
    document: graphql(
      `mutation($input: DeleteCourseInput!) { deleteCourse(input: $input) { userErrors { ...UserErrors } } }`,
      [UserErrors],
    ),
    variables: (request) => ({ input: { id: request.params.id! } }),
  }),
];
