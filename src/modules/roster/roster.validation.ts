import { z } from 'zod';
import { createInput, idOfNamedType, nodeId, requiredText, text, updateInput } from '../../core/validation';

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

/** Items per bulk enrollment write, as on the platform. */
export const maxEnrollmentItems = 50;

const enrollmentStatus = z.enum(['ACTIVE', 'EXPIRED', 'INVITE_PENDING', 'REQUEST_PENDING', 'ARCHIVED']);

/**
 * Who is enrolled: a user id, or the school's own id for the user (`school_uid` on /v1), looked up in the section's
 * school. The service requires one of them; the user id wins when both are given.
 */
const enrolledUser = {
  userId: nodeId('User').describe('The user to enroll; or name them by `schoolUid`.'),
  schoolUid: text(255).describe("The school's own id for the user (in the section's school), instead of `userId`."),
};
const enrollmentState = {
  admin: z.boolean().describe('Section administrator (teacher); default false.'),
  status: enrollmentStatus.describe(
    'Default ACTIVE. INVITE_PENDING also sends the user an invite to the section, which settles the enrollment.',
  ),
};

/** One enrollment of a bulk write: the section is the bulk write's. */
export const enrollmentItemSchema = createInput({ ...enrolledUser, ...enrollmentState }, []);

export const createEnrollmentSchema = createInput(
  { sectionId: nodeId('Section').describe('Section.'), ...enrolledUser, ...enrollmentState },
  ['sectionId'],
);

const sectionId = idOfNamedType.describe('The course section.');

/** A bulk enrollment: the section, and the items, each checked on its own by the service. */
export const createEnrollmentsSchema = z.strictObject({
  sectionId,
  items: z
    .array(enrollmentItemSchema)
    .describe(
      `The enrollments, at most ${maxEnrollmentItems}; each succeeds or fails alone. A user already enrolled has ` +
        'their enrollment changed to the item (nothing is written when it already matches).',
    ),
});

/** A bulk addition to a group: the group, and the items, each checked on its own by the service. */
export const createGroupMembershipsSchema = z.strictObject({
  groupId: idOfNamedType.describe('The group.'),
  items: z
    .array(enrollmentItemSchema)
    .describe(
      `The members, at most ${maxEnrollmentItems}; each succeeds or fails alone. A status other than ACTIVE is the ` +
        "item's INVALID; a member already has their administration changed to the item.",
    ),
});

export const updateEnrollmentSchema = updateInput(enrollmentState);

/** A bulk removal: the section, and the enrollments to remove, each removed or refused on its own. */
export const deleteEnrollmentsSchema = z.strictObject({
  sectionId,
  ids: z
    .array(idOfNamedType)
    .min(1, 'must name at least one enrollment')
    .describe(`Enrollments of the section, at most ${maxEnrollmentItems}.`),
});

export const parentLinkSchema = z.strictObject({
  parentId: nodeId('User').transform(Number).describe('The parent: a user whose role is PARENT.'),
  childId: nodeId('User').transform(Number).describe('The child.'),
});

/** Joining a section or a group by the access code its administrators hand out; letter case does not matter. */
export const joinByCodeSchema = createInput(
  { accessCode: requiredText(32).describe('The access code, as `XXXXX-XXXXX`.') },
  ['accessCode'],
);
