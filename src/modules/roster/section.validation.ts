import { z } from 'zod';
import { clearable, createInput, idOfNamedType, nodeId, requiredText, text, updateInput } from '../../core/validation';

/** The longest course or section description. */
export const descriptionMaxLength = 5000;

/** Sections per bulk write, as courses and users ("up to 50"). */
export const maxSectionItems = 50;

const weekday = z.enum(['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY']);

/** A section's members a sync writes; the course is the route's (or the bulk write's). */
const sectionFields = {
  title: requiredText(255).describe('Section title.'),
  sectionCode: clearable(text(255), '').describe('Section code; empty when none.'),
  sectionSchoolCode: clearable(text(255), null).describe(
    "The school's own code for the section, unique in the school; what updateExisting and /v1/sections/ext match.",
  ),
  description: clearable(text(descriptionMaxLength), '').describe('Section description; empty when none.'),
  location: clearable(text(255), '').describe('Where the section meets; empty when none.'),
  meetingDays: clearable(z.array(weekday).max(7), null).describe('Days of the week the section meets.'),
  active: z.boolean().describe('Whether the section is active (current); true by default.'),
  gradingPeriodIds: clearable(z.array(nodeId('GradingPeriod')).max(100), null).describe(
    "Grading periods of the course's school the section is taught in.",
  ),
};

/** One new section of a course (its title required; either code, as the platform asks, is checked by the service). */
export const createSectionItemSchema = createInput(sectionFields, ['title']);

export const createSectionsSchema = z.strictObject({
  courseId: idOfNamedType.describe('The course the sections belong to.'),
  items: z
    .array(createSectionItemSchema)
    .describe(`The new sections, at most ${maxSectionItems}; each succeeds or fails alone.`),
  updateExisting: z
    .boolean()
    .nullish()
    .describe(
      "Change the section of the course's school that has the item's sectionSchoolCode instead of failing the item as a conflict; false by default.",
    ),
});

/** Changes to a section; it stays in its course. */
export const updateSectionSchema = updateInput(sectionFields);
