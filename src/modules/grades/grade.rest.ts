import { z } from 'zod';
import { type ResultOf, graphql } from '../../graphql/typed-document';
import { type LinkBuilder, type RestRequest, bulkRoute, pageLinks, viewRoute, wireBit } from '../../rest/route';
import { UserErrors } from '../../rest/user-errors';
import { type WireField, id, integer, list, wireBody, withExamples } from '../../rest/wire-body';

const RestGrades = graphql(`
  fragment RestGrades on SectionGrades @_unmask {
    sectionId total
    grades(start: $start, limit: $limit) {
      enrollmentId assignmentId grade exception letter comment commentVisible updatedAt
      type maxPoints isFinal categoryId scaleId periodId
    }
    periods { id title weight }
    categories { id title }
    enrollments { enrollmentId periods { periodId grade comment commentVisible categories { categoryId grade } } }
  }
`);
type Grades = ResultOf<typeof RestGrades>;
type Grade = Grades['grades'][number];

const wireException = { EXCUSED: 1, INCOMPLETE: 2 } as const;

/** A grade as the platform's grades lists show it (spec 2.11). */
const gradeWire = z
  .object({
    enrollment_id: z.int(),
    assignment_id: z.int(),
    grade: z.number().nullable(),
    exception: z.int().describe('0 none, 1 excused, 2 incomplete.'),
    max_points: z.number().nullable(),
    is_final: wireBit,
    timestamp: z.int().describe('Unix time of the last change (server time).'),
    comment: z.string(),
    comment_status: wireBit.nullable().describe('Whether the student sees the comment.'),
    override: z.number().nullable().describe('Always null: overrides apply to period and final grades.'),
    calculated_grade: z
      .string()
      .nullable()
      .describe("The letter the grade earns on the item's grading scale; null for numeric items."),
    pending: z.null().describe('Always null: there are no pending submissions to grade.'),
    type: z.enum(['assignment', 'discussion']),
    location: z.url().describe('The /v1 view of the graded item.'),
    scale_id: z.int().describe('0 for a numeric item.'),
    scale_type: z.int().describe('0 numeric, 1 letter grading scale.'),
    category_id: z.int().describe('0 for an ungraded item.'),
  })
  .meta({ id: 'Grade', description: 'A grade (spec 2.11).' });

function gradeToWire(grade: Grade, sectionId: string, link: LinkBuilder): z.input<typeof gradeWire> {
  return {
    enrollment_id: Number(grade.enrollmentId),
    assignment_id: Number(grade.assignmentId),
    grade: grade.grade,
    exception: grade.exception ? wireException[grade.exception] : 0,
    max_points: grade.maxPoints,
    is_final: grade.isFinal ? 1 : 0,
    timestamp: Math.floor(Date.parse(grade.updatedAt) / 1000),
    comment: grade.comment ?? '',
    comment_status: grade.commentVisible ? 1 : 0,
    override: null,
    calculated_grade: grade.letter,
    pending: null,
    type: grade.type === 'DISCUSSION' ? 'discussion' : 'assignment',
    location: link(`/sections/${sectionId}/assignments/${grade.assignmentId}`),
    scale_id: Number(grade.scaleId ?? 0),
    scale_type: grade.scaleId ? 1 : 0,
    category_id: Number(grade.categoryId ?? 0),
  };
}

const periodGradeWire = z.object({
  period_id: z.string().describe('`p<id>`, `other`, or `final` for the course final.'),
  grade: z.number().nullable().describe("Percent, computed (or the teacher's override); null while nothing counts."),
  comment: z.string(),
  comment_status: wireBit,
  scale_id: z.int().describe('0: period and final grades are percents.'),
});

const sectionGradesWire = z
  .object({
    grades: z.object({ grade: z.array(gradeWire) }),
    period: z.array(z.object({ period_id: z.string(), period_title: z.string(), weight: z.string() })),
    // Types as the platform's Grade documentation shows them: grade rows keep integer ids, final grades a string one.
    final_grade: z.array(z.object({ enrollment_id: z.string(), period: z.array(periodGradeWire) })),
    total: z.int().min(0),
    links: z.object({ self: z.url(), next: z.url().optional() }),
  })
  .meta({
    id: 'SectionGrades',
    description: "A section's grades, a page at a time, with every period and final grade (spec 4.8).",
  });

function sectionGradesToWire(book: Grades, link: LinkBuilder, request: RestRequest): z.input<typeof sectionGradesWire> {
  return {
    grades: { grade: book.grades.map((grade) => gradeToWire(grade, book.sectionId, link)) },
    period: book.periods.map((period) => ({
      period_id: period.id,
      period_title: period.title,
      weight: String(period.weight),
    })),
    final_grade: book.enrollments.map((enrollment) => ({
      enrollment_id: enrollment.enrollmentId,
      period: enrollment.periods.map((period) => ({
        period_id: period.periodId,
        grade: period.grade,
        comment: period.comment ?? '',
        comment_status: period.commentVisible ? 1 : 0,
        scale_id: 0,
      })),
    })),
    total: book.total,
    links: pageLinks(book.total, request, link),
  };
}

const userGradesWire = z
  .object({
    section: z.array(
      z.object({
        // Types as the platform's User Grades documentation shows them: a string section id, integer weights.
        section_id: z.string(),
        period: z.array(z.object({ period_id: z.string(), period_title: z.string(), assignment: z.array(gradeWire) })),
        final_grade: z.array(
          periodGradeWire.extend({
            weight: z
              .int()
              .optional()
              .describe("The period's weight in the course final; absent for the final itself."),
            grading_category: z.array(z.object({ category_id: z.int(), grade: z.number().nullable() })),
          }),
        ),
        grading_category: z.array(z.object({ id: z.int(), title: z.string() })),
      }),
    ),
    links: z.object({ self: z.url(), next: z.url().optional() }),
  })
  .meta({ id: 'UserGrades', description: "A student's grades in one section (spec 4.8)." });

function userGradesToWire(book: Grades, link: LinkBuilder, request: RestRequest): z.input<typeof userGradesWire> {
  const own = book.enrollments[0];
  const weights = new Map(book.periods.map((period) => [period.id, period.weight]));
  return {
    section: [
      {
        section_id: book.sectionId,
        period: book.periods.map((period) => ({
          period_id: period.id,
          period_title: period.title,
          assignment: book.grades
            .filter((grade) => grade.periodId === period.id)
            .map((grade) => gradeToWire(grade, book.sectionId, link)),
        })),
        final_grade: (own?.periods ?? []).map((period) => ({
          period_id: period.periodId,
          grade: period.grade,
          comment: period.comment ?? '',
          comment_status: period.commentVisible ? 1 : 0,
          scale_id: 0,
          grading_category: period.categories.map((category) => ({
            category_id: Number(category.categoryId),
            grade: category.grade,
          })),
          // The course final has no weight of its own: the member is absent, as in the platform's example.
          ...(weights.has(period.periodId) ? { weight: weights.get(period.periodId) } : {}),
        })),
        grading_category: book.categories.map((category) => ({ id: Number(category.id), title: category.title })),
      },
    ],
    links: pageLinks(book.total, request, link),
  };
}

/** A unix time (`timestamp`), as the DateTime GraphQL reads. */
const unixTime = (input: string): WireField => ({
  schema: integer(input)
    .schema.pipe(z.int().min(0, 'must be a unix time').max(8_640_000_000_000))
    .transform((seconds) => new Date(seconds * 1000).toISOString()),
  input,
});

// Items are typed here (a member of the wrong type fails the whole request, naming it); whether the assignment and
// enrollment are the section's, and whether a letter is on the scale, the service judges. A grade item's `type`
// (assignment or discussion) is the item's own and is not read, like any member the declaration does not name.
const scalar = z.union([z.string(), z.number()]);
const wireId = z
  .union(
    [
      z.int().nonnegative(),
      z
        .string()
        .trim()
        .regex(/^\d{1,15}$/),
    ],
    { error: 'must be a numeric id' },
  )
  .transform(String);
// Empty (an XML `<comment_status />`) or null is the default: hidden from the student and their parents (spec 2.11).
const commentStatus = z
  .literal([0, 1, '0', '1', '', null], { error: 'must be 0 or 1' })
  .transform((value) => Number(value) === 1)
  .meta({ examples: [0, 1] });
const gradeItem = z.object({
  assignment_id: wireId,
  enrollment_id: wireId,
  // Required, as the spec marks it; empty or null with an exception.
  grade: z.union([scalar.transform(String), z.null()]).meta({ examples: [7, '9.5', 10] }),
  // Empty (an XML `<exception />`) or null is no exception.
  exception: z
    .literal([0, 1, 2, '0', '1', '2', '', null], { error: 'must be 0, 1 or 2' })
    .transform(Number)
    .meta({ examples: [0, 1, 2] })
    .optional(),
  comment: z.union([scalar.transform(String), z.null().transform(() => '')]).optional(),
  // The entry replaces the whole grade record, as the platform documents: left out, the comment is hidden.
  comment_status: commentStatus.optional(),
});
const finalCommentItem = z.object({
  enrollment_id: wireId,
  period_id: scalar.transform(String).meta({ examples: ['final', 'other'] }),
  comment: z.union([scalar.transform(String), z.null().transform(() => '')]),
  comment_status: commentStatus.optional(),
});

const exceptionName = [null, 'EXCUSED', 'INCOMPLETE'] as const;

const applied = z
  .literal(204)
  .describe('204: applied (a write that fails is a 400 for the whole request, and writes nothing).');
/** What a grades write answers: each entry as sent, with its code, under the element the body named its entries. */
const gradeResultsWire = z
  .object({
    grade: z.array(z.object({ enrollment_id: z.int(), assignment_id: z.int(), response_code: applied })).optional(),
    final_comment: z
      .array(z.object({ enrollment_id: z.int(), period_id: z.string(), response_code: applied }))
      .optional(),
  })
  .meta({
    id: 'GradeResults',
    description:
      'A response code per grade or final comment written, in the order sent (207, as the platform answers).',
  });

export const gradeRoutes = [
  viewRoute({
    path: '/sections/{section_id}/grades',
    summary:
      'List the grades of a section, paged, with period and final grades (its teachers and administrators; students read theirs at /users/{id}/grades)',
    paged: true,
    filters: wireBody({
      assignment_id: id('assignmentId'),
      enrollment_id: id('enrollmentId'),
      timestamp: withExamples(unixTime, '1767225600')('changedSince'),
    }),
    wire: sectionGradesWire,
    document: graphql(
      `query($sectionId: ID!, $assignmentId: ID, $enrollmentId: ID, $changedSince: DateTime, $start: Int!, $limit: Int!) {
        sectionGrades(sectionId: $sectionId, assignmentId: $assignmentId, enrollmentId: $enrollmentId, changedSince: $changedSince) {
          ...RestGrades
        }
      }`,
      [RestGrades],
    ),
    variables: ({ params, filters, page }) => ({ sectionId: params.section_id!, ...filters, ...page }),
    shape: sectionGradesToWire,
  }),
  viewRoute({
    path: '/users/{user_id}/grades',
    summary: "List a student's grades in one section (section_id is required: 403 without it)",
    filters: wireBody({ section_id: id('sectionId') }),
    wire: userGradesWire,
    document: graphql(
      `query($userId: ID!, $sectionId: ID, $start: Int!, $limit: Int!) { userGrades(userId: $userId, sectionId: $sectionId) { ...RestGrades } }`,
      [RestGrades],
    ),
    paged: true,
    variables: ({ params, filters, page }) => ({
      userId: params.user_id!,
      sectionId: filters.sectionId ?? null,
      ...page,
    }),
    shape: userGradesToWire,
  }),
  bulkRoute('PUT', {
    path: '/sections/{section_id}/grades',
    summary:
      'Set grades (body root grades) or final comments (body root final_comments) of a section: all items or none, with a code per item',
    body: wireBody(
      {
        grades: { grade: list(gradeItem)('grades') },
        final_comments: { final_comment: list(finalCommentItem)('finalComments') },
      },
      [],
      { oneOf: ['grades', 'final_comments'] },
    ),
    document: graphql(
      `mutation($input: SetSectionGradesInput!) {
        setSectionGrades(input: $input) { userErrors { ...UserErrors } }
      }`,
      [UserErrors],
    ),
    variables: ({ params, input }) => ({
      input: {
        sectionId: params.section_id!,
        grades:
          (input.grades as z.output<typeof gradeItem>[] | undefined)?.map((item) => ({
            assignmentId: item.assignment_id,
            enrollmentId: item.enrollment_id,
            grade: item.grade,
            exception: item.exception ? exceptionName[item.exception] : null,
            comment: item.comment ?? null,
            commentVisible: item.comment_status ?? null,
          })) ?? null,
        finalComments:
          (input.finalComments as z.output<typeof finalCommentItem>[] | undefined)?.map((item) => ({
            enrollmentId: item.enrollment_id,
            periodId: item.period_id,
            comment: item.comment,
            commentVisible: item.comment_status ?? null,
          })) ?? null,
      },
    }),
    wire: gradeResultsWire,
    multiStatus: 'always',
    // All items are written or none, so every entry of an answered write was applied. An empty list counts as left
    // out, as the mutation reads it.
    shape: (_written, _link, { input }) =>
      input.grades?.length
        ? {
            grade: (input.grades as z.output<typeof gradeItem>[]).map((item) => ({
              enrollment_id: Number(item.enrollment_id),
              assignment_id: Number(item.assignment_id),
              response_code: 204 as const,
            })),
          }
        : {
            final_comment: (input.finalComments as z.output<typeof finalCommentItem>[]).map((item) => ({
              enrollment_id: Number(item.enrollment_id),
              period_id: item.period_id,
              response_code: 204 as const,
            })),
          },
  }),
];
