import { z } from 'zod';
import { clearable, createInput, nodeId, requiredText, text, updateInput } from '../../core/validation';
import { GradeLevel, SubjectArea } from '../../generated/prisma/enums';
import { descriptionMaxLength } from './section.validation';

/** Courses per bulk write, as on the platform ("up to 50"). */
export const maxCourseItems = 50;

const subjectArea = z.enum(SubjectArea);
const gradeLevel = z.enum(GradeLevel);

const courseFields = {
  title: requiredText(255).describe('Course title.'),
  courseCode: requiredText(255).describe('Course code, unique in the school.'),
  department: clearable(text(255), '').describe('Department name, such as "English"; empty when none.'),
  description: clearable(text(descriptionMaxLength), '').describe('Course description; empty when none.'),
  credits: clearable(z.number().min(0).max(1000), null).describe('Credits the course is worth.'),
  subjectArea: clearable(subjectArea, null).describe('Subject area.'),
  gradeLevelRangeStart: clearable(gradeLevel, null).describe('The lowest (or only) grade level.'),
  gradeLevelRangeEnd: clearable(gradeLevel, null).describe('The highest grade level; not below gradeLevelRangeStart.'),
};

export const createCourseSchema = createInput(
  { schoolId: nodeId('School').describe("School offering the course; the viewer's when left out."), ...courseFields },
  ['title', 'courseCode'],
);

/** Changes to a course; it stays in its school. */
export const updateCourseSchema = updateInput(courseFields);

export const createCoursesSchema = z.strictObject({
  items: z
    .array(createCourseSchema)
    .describe(`The new courses, at most ${maxCourseItems}; each succeeds or fails alone.`),
  updateExisting: z
    .boolean()
    .nullish()
    .describe(
      "Change the course of the item's school that has its courseCode instead of failing the item as a conflict; false by default.",
    ),
});
