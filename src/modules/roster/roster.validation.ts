import { z } from 'zod';

const text = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);
const required = (max: number) => text(max).min(1, 'is required');
const numericId = z.string().regex(/^\d{1,15}$/, 'must be a numeric id');

export const createUserSchema = z.object({
  schoolId: numericId.optional(),
  buildingId: numericId.nullish(),
  username: required(255).regex(/^\S+$/, 'must not contain spaces'),
  schoolUid: text(255).min(1, 'must not be empty').nullish(),
  nameFirst: required(255),
  nameLast: required(255),
  email: z.union([z.literal(''), z.email('must be an email address')]).optional(),
  role: z.enum(['DISTRICT_ADMIN', 'SCHOOL_ADMIN', 'TEACHER', 'STUDENT', 'PARENT']),
  triggerAdmin: z.boolean().optional(),
});

export const createSectionSchema = z.object({
  schoolId: numericId.optional(),
  courseTitle: required(255),
  courseCode: required(255),
  title: required(255),
  sectionCode: text(255).optional(),
});

export const createEnrollmentSchema = z.object({
  sectionId: numericId,
  userId: numericId,
  admin: z.boolean().optional(),
  status: z.enum(['ACTIVE', 'EXPIRED', 'INVITE_PENDING', 'REQUEST_PENDING', 'ARCHIVED']).optional(),
});

export const groupMemberSchema = z.object({
  groupId: numericId,
  userId: numericId,
  admin: z.boolean().optional(),
});
