import { z } from 'zod';
import { createInput, nodeId, requiredText, text } from '../../core/validation';

export const createSectionSchema = createInput(
  {
    schoolId: nodeId('School').describe("School; the viewer's when left out."),
    courseTitle: requiredText(255).describe('Course title.'),
    courseCode: requiredText(255).describe('Course code, unique in the school.'),
    title: requiredText(255).describe('Section title.'),
    sectionCode: text(255).describe('Section code.'),
  },
  ['courseTitle', 'courseCode', 'title'],
);

export const createEnrollmentSchema = createInput(
  {
    sectionId: nodeId('Section').describe('Section.'),
    userId: nodeId('User').describe('User.'),
    admin: z.boolean().describe('Section administrator (teacher); default false.'),
    status: z.enum(['ACTIVE', 'EXPIRED', 'INVITE_PENDING', 'REQUEST_PENDING', 'ARCHIVED']).describe('Default ACTIVE.'),
  },
  ['sectionId', 'userId'],
);

export const parentLinkSchema = z.strictObject({
  parentId: nodeId('User').transform(Number).describe('The parent: a user whose role is PARENT.'),
  childId: nodeId('User').transform(Number).describe('The child.'),
});
