import { builder } from '../../graphql/builder';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors';
import { required } from '../../graphql/operations';
import { inputFromSchema } from '../../graphql/inputs';
import { parseId } from '../../graphql/realm';
import { type UploadContent, createUpload, receiveUploadContent } from './upload.service';
import { createUploadSchema } from './upload.validation';

const CreateUploadInput = inputFromSchema(
  'CreateUploadInput',
  createUploadSchema,
  'A file about to be uploaded: its name, size and checksum, which its bytes are checked against.',
);

builder.mutationField('createUpload', (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: 'Upload',
    description:
      'Step one of an upload: announces a file and answers with its `uploadUrl`; step two is a PUT of the raw bytes there ' +
      '(with the same credential), which answers with the stored file. Attach it (album content) before it is swept.',
    errors: { types: [ValidationError] },
    args: { input: t.arg(required(CreateUploadInput, 'The new upload.')) },
    resolve: (query, _root, args, { viewer }) => createUpload(viewer, args.input, query),
  }),
);

builder.mutationField('receiveUploadContent', (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: 'Upload',
    description:
      'Step two of an upload: stores its bytes, checked against the announced size and checksum. `PUT /v1/upload/{id}` ' +
      '(`uploadUrl`) runs it with the raw request body, streamed; over /graphql a small file (up to the body limit) is ' +
      'sent as `contentBase64`. A second write is a ConflictError.',
    errors: { types: [ValidationError, NotFoundError, ConflictError] },
    args: {
      id: t.arg.id({ required: true, description: 'Upload id.' }),
      contentBase64: t.arg.string({
        description: "The file's bytes in base64 (over /graphql; PUT larger files to uploadUrl).",
      }),
    },
    resolve: (query, _root, args, { viewer, rawBody }) => {
      const content: UploadContent = rawBody
        ? { kind: 'raw', ...rawBody }
        : args.contentBase64 != null
          ? { kind: 'base64', text: args.contentBase64 }
          : { kind: 'none' };
      return receiveUploadContent(viewer, parseId(args.id, 'Upload'), content, query);
    },
  }),
);
