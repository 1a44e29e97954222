import { z } from 'zod';

const text = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);
const numericId = z.string().regex(/^\d{1,15}$/, 'must be a numeric id');

const groupFields = z.object({
  title: text(255).min(1, 'is required'),
  description: text(65535),
  pictureUrl: text(2048),
  website: text(2048),
  // `custom` exists on the platform but only as a read-only result of per-member settings.
  privacyLevel: z.enum(['EVERYONE', 'SCHOOL', 'BUILDING', 'GROUP', 'CUSTOM']).refine((level) => level !== 'CUSTOM', {
    message: 'custom is read only and cannot be set',
  }),
  categoryId: numericId.nullable(),
  // Null (an empty `school_id`, as XML clients send `<school_id />`) means the viewer's school, like leaving it out.
  schoolId: numericId.nullable(),
  buildingId: numericId.nullable(),
  groupCode: text(255),
  inviteType: z.enum(['INVITE_ONLY', 'REQUEST_TO_JOIN', 'ANYONE_CAN_JOIN']),
  memberPost: z.boolean(),
  memberPostComment: z.boolean(),
  createDiscussion: z.boolean(),
  createFiles: z.boolean(),
});

export const createGroupSchema = groupFields.partial().required({ title: true });
export const updateGroupSchema = groupFields.omit({ schoolId: true }).partial();

export const groupCategorySchema = z.object({ title: text(255).min(1, 'is required') });
