import { z } from 'zod';
import { clearable, createInput, idOfNamedType, membersOf, nodeId, text, updateInput } from '../../core/validation';

/** Items per bulk request: as many as a page holds. */
export const maxCategoryItems = 200;

/** The platform's "no field is required": a category without a title is allowed, as its UI allows one. */
const categoryFields = {
  title: clearable(text(255), '').describe('Title, at most 255 characters; empty by default.'),
  calculation: z.enum(['PERCENT', 'TOTAL_POINTS']).describe('How its grade is computed; PERCENT by default.'),
  defaultMaxPoints: z
    .number()
    .min(0, 'must be 0 or more')
    .max(1_000_000, 'must be at most 1,000,000')
    .describe('Points new assignments in it are worth, 0 to 1,000,000; 100 by default.'),
  // 0 names the numeric scale, as on /v1: it stores no scale.
  defaultGradingScaleId: clearable(
    nodeId('GradingScale').transform((id) => Number(id) || null),
    null,
  ).describe("A grading scale of the section's school for new assignments in it; 0 or null: numeric (the default)."),
  dropLowest: z
    .int('must be an integer')
    .min(0, 'must be 0 to 10')
    .max(10, 'must be 0 to 10')
    .describe('How many of the lowest scores are dropped, 0 to 10; 0 by default.'),
  weight: z
    .int('must be an integer')
    .min(0, 'must be 0 to 1000')
    .max(1000, 'must be 0 to 1000')
    .describe('Weight in period grades, 0 to 1000; 0 by default.'),
  delta: z
    .int('must be an integer')
    .min(-1_000_000, 'must be at least -1,000,000')
    .max(1_000_000, 'must be at most 1,000,000')
    .describe('Position in lists (lower first), -1,000,000 to 1,000,000; 0 by default.'),
};

export const createGradingCategorySchema = createInput(categoryFields, []);
export const updateGradingCategorySchema = updateInput(categoryFields);

/** One item of a bulk change: the category (looked up in the section), and its members to change. */
export const gradingCategoryChangeSchema = z.strictObject({
  id: nodeId('GradingCategory').describe('A grading category of the section.'),
  ...membersOf(updateGradingCategorySchema),
});

const sectionId = idOfNamedType.describe('The course section.');

/** A bulk create: the section, and the items, each checked on its own by the service. */
export const createGradingCategoriesSchema = z.strictObject({
  sectionId,
  items: z.array(createGradingCategorySchema).describe('The new categories; each succeeds or fails alone.'),
});

/** A bulk change: the section, and one change per category, each checked on its own by the service. */
export const updateGradingCategoriesSchema = z.strictObject({
  sectionId,
  items: z.array(gradingCategoryChangeSchema).describe('The changes, one per category; each succeeds or fails alone.'),
});
