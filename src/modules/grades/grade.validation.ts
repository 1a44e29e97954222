import type { GlobalIdType } from '../../core/global-id';
import { z } from 'zod';
import { idOfNamedType, nodeId, text } from '../../core/validation';

const id = (type: GlobalIdType) => z.union([nodeId(type), z.int().min(0)]).transform(Number);

/** A grade as given: points, a letter of the assignment's scale, or nothing with an exception. */
const gradeValue = z.union([z.number(), z.string().trim().max(20, 'must be at most 20 characters'), z.null()]);

export const gradeItemSchema = z.strictObject({
  assignmentId: id('Assignment').describe('The graded item.'),
  enrollmentId: id('Enrollment').describe("The student's enrollment."),
  grade: gradeValue
    .optional()
    .describe(
      "Points, or a letter of the item's grading scale (saved as its minimum percent of the points); required unless an exception is given.",
    ),
  exception: z.enum(['EXCUSED', 'INCOMPLETE']).nullish().describe('Excused or incomplete; the grade is then null.'),
  comment: text(4000).nullish().describe('Comment; empty when left out.'),
  commentVisible: z
    .boolean()
    .nullish()
    .describe("Whether the student and their parents see the comment; default false, as /v1's `comment_status`."),
});

export const gradeItemsSchema = z.strictObject({
  grades: z.array(gradeItemSchema).min(1, 'must list at least one grade').max(5_000, 'must list at most 5,000 grades'),
});

/** `p<id>` or a bare period id, `other`, or `final`. */
const period = z
  .string()
  .trim()
  .regex(/^(p?\d{1,10}|other|final)$/, 'must be a grading period id (such as p12), other or final')
  .transform((key) => (/^\d/.test(key) ? `p${key}` : key));

export const finalCommentItemSchema = z.strictObject({
  enrollmentId: id('Enrollment').describe("The student's enrollment."),
  periodId: period.describe('A grading period (`p<id>` or its id), `other`, or `final` for the course final.'),
  comment: text(4000).describe('The comment.'),
  commentVisible: z.boolean().nullish().describe('Whether the student sees it; default false.'),
  override: z
    .number()
    .min(0)
    .max(1000)
    .nullable()
    .optional()
    .describe('A percent that replaces the computed grade; null removes it; left out keeps it.'),
});

export const finalCommentItemsSchema = z.strictObject({
  finalComments: z
    .array(finalCommentItemSchema)
    .min(1, 'must list at least one comment')
    .max(5_000, 'must list at most 5,000 comments'),
});

/**
 * What setSectionGrades takes: the section, and its grades or its final comments. The lists are checked by the
 * service (gradeItemsSchema, finalCommentItemsSchema), which also judges which one was given.
 */
export const sectionGradesWriteSchema = z.strictObject({
  sectionId: idOfNamedType.describe('The course section.'),
  grades: z.array(gradeItemSchema).nullish().describe('Grades to set.'),
  finalComments: z.array(finalCommentItemSchema).nullish().describe('Comments on period and final grades to set.'),
});
