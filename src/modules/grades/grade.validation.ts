import type { GlobalIdType } from '../../core/global-id';
import { z } from 'zod';
import { nodeId, text } from '../../core/validation';

const id = (type: GlobalIdType) => z.union([nodeId(type), z.int().min(0)]).transform(Number);

/** A grade as given: points, a letter of the assignment's scale, or nothing with an exception. */
const gradeValue = z.union([z.number(), z.string().trim().max(20, 'must be at most 20 characters'), z.null()]);

export const gradeItemsSchema = z.object({
  grades: z
  .array(
    z.object({
      assignmentId: id('Assignment'),
      enrollmentId: id('Enrollment'),
      grade: gradeValue.optional(),
      exception: z.union([z.literal(0), z.literal(1), z.literal(2)]).nullish(),
      comment: text(4000).nullish(),
      commentVisible: z.boolean().nullish(),
    }),
  )
  .min(1, 'must list at least one grade')
  .max(5_000, 'must list at most 5,000 grades'),
});

/** `p<id>` or a bare period id, `other`, or `final`. */
const period = z
  .string()
  .trim()
  .regex(/^(p?\d{1,10}|other|final)$/, 'must be a grading period id (such as p12), other or final')
  .transform((key) => (/^\d/.test(key) ? `p${key}` : key));

export const finalCommentItemsSchema = z.object({
  finalComments: z
  .array(
    z.object({
      enrollmentId: id('Enrollment'),
      periodId: period,
      comment: text(4000),
      commentVisible: z.boolean().nullish(),
      override: z.number().min(0).max(1000).nullable().optional(),
    }),
  )
  .min(1, 'must list at least one comment')
  .max(5_000, 'must list at most 5,000 comments'),
});
