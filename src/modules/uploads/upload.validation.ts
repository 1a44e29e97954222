import { z } from 'zod';
import { createInput, requiredText } from '../../core/validation';

const uploadFields = {
  // Kept as metadata only: storage keys are generated, so no name reaches the file system.
  filename: requiredText(255).describe('File name (metadata only; never used as a path).'),
  // Any size: one past UPLOAD_LIMIT is refused as too large by the service. Not an integer schema, so that GraphQL
  // takes it as a Float: a size past 32 bits is refused as too large (413), not as a malformed Int.
  filesize: z
    .number('must be an integer')
    .min(0, 'must not be negative')
    .refine(Number.isInteger, 'must be an integer')
    .describe("Size in bytes, an integer; at most the server's UPLOAD_LIMIT (larger is PAYLOAD_TOO_LARGE)."),
  md5Checksum: z
    .string()
    .trim()
    .regex(/^[0-9a-fA-F]{32}$/, 'must be an MD5 checksum: 32 hexadecimal digits')
    .transform((value) => value.toLowerCase())
    .describe('MD5 checksum of the bytes, 32 hexadecimal digits.'),
};

export const createUploadSchema = createInput(uploadFields, ['filename', 'filesize', 'md5Checksum']);

/** The bytes of an upload sent over /graphql; `PUT /v1/upload/{id}` streams them instead. */
export const uploadContentSchema = createInput(
  { contentBase64: z.string().describe("The file's bytes in base64 (over /graphql; PUT larger files to uploadUrl).") },
  [],
);
