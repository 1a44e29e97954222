import { z } from 'zod';

const text = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);
const required = (max: number) => text(max).min(1, 'is required');
const numericId = z.string().regex(/^\d{1,15}$/, 'must be a numeric id');
/**
 * GraphQL lets a client send an explicit null for any optional input member: it means "left out", as in the groups
 * module, and is turned into undefined so that defaults apply and no null reaches a non-nullable column.
 */
const omittable = <T extends z.ZodType>(schema: T) => schema.nullish().transform((value) => value ?? undefined);

export const createUserSchema = z.object({
  schoolId: omittable(numericId),
  buildingId: omittable(numericId),
  username: required(255).regex(/^\S+$/, 'must not contain spaces'),
  schoolUid: text(255).min(1, 'must not be empty').nullish(),
  nameFirst: required(255),
  nameLast: required(255),
  email: omittable(z.union([z.literal(''), z.email('must be an email address')])),
  role: z.enum(['DISTRICT_ADMIN', 'SCHOOL_ADMIN', 'TEACHER', 'STUDENT', 'PARENT']),
  triggerAdmin: omittable(z.boolean()),
});

export const createSectionSchema = z.object({
  schoolId: omittable(numericId),
  courseTitle: required(255),
  courseCode: required(255),
  title: required(255),
  sectionCode: omittable(text(255)),
});

export const createEnrollmentSchema = z.object({
  sectionId: numericId,
  userId: numericId,
  admin: omittable(z.boolean()),
  status: omittable(z.enum(['ACTIVE', 'EXPIRED', 'INVITE_PENDING', 'REQUEST_PENDING', 'ARCHIVED'])),
});

export const groupMemberSchema = z.object({
  groupId: numericId,
  userId: numericId,
  admin: omittable(z.boolean()),
});
