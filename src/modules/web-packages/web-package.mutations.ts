import { ConflictError, NotFoundError, ValidationError } from '../../core/errors';
import { deleteMutation, objectMutation, required } from '../../graphql/operations';
import { inputFromSchema } from '../../graphql/inputs';
import { parseId } from '../../graphql/realm';
import { createWebPackage, deleteWebPackage } from './web-package.service';
import { createWebPackageSchema } from './web-package.validation';

const CreateWebPackageInput = inputFromSchema(
  'CreateWebPackageInput',
  createWebPackageSchema,
  'A new web content package, from a zip uploaded with createUpload and its bytes stored.',
);

objectMutation('createWebPackage', {
  type: 'WebPackage',
  description:
    'Adds a web content package to a course section (its administrators): the zip is unpacked safely. An unsafe entry ' +
    '(absolute or .. path, link, special file) is a ValidationError; a zip over the limits on files, size or compression ' +
    'ratio (a zip bomb) is refused with PAYLOAD_TOO_LARGE (HTTP 413). Nothing of a refused zip is kept.',
  errors: [ValidationError, NotFoundError, ConflictError],
  args: (arg) => ({
    sectionId: arg.id({ required: true, description: 'Course section id.' }),
    input: arg(required(CreateWebPackageInput, 'The new web package.')),
  }),
  resolve: (viewer, args, query) =>
    createWebPackage(viewer, parseId(args.sectionId, 'Section', 'sectionId'), args.input, query),
});

deleteMutation('deleteWebPackage', {
  description: "Deletes a web content package and its files (the section's administrators).",
  errors: [NotFoundError],
  args: (arg) => ({
    id: arg.id({ required: true, description: 'The web package to delete.' }),
    sectionId: arg.id({ description: 'The course section the package must be in.' }),
  }),
  resolve: (viewer, args) =>
    deleteWebPackage(
      viewer,
      parseId(args.id, 'WebPackage'),
      args.sectionId === null || args.sectionId === undefined ? null : parseId(args.sectionId, 'Section', 'sectionId'),
    ),
});
