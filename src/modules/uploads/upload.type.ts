import { FileKind, UploadStatus } from '../../generated/prisma/enums';
import { builder } from '../../graphql/builder';
import { exposeColumns, exposeDatabaseId, nodeId } from '../../graphql/columns';

export const UploadStatusEnum = builder.enumType(UploadStatus, {
  name: 'UploadStatus',
  description: 'Whether an upload has received its bytes.',
  values: {
    PENDING: { description: 'Created, waiting for its bytes (`PUT` to its location); nothing can attach it yet.' },
    STORED: { description: 'Its bytes are stored; an album, page or web package may attach it.' },
  },
});

export const FileKindEnum = builder.enumType(FileKind, {
  name: 'FileKind',
  description: 'What a stored file is, read from its bytes: an image that decodes, audio, video, or another file.',
  values: {
    IMAGE: { description: 'A picture that decodes; it gets a thumbnail and its dimensions.' },
    VIDEO: { description: 'A video recording.' },
    AUDIO: { description: 'A sound recording.' },
    FILE: { description: 'Any other file, such as a document or a worksheet.' },
  },
});

/** The location an upload's bytes are sent to with PUT; the same path for legacy and GraphQL clients. */
export const uploadLocation = (origin: string, id: number | string) => `${origin}/v1/upload/${id}`;

export const UploadType = builder.prismaNode('Upload', {
  id: nodeId,
  fields: (t) => ({
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'Upload', [
      'filename',
      'filesize',
      'md5Checksum',
      'mimeType',
      'width',
      'height',
      'createdAt',
      'storedAt',
    ]),
    status: t.expose('status', { type: UploadStatusEnum }),
    kind: t.expose('kind', { type: FileKindEnum, nullable: true }),
    uploadUrl: t.string({
      description:
        "Where to PUT the file's bytes (raw, any Content-Type, with the same credential): an absolute URL under /v1/upload.",
      resolve: (upload, _args, { origin }) => uploadLocation(origin, upload.id),
    }),
    attached: t.boolean({
      description:
        'Whether something (album content) has attached the file; unattached uploads are removed after a while.',
      select: { attachedAt: true },
      resolve: (upload) => upload.attachedAt !== null,
    }),
  }),
});

/** Browsers may show these inline; anything else is served as an attachment. */
const inlineKinds = new Set(['IMAGE', 'VIDEO', 'AUDIO']);

export interface StoredFile {
  key: string;
  contentType: string;
  filename: string;
  inline: boolean;
}

/** The stored bytes of an attached upload, as the /v1 file routes serve them. */
export const StoredFileType = builder.objectRef<StoredFile>('StoredFile').implement({
  description:
    "Where the server keeps a file's bytes, for its own /v1 file routes (the key is opaque and grants nothing).",
  fields: (t) => ({
    key: t.exposeString('key', { description: 'Opaque storage key.' }),
    contentType: t.exposeString('contentType', { description: 'Media type the bytes are served with.' }),
    filename: t.exposeString('filename', { description: 'File name offered to a browser saving it.' }),
    inline: t.exposeBoolean('inline', { description: 'Whether browsers may show it in place (images, audio, video).' }),
  }),
});

export const FileVariantEnum = builder.enumType('FileVariant', {
  description: 'The original file, or the thumbnail made of an image.',
  values: {
    ORIGINAL: { description: 'The file as uploaded.' },
    THUMBNAIL: { description: 'A JPEG thumbnail (images only).' },
  },
});

/** The selection `storedFileOf` needs from an upload, and `writePendingThumbnail` before a thumbnail is read. */
export const storedFileSelection = {
  id: true,
  storageKey: true,
  thumbnailKey: true,
  thumbnailPending: true,
  mimeType: true,
  filename: true,
  kind: true,
} as const;

type StoredUpload = {
  storageKey: string;
  thumbnailKey: string | null;
  mimeType: string | null;
  filename: string;
  kind: string | null;
};

export function storedFileOf(upload: StoredUpload, variant: 'ORIGINAL' | 'THUMBNAIL'): StoredFile | null {
  if (variant === 'THUMBNAIL') {
    if (!upload.thumbnailKey) return null;
    return {
      key: upload.thumbnailKey,
      contentType: 'image/jpeg',
      filename: `thumbnail-${upload.filename}.jpg`,
      inline: true,
    };
  }
  return {
    key: upload.storageKey,
    contentType: upload.mimeType ?? 'application/octet-stream',
    filename: upload.filename,
    inline: inlineKinds.has(upload.kind ?? 'FILE'),
  };
}
