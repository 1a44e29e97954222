import { builder } from '../../graphql/builder';
import { itemResultType } from '../../graphql/error-types';
import { inputFromSchema, objectIdInput, objectIdMember, withMembers } from '../../graphql/inputs';
import { payloadMutation } from '../../graphql/payloads';
import { parseId } from '../../graphql/realm';
import { type CourseResult, createCourse, createCourses, deleteCourse, updateCourse } from './course.service';
import { createCourseSchema, createCoursesSchema, maxCourseItems, updateCourseSchema } from './course.validation';
import { CourseType, GradeLevelEnum, SectionType, SubjectAreaEnum, WeekdayEnum } from './roster.type';
import { type SectionResult, createSections, deleteSection, updateSection } from './section.service';
import {
  createSectionItemSchema,
  createSectionsSchema,
  maxSectionItems,
  updateSectionSchema,
} from './section.validation';

const courseEnums = {
  subjectArea: SubjectAreaEnum,
  gradeLevelRangeStart: GradeLevelEnum,
  gradeLevelRangeEnd: GradeLevelEnum,
};
const sectionEnums = { meetingDays: WeekdayEnum };

const CourseItemStatusEnum = builder.enumType('CourseItemStatus', {
  description: 'What became of one item of a bulk write of courses or sections; /v1 answers the `response_code` named.',
  values: {
    CREATED: { description: 'The course was created (200).' },
    UPDATED: { description: 'The course was changed, or already was as the item says (200).' },
    INVALID: { description: 'Refused: an invalid member, listed in `issues` (400).' },
    FORBIDDEN: { description: 'Refused: the viewer may not write it (403).' },
    NOT_FOUND: { description: 'No such school (or course), or one the viewer may not see (404).' },
    CONFLICT: { description: "Its course code (a section's school code) is taken in the school (409)." },
  },
});

const CourseResultType = itemResultType<CourseResult>('CourseResult', {
  description: 'What became of one item of a bulk write of courses.',
  codes: CourseItemStatusEnum,
  written: (t) => ({
    course: t.field({
      type: CourseType,
      nullable: true,
      description: 'The course as written; null when the item failed.',
      resolve: (result) => result.course,
    }),
  }),
});

const NewCourseInput = inputFromSchema(
  'NewCourseInput',
  createCourseSchema,
  'One item of a bulk create: a new course.',
  courseEnums,
);

payloadMutation('createCourse', {
  description: 'Creates a course (school and district administrators).',
  input: createCourseSchema,
  inputDescription: 'A new course of a school.',
  types: courseEnums,
  payload: { course: { model: 'Course', description: 'The new course.' } },
  resolve: async (viewer, input, select) => ({ course: await createCourse(viewer, input, select('course')) }),
});

payloadMutation('createCourses', {
  description: `Creates courses (school and district administrators), item by item: an item that cannot be written does not stop the others, and each good item is committed. At most ${maxCourseItems} items.`,
  input: createCoursesSchema,
  inputDescription: 'The new courses, and whether one whose course code is taken changes that course instead.',
  types: { items: NewCourseInput },
  payload: { results: { type: CourseResultType, list: true, description: 'One result per item, in the order sent.' } },
  resolve: async (viewer, { items, updateExisting }) => createCourses(viewer, items, updateExisting ?? false),
});

payloadMutation('updateCourse', {
  description: "Changes a course (its school's and district's administrators).",
  input: withMembers(updateCourseSchema, { id: objectIdMember('The course to change.') }),
  inputDescription: 'The course, and changes to it; members left out keep their values.',
  types: courseEnums,
  payload: { course: { model: 'Course', description: 'The course as changed.' } },
  resolve: async (viewer, { id, ...changes }, select) => ({
    course: await updateCourse(viewer, parseId(id, 'Course'), changes, select('course')),
  }),
});

payloadMutation('deleteCourse', {
  description:
    'Deletes a course with its sections, their enrollments, invites and content (its administrators); cannot be undone.',
  input: objectIdInput('The course to delete.'),
  inputDescription: 'The course to delete.',
  payload: { deletedCourseId: { deleted: 'Course', description: 'Global id of the deleted course.' } },
  resolve: async (viewer, { id }) => ({ deletedCourseId: (await deleteCourse(viewer, parseId(id, 'Course'))).id }),
});

payloadMutation('updateSection', {
  description: "Changes a course section (its school's and district's administrators).",
  input: withMembers(updateSectionSchema, { id: objectIdMember('The section to change.') }),
  inputDescription: 'The section, and changes to it; members left out keep their values.',
  types: sectionEnums,
  payload: { section: { model: 'Section', description: 'The section as changed.' } },
  resolve: async (viewer, { id, ...changes }, select) => ({
    section: await updateSection(viewer, parseId(id, 'Section'), changes, select('section')),
  }),
});

payloadMutation('deleteSection', {
  description:
    "Deletes a course section with its enrollments, invites and content (its school's and district's administrators); cannot be undone.",
  input: objectIdInput('The section to delete.'),
  inputDescription: 'The section to delete.',
  payload: { deletedSectionId: { deleted: 'Section', description: 'Global id of the deleted section.' } },
  resolve: async (viewer, { id }) => ({ deletedSectionId: (await deleteSection(viewer, parseId(id, 'Section'))).id }),
});

const SectionResultType = itemResultType<SectionResult>('SectionResult', {
  description: 'What became of one item of a bulk write of sections.',
  codes: CourseItemStatusEnum,
  written: (t) => ({
    section: t.field({
      type: SectionType,
      nullable: true,
      description: 'The section as written; null when the item failed.',
      resolve: (result) => result.section,
    }),
  }),
});

const NewSectionInput = inputFromSchema(
  'NewSectionInput',
  createSectionItemSchema,
  'One item of a bulk create: a new section of the course.',
  sectionEnums,
);

payloadMutation('createSections', {
  description: `Creates sections of a course (its school's and district's administrators), item by item: an item that cannot be written does not stop the others, and each good item is committed. At most ${maxSectionItems} items.`,
  input: createSectionsSchema,
  inputDescription: 'The course, its new sections, and whether one whose school code is taken changes that section.',
  types: { items: NewSectionInput },
  payload: { results: { type: SectionResultType, list: true, description: 'One result per item, in the order sent.' } },
  resolve: async (viewer, { courseId, items, updateExisting }) =>
    createSections(viewer, parseId(courseId, 'Course'), items, updateExisting ?? false),
});
