import { objectIdMember, withMembers } from '../../graphql/inputs';
import { payloadMutation } from '../../graphql/payloads';
import { parseId } from '../../graphql/realm';
import { type UploadContent, createUpload, receiveUploadContent } from './upload.service';
import { createUploadSchema, uploadContentSchema } from './upload.validation';

payloadMutation('createUpload', {
  description:
    'Step one of an upload: announces a file and answers with its `uploadUrl`; step two is a PUT of the raw bytes there ' +
    '(with the same credential), which answers with the stored file. Attach it (album content) before it is swept.',
  input: createUploadSchema,
  inputDescription: 'A file about to be uploaded: its name, size and checksum, which its bytes are checked against.',
  payload: { upload: { model: 'Upload', description: 'The announced upload, waiting for its bytes.' } },
  resolve: async (viewer, input, select) => ({ upload: await createUpload(viewer, input, select('upload')) }),
});

payloadMutation('receiveUploadContent', {
  description:
    'Step two of an upload: stores its bytes, checked against the announced size and checksum. `PUT /v1/upload/{id}` ' +
    '(`uploadUrl`) runs it with the raw request body, streamed; over /graphql a small file (up to the body limit) is ' +
    'sent as `contentBase64`. A second write is a CONFLICT.',
  input: withMembers(uploadContentSchema, { id: objectIdMember('The upload whose bytes these are.') }),
  inputDescription: 'The upload, and its bytes when they come over /graphql.',
  payload: { upload: { model: 'Upload', description: 'The upload, with its bytes stored.' } },
  resolve: async (viewer, { id, contentBase64 }, select, { rawBody }) => {
    const content: UploadContent = rawBody
      ? { kind: 'raw', ...rawBody }
      : contentBase64 != null
        ? { kind: 'base64', text: contentBase64 }
        : { kind: 'none' };
    return { upload: await receiveUploadContent(viewer, parseId(id, 'Upload'), content, select('upload')) };
  },
});
