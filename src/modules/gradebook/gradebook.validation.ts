import { z } from 'zod';
import { readDay } from '../../core/date-text';
import { clearable, createInput, nodeId, requiredText, updateInput } from '../../core/validation';

const day = z.string().refine((value) => readDay(value) !== null, 'must be a date, YYYY-MM-DD');
const points = z.number().min(0, 'must be 0 or more').max(1_000_000, 'must be at most 1,000,000');

const periodFields = { title: requiredText(255), startsOn: day, endsOn: day, weight: z.int().min(0).max(1000) };
export const createGradingPeriodSchema = createInput(periodFields, ['title', 'startsOn', 'endsOn']);
export const updateGradingPeriodSchema = updateInput(periodFields);

/** Levels highest first, each minimum below the one before, so that every percent earns exactly one grade. */
const levels = z
  .array(z.object({ grade: requiredText(20), minimum: z.number().min(0).max(1000) }))
  .min(1, 'must list at least one level')
  .max(50, 'must list at most 50 levels')
  .refine((list) => list.every((level, at) => at === 0 || level.minimum < list[at - 1]!.minimum), 'must list levels highest first, each minimum below the one before')
  .refine((list) => new Set(list.map((level) => level.grade.toUpperCase())).size === list.length, 'must not repeat a grade');
const scaleFields = { title: requiredText(255), levels };
export const createGradingScaleSchema = createInput(scaleFields, ['title', 'levels']);
export const updateGradingScaleSchema = updateInput(scaleFields);

const assignmentFields = {
  title: requiredText(255),
  type: z.enum(['ASSIGNMENT', 'DISCUSSION']),
  maxPoints: points,
  categoryId: clearable(nodeId('GradingCategory').transform(Number), null),
  scaleId: clearable(nodeId('GradingScale').transform(Number), null),
  periodId: clearable(nodeId('GradingPeriod').transform(Number), null),
  isFinal: z.boolean(),
};
export const createAssignmentSchema = createInput(assignmentFields, ['title']);
export const updateAssignmentSchema = updateInput(assignmentFields);
