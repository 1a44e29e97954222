import { z } from 'zod';
import { clearable, createInput, nodeId, text, updateInput } from '../../core/validation';

/** Items per bulk request: as many as a page holds. */
export const maxCategoryItems = 200;

/** The platform's "no field is required": a category without a title is allowed, as its UI allows one. */
const categoryFields = {
  title: clearable(text(255), ''),
  calculation: z.enum(['PERCENT', 'TOTAL_POINTS']),
  defaultMaxPoints: z.number().min(0, 'must be 0 or more').max(1_000_000, 'must be at most 1,000,000'),
  // 0 names the numeric scale, as on /v1: it stores no scale.
  defaultGradingScaleId: clearable(nodeId('GradingScale').transform((id) => Number(id) || null), null),
  dropLowest: z.int('must be an integer').min(0, 'must be 0 to 10').max(10, 'must be 0 to 10'),
  weight: z.int('must be an integer').min(0, 'must be 0 to 1000').max(1000, 'must be 0 to 1000'),
  delta: z.int('must be an integer').min(-1_000_000, 'must be at least -1,000,000').max(1_000_000, 'must be at most 1,000,000'),
};

export const createGradingCategorySchema = createInput(categoryFields, []);
export const updateGradingCategorySchema = updateInput(categoryFields);
