import { NotFoundError, ValidationError } from '../../core/errors';
import { builder } from '../../graphql/builder';
import { resultMutation } from '../../graphql/operations';
import { parseId } from '../../graphql/realm';
import { setFinalComments, setGrades } from './grade.service';
import { GradeExceptionEnum, GradesWrittenType } from './grade.type';

const GradeInput = builder.inputType('GradeInput', {
  description: 'A grade to set; it replaces the enrollment\'s grade on the item.',
  fields: (t) => ({
    assignmentId: t.id({ required: true, description: 'The graded item.' }),
    enrollmentId: t.id({ required: true, description: 'The student\'s enrollment.' }),
    grade: t.string({ description: 'Points, or a letter of the item\'s grading scale (saved as its minimum percent of the points); required unless an exception is given.' }),
    exception: t.field({ type: GradeExceptionEnum, description: 'Excused or incomplete; the grade is then null.' }),
    comment: t.string({ description: 'Comment; empty when left out.' }),
    commentVisible: t.boolean({ description: 'Whether the student and their parents see the comment; default false, as /v1\'s `comment_status`.' }),
  }),
});

const FinalCommentInput = builder.inputType('FinalCommentInput', {
  description: 'A comment on an enrollment\'s period or final grade; it replaces the one given before.',
  fields: (t) => ({
    enrollmentId: t.id({ required: true, description: 'The student\'s enrollment.' }),
    periodId: t.string({ required: true, description: 'A grading period (`p<id>` or its id), `other`, or `final` for the course final.' }),
    comment: t.string({ required: true, description: 'The comment.' }),
    commentVisible: t.boolean({ description: 'Whether the student sees it; default false.' }),
    override: t.float({ description: 'A percent that replaces the computed grade; null removes it; left out keeps it.' }),
  }),
});

const exceptionCode = { EXCUSED: 1, INCOMPLETE: 2 } as const;

resultMutation('setSectionGrades', {
  type: GradesWrittenType,
  description:
    'Sets grades, or comments (and overrides) on period and final grades, of a section (its teachers and administrators): ' +
    'give exactly one of `grades` and `finalComments`, as the platform\'s PUT /sections/{id}/grades does. All items are written, or none.',
  errors: [ValidationError, NotFoundError],
  args: (arg) => ({
    sectionId: arg.id({ required: true, description: 'The course section.' }),
    grades: arg({ type: [GradeInput], description: 'Grades to set.' }),
    finalComments: arg({ type: [FinalCommentInput], description: 'Comments on period and final grades to set.' }),
  }),
  resolve: (viewer, { sectionId, grades, finalComments }) => {
    const section = parseId(sectionId, 'Section', 'sectionId');
    // An empty list counts as left out: a client that sends `grades` with no items means the comments.
    const given = (list: unknown[] | null | undefined) => (list?.length ? list : null);
    if ((given(grades) === null) === (given(finalComments) === null)) {
      throw new ValidationError([{ field: 'grades', message: 'give either grades or finalComments, one of them' }]);
    }
    if (given(grades)) {
      const items = grades!.map(({ exception, ...grade }) => ({ ...grade, exception: exception ? exceptionCode[exception] : undefined }));
      return setGrades(viewer, section, items);
    }
    return setFinalComments(viewer, section, finalComments);
  },
});
