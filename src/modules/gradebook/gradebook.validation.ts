import { z } from 'zod';
import { readDay } from '../../core/date-text';
import { clearable, createInput, nodeId, requiredText, updateInput } from '../../core/validation';

const day = z.string().refine((value) => readDay(value) !== null, 'must be a date, YYYY-MM-DD');
const points = z.number().min(0, 'must be 0 or more').max(1_000_000, 'must be at most 1,000,000');

const periodFields = {
  title: requiredText(255).describe('Title, such as "Fall 2026".'),
  startsOn: day.describe('First day, YYYY-MM-DD.'),
  endsOn: day.describe('Last day, YYYY-MM-DD.'),
  weight: z.int().min(0).max(1000).describe('Weight in the course final grade; default 1.'),
};
export const createGradingPeriodSchema = createInput(periodFields, ['title', 'startsOn', 'endsOn']);
export const updateGradingPeriodSchema = updateInput(periodFields);

export const gradingScaleLevelSchema = z.strictObject({
  grade: requiredText(20).describe('The letter grade, such as "A".'),
  minimum: z.number().min(0).max(1000).describe('The lowest percent that earns it.'),
});
/** Levels highest first, each minimum below the one before, so that every percent earns exactly one grade. */
const levels = z
  .array(gradingScaleLevelSchema)
  .min(1, 'must list at least one level')
  .max(50, 'must list at most 50 levels')
  .refine(
    (list) => list.every((level, at) => at === 0 || level.minimum < list[at - 1]!.minimum),
    'must list levels highest first, each minimum below the one before',
  )
  .refine(
    (list) => new Set(list.map((level) => level.grade.toUpperCase())).size === list.length,
    'must not repeat a grade',
  )
  .describe('The levels, highest first; a new list replaces the old one.');
const scaleFields = { title: requiredText(255).describe('Title.'), levels };
export const createGradingScaleSchema = createInput(scaleFields, ['title', 'levels']);
export const updateGradingScaleSchema = updateInput(scaleFields);

const assignmentFields = {
  title: requiredText(255).describe('Title.'),
  type: z.enum(['ASSIGNMENT', 'DISCUSSION']).describe('Kind of item; default ASSIGNMENT.'),
  maxPoints: points.describe("Points it is worth; default the category's default points, else 100."),
  categoryId: clearable(nodeId('GradingCategory').transform(Number), null).describe(
    'Grading category of the section; without one the item is ungraded.',
  ),
  scaleId: clearable(nodeId('GradingScale').transform(Number), null).describe(
    "Grading scale of the school; default the category's.",
  ),
  periodId: clearable(nodeId('GradingPeriod').transform(Number), null).describe(
    'Grading period of the school; without one the item is filed under "other".',
  ),
  isFinal: z.boolean().describe('Whether it is a midterm or final.'),
};
export const createAssignmentSchema = createInput(assignmentFields, ['title']);
export const updateAssignmentSchema = updateInput(assignmentFields);
