import { NotFoundError, ValidationError } from '../../core/errors';
import { inputFromSchema } from '../../graphql/inputs';
import { resultMutation } from '../../graphql/operations';
import { parseId } from '../../graphql/realm';
import { setFinalComments, setGrades } from './grade.service';
import { GradeExceptionEnum, GradesWrittenType } from './grade.type';
import { finalCommentItemSchema, gradeItemSchema } from './grade.validation';

// Ids and grades are unions (a number is taken too) that GraphQL reads as one type.
const GradeInput = inputFromSchema(
  'GradeInput',
  gradeItemSchema,
  "A grade to set; it replaces the enrollment's grade on the item.",
  { assignmentId: 'ID', enrollmentId: 'ID', grade: 'String', exception: GradeExceptionEnum },
);
const FinalCommentInput = inputFromSchema(
  'FinalCommentInput',
  finalCommentItemSchema,
  "A comment on an enrollment's period or final grade; it replaces the one given before.",
  { enrollmentId: 'ID' },
);

resultMutation('setSectionGrades', {
  type: GradesWrittenType,
  description:
    'Sets grades, or comments (and overrides) on period and final grades, of a section (its teachers and administrators): ' +
    "give exactly one of `grades` and `finalComments`, as the platform's PUT /sections/{id}/grades does. All items are written, or none.",
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
    if (given(grades)) return setGrades(viewer, section, grades);
    return setFinalComments(viewer, section, finalComments);
  },
});
