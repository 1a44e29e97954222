import { z } from 'zod';
import { createInput, requiredText } from '../../core/validation';

const uploadFields = {
  // Kept as metadata only: storage keys are generated, so no name reaches the file system.
  filename: requiredText(255),
  // Any size: one past UPLOAD_LIMIT is refused as too large by the service.
  filesize: z.number('must be an integer').min(0, 'must not be negative').refine(Number.isInteger, 'must be an integer'),
  md5Checksum: z
    .string()
    .trim()
    .regex(/^[0-9a-fA-F]{32}$/, 'must be an MD5 checksum: 32 hexadecimal digits')
    .transform((value) => value.toLowerCase()),
};

export const createUploadSchema = createInput(uploadFields, ['filename', 'filesize', 'md5Checksum']);
