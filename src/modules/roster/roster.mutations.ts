import { builder } from '../../graphql/builder';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors';
import { inputFromSchema } from '../../graphql/inputs';
import { objectMutation, required, resultMutation } from '../../graphql/operations';
import { createEnrollment, createSection, setParentLink } from './roster.service';
import { EnrollmentStatusEnum } from './roster.type';
import { createEnrollmentSchema, createSectionSchema, parentLinkSchema } from './roster.validation';

const CreateSectionInput = inputFromSchema(
  'CreateSectionInput',
  createSectionSchema,
  'A new course section; the course is created when its code is new to the school.',
);
const CreateEnrollmentInput = inputFromSchema(
  'CreateEnrollmentInput',
  createEnrollmentSchema,
  'Enrolls a user in a section.',
  { status: EnrollmentStatusEnum },
);

objectMutation('createSection', {
  type: 'Section',
  description: 'Creates a course section (school and district administrators).',
  args: (arg) => ({ input: arg(required(CreateSectionInput, 'The new section.')) }),
  resolve: (viewer, args, query) => createSection(viewer, args.input, query),
});
objectMutation('createEnrollment', {
  type: 'Enrollment',
  description: 'Enrolls a user in a section (its administrators).',
  errors: [ValidationError, NotFoundError, ConflictError],
  args: (arg) => ({ input: arg(required(CreateEnrollmentInput, 'The new enrollment.')) }),
  resolve: (viewer, args, query) => createEnrollment(viewer, args.input, query),
});

const ParentLinkInput = inputFromSchema('ParentLinkInput', parentLinkSchema, 'A parent and their child.');

const ParentLinkType = builder
  .objectRef<{ parentId: number; childId: number; linked: boolean }>('ParentLink')
  .implement({
    description: 'Whether a parent is now linked to their child.',
    fields: (t) => ({
      parentId: t.exposeID('parentId', { description: 'The parent.' }),
      childId: t.exposeID('childId', { description: 'The child.' }),
      linked: t.exposeBoolean('linked', {
        description: "Whether the parent now reads the child's grades and attendance.",
      }),
    }),
  });

resultMutation('linkParent', {
  type: ParentLinkType,
  description:
    "Links a parent to their child, so the parent reads the child's grades and attendance (the child's school's administrators).",
  errors: [ValidationError, NotFoundError],
  args: (arg) => ({ input: arg(required(ParentLinkInput, 'The parent and the child.')) }),
  resolve: (viewer, args) => setParentLink(viewer, args.input, true),
});
resultMutation('unlinkParent', {
  type: ParentLinkType,
  description: "Removes a parent's link to their child.",
  errors: [ValidationError, NotFoundError],
  args: (arg) => ({ input: arg(required(ParentLinkInput, 'The parent and the child.')) }),
  resolve: (viewer, args) => setParentLink(viewer, args.input, false),
});
