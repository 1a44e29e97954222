import { z } from 'zod';
import { type ResultOf, graphql } from '../../graphql/typed-document';
import { createRoute, rawBodyRoute } from '../../rest/route';
import { UserErrors } from '../../rest/user-errors';
import { byteCount, text, wireBody } from '../../rest/wire-body';

const RestUpload = graphql(`
  fragment RestUpload on Upload @_unmask {
    id: databaseId filename filesize md5Checksum status kind mimeType width height uploadUrl createdAt
  }
`);

/** The platform's file object of an upload (its step one echoes `filename`, `filesize`, `md5_checksum`). */
export const uploadWire = z
  .object({
    id: z.int(),
    upload_location: z.url().describe('Where to PUT the raw bytes.'),
    filename: z.string(),
    filesize: z.int(),
    md5_checksum: z.string(),
    timestamp: z.int().describe('Unix time the upload was announced'),
    status: z.enum(['pending', 'stored']),
    type: z.enum(['image', 'video', 'audio', 'file', '']).describe('What the stored bytes are; empty until stored'),
    mime_type: z.string().describe('Media type read from the bytes; empty until stored'),
    content_dimensions: z.string().describe('WIDTHxHEIGHT of an image, else empty'),
  })
  .meta({ id: 'Upload', description: 'An uploaded file, to attach with `file-attachment` (album content).' });

function uploadToWire(upload: ResultOf<typeof RestUpload>): z.input<typeof uploadWire> {
  return {
    id: Number(upload.id),
    upload_location: upload.uploadUrl,
    filename: upload.filename,
    filesize: upload.filesize,
    md5_checksum: upload.md5Checksum,
    timestamp: Math.floor(Date.parse(upload.createdAt) / 1000),
    status: upload.status === 'STORED' ? 'stored' : 'pending',
    type: upload.kind ? (upload.kind.toLowerCase() as 'image' | 'video' | 'audio' | 'file') : '',
    mime_type: upload.mimeType ?? '',
    content_dimensions: upload.width && upload.height ? `${upload.width}x${upload.height}` : '',
  };
}

/** Read as text by the service, which names a malformed one; declared as the platform's 32 hexadecimal digits. */
const md5Checksum = {
  schema: z.string().regex(/^[0-9a-fA-F]{32}$/, 'must be an MD5 checksum: 32 hexadecimal digits'),
  input: 'md5Checksum',
};

export const uploadRoutes = [
  createRoute({
    path: '/upload',
    summary: 'Announce a file upload (step one): answers with the location to PUT its bytes to',
    body: wireBody({ filename: text('filename'), filesize: byteCount('filesize'), md5_checksum: md5Checksum }, [
      'filename',
      'filesize',
      'md5_checksum',
    ]),
    wire: uploadWire,
    document: graphql(
      `mutation($input: CreateUploadInput!) {
        createUpload(input: $input) { userErrors { ...UserErrors } upload { ...RestUpload } }
      }`,
      [UserErrors, RestUpload],
    ),
    variables: (request) => ({ input: request.input }),
    payload: 'upload',
    shape: uploadToWire,
  }),
  rawBodyRoute({
    path: '/upload/{id}',
    summary: 'Send the bytes of an announced upload (step two); checked against its size and MD5 checksum',
    wire: uploadWire,
    document: graphql(
      `mutation($input: ReceiveUploadContentInput!) {
        receiveUploadContent(input: $input) { userErrors { ...UserErrors } upload { ...RestUpload } }
      }`,
      [UserErrors, RestUpload],
    ),
    variables: (request) => ({ input: { id: request.params.id } }),
    payload: 'upload',
    shape: uploadToWire,
  }),
];
