import { createInput, nodeId, requiredText } from '../../core/validation';

export const createWebPackageSchema = createInput(
  {
    title: requiredText(255).describe('Title.'),
    uploadId: nodeId('Upload')
      .transform(Number)
      .describe("The viewer's stored, unattached upload of the zipped website."),
  },
  ['title', 'uploadId'],
);
