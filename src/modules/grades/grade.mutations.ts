import { ValidationError } from '../../core/errors';
import { inputFromSchema } from '../../graphql/inputs';
import { payloadMutation } from '../../graphql/payloads';
import { parseId } from '../../graphql/realm';
import { readById } from '../../graphql/reads-by-id';
import { setFinalComments, setGrades } from './grade.service';
import { GradeExceptionEnum, GradesWrittenType } from './grade.type';
import { finalCommentItemSchema, gradeItemSchema, sectionGradesWriteSchema } from './grade.validation';

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

payloadMutation('setSectionGrades', {
  description:
    'Sets grades, or comments (and overrides) on period and final grades, of a section (its teachers and administrators): ' +
    "give exactly one of `grades` and `finalComments`, as the platform's PUT /sections/{id}/grades does. All items are written, or none.",
  input: sectionGradesWriteSchema,
  inputDescription: 'The section, and the grades or the final comments to set in it.',
  types: { grades: GradeInput, finalComments: FinalCommentInput },
  payload: {
    gradesWritten: { type: GradesWrittenType, description: 'How many items were written.' },
    section: {
      model: 'Section',
      description: 'The section whose grades were written: read its `sectionGrades` again for the computed grades.',
    },
  },
  resolve: async (viewer, { sectionId, grades, finalComments }, select) => {
    const section = parseId(sectionId, 'Section', 'sectionId');
    // An empty list counts as left out: a client that sends `grades` with no items means the comments.
    const given = (list: unknown[] | null | undefined) => (list?.length ? list : null);
    if ((given(grades) === null) === (given(finalComments) === null)) {
      throw new ValidationError([{ field: 'grades', message: 'give either grades or finalComments, one of them' }]);
    }
    const gradesWritten = given(grades)
      ? await setGrades(viewer, section, grades)
      : await setFinalComments(viewer, section, finalComments);
    return { gradesWritten, section: await readById('Section', select('section'), section) };
  },
});
