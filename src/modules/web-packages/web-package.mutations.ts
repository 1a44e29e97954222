import { z } from 'zod';
import { objectIdMember, withMembers } from '../../graphql/inputs';
import { payloadMutation } from '../../graphql/payloads';
import { parseId } from '../../graphql/realm';
import { createWebPackage, deleteWebPackage } from './web-package.service';
import { createWebPackageSchema } from './web-package.validation';

payloadMutation('createWebPackage', {
  description:
    'Adds a web content package to a course section (its administrators): the zip is unpacked safely. An unsafe entry ' +
    '(absolute or .. path, link, special file) is a user error on `uploadId`; a zip over the limits on files, size or ' +
    'compression ratio (a zip bomb) is refused with PAYLOAD_TOO_LARGE (HTTP 413). Nothing of a refused zip is kept.',
  input: withMembers(createWebPackageSchema, { sectionId: objectIdMember('Course section id.') }),
  inputDescription:
    'A new web content package of a section, from a zip uploaded with createUpload and its bytes stored.',
  payload: { webPackage: { model: 'WebPackage', description: 'The new web package.' } },
  resolve: async (viewer, { sectionId, ...input }, select) => ({
    webPackage: await createWebPackage(viewer, parseId(sectionId, 'Section', 'sectionId'), input, select('webPackage')),
  }),
});

payloadMutation('deleteWebPackage', {
  description: "Deletes a web content package and its files (the section's administrators).",
  input: z.strictObject({
    id: objectIdMember('The web package to delete.'),
    sectionId: objectIdMember('The course section the package must be in.').nullish(),
  }),
  inputDescription: 'The web package to delete.',
  payload: { deletedWebPackageId: { deleted: 'WebPackage', description: 'Global id of the deleted package.' } },
  resolve: async (viewer, { id, sectionId }) => ({
    deletedWebPackageId: (
      await deleteWebPackage(
        viewer,
        parseId(id, 'WebPackage'),
        sectionId == null ? null : parseId(sectionId, 'Section', 'sectionId'),
      )
    ).id,
  }),
});
