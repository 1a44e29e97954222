import { z } from 'zod';
import { createInput, nodeId, requiredText, updateInput } from '../../core/validation';

/** Courses per bulk write, as on the platform ("up to 50"). */
export const maxCourseItems = 50;

const courseFields = {
  title: requiredText(255).describe('Course title.'),
  courseCode: requiredText(255).describe('Course code, unique in the school.'),
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
