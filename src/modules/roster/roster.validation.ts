import { z } from 'zod';
import { createInput, numericId, requiredText, text } from '../../core/validation';

export const createSectionSchema = createInput(
  { schoolId: numericId, courseTitle: requiredText(255), courseCode: requiredText(255), title: requiredText(255), sectionCode: text(255) },
  ['courseTitle', 'courseCode', 'title'],
);

export const createEnrollmentSchema = createInput(
  {
    sectionId: numericId,
    userId: numericId,
    admin: z.boolean(),
    status: z.enum(['ACTIVE', 'EXPIRED', 'INVITE_PENDING', 'REQUEST_PENDING', 'ARCHIVED']),
  },
  ['sectionId', 'userId'],
);

export const parentLinkSchema = z.object({ parentId: numericId.transform(Number), childId: numericId.transform(Number) });
