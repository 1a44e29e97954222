import { z } from 'zod';
import { createInput, nodeId, requiredText, text } from '../../core/validation';

export const createSectionSchema = createInput(
  { schoolId: nodeId('School'), courseTitle: requiredText(255), courseCode: requiredText(255), title: requiredText(255), sectionCode: text(255) },
  ['courseTitle', 'courseCode', 'title'],
);

export const createEnrollmentSchema = createInput(
  {
    sectionId: nodeId('Section'),
    userId: nodeId('User'),
    admin: z.boolean(),
    status: z.enum(['ACTIVE', 'EXPIRED', 'INVITE_PENDING', 'REQUEST_PENDING', 'ARCHIVED']),
  },
  ['sectionId', 'userId'],
);

export const parentLinkSchema = z.object({ parentId: nodeId('User').transform(Number), childId: nodeId('User').transform(Number) });
