import { FileKind, UploadStatus } from '../../generated/prisma/enums';
import { builder } from '../../graphql/builder';
import { exposeColumns } from '../../graphql/columns';

export const UploadStatusEnum = builder.enumType(UploadStatus, {
  name: 'UploadStatus',
  description: 'Whether an upload has received its bytes.',
});

export const FileKindEnum = builder.enumType(FileKind, {
  name: 'FileKind',
  description: 'What a stored file is, read from its bytes: an image that decodes, audio, video, or another file.',
});

/** The location an upload's bytes are sent to with PUT; the same path for legacy and GraphQL clients. */
export const uploadLocation = (origin: string, id: number | string) => `${origin}/v1/upload/${id}`;

export const UploadType = builder.prismaObject('Upload', {
  fields: (t) => ({
    ...exposeColumns(t, 'Upload', ['id', 'filename', 'filesize', 'md5Checksum', 'mimeType', 'width', 'height', 'createdAt', 'storedAt']),
    status: t.expose('status', { type: UploadStatusEnum }),
    kind: t.expose('kind', { type: FileKindEnum, nullable: true }),
    uploadUrl: t.string({
      description: 'Where to PUT the file\'s bytes (raw, any Content-Type, with the same credential): an absolute URL under /v1/upload.',
      resolve: (upload, _args, { origin }) => uploadLocation(origin, upload.id),
    }),
    attached: t.boolean({
      description: 'Whether something (album content) has attached the file; unattached uploads are removed after a while.',
      select: { attachedAt: true },
      resolve: (upload) => upload.attachedAt !== null,
    }),
  }),
});
