import { z } from 'zod';
import { clearable, createInput, nodeId, requiredText, text, updateInput, validate } from '../../core/validation';

/** The most characters of a group's description. */
export const groupDescriptionMaxLength = 65_535;

const groupFields = {
  title: requiredText(255).describe('Title.'),
  description: clearable(text(groupDescriptionMaxLength), '').describe(
    'Description, as plain text, stored as given (front ends escape it).',
  ),
  pictureUrl: clearable(text(2048), '').describe('Profile picture URL.'),
  website: clearable(text(2048), '').describe('Website.'),
  // `custom` exists on the platform but only as a read-only result of per-member settings.
  privacyLevel: z
    .enum(['EVERYONE', 'SCHOOL', 'BUILDING', 'GROUP', 'CUSTOM'])
    .refine((level) => level !== 'CUSTOM', { message: 'custom is read only and cannot be set' })
    .describe('Who sees the group (default SCHOOL; CUSTOM cannot be set).'),
  categoryId: clearable(nodeId('GroupCategory').nullable(), null).describe('Group category; null removes it.'),
  buildingId: clearable(nodeId('School').nullable(), null).describe("Building of the group's school; null removes it."),
  groupCode: clearable(text(255), '').describe('External id when imported from another system.'),
  inviteType: z
    .enum(['INVITE_ONLY', 'REQUEST_TO_JOIN', 'ANYONE_CAN_JOIN'])
    .describe('How people join (default INVITE_ONLY).'),
  memberPost: z.boolean().describe('Members may post group updates (default true).'),
  memberPostComment: z.boolean().describe('Members may comment on updates (default true).'),
  createDiscussion: z.boolean().describe('Members may create discussion threads (default false).'),
  createFiles: z.boolean().describe('Members may create resources (default false).'),
};

const schoolId = nodeId('School').describe("School of the group; the viewer's school when left out.");

/** A new group; its school is read first (`requestedSchool`), the rest once the policy has judged the school. */
export const createGroupSchema = createInput({ ...groupFields, schoolId }, ['title']);

// Without a school (left out, or null as XML clients send `<school_id />`), a group is created in the viewer's school.
// Not strict: it reads the one member of the whole input that names the policy's subject.
const groupSchoolSchema = z.object({ schoolId: schoolId.nullish() });

/**
 * The school a new group is asked for (null: the viewer's), which the policy judges before the rest of the input is
 * validated. An unreadable id fails with every issue of the input, as validating it whole reports them.
 */
export function requestedSchool(input: unknown): number | null {
  const subject = groupSchoolSchema.safeParse(input);
  if (!subject.success) validate(createGroupSchema, input);
  return subject.data?.schoolId ? Number(subject.data.schoolId) : null;
}

export const updateGroupSchema = updateInput(groupFields);

export const groupCategorySchema = createInput({ title: requiredText(255).describe('Category name.') }, ['title']);

const memberRef = { groupId: nodeId('Group').describe('Group.'), userId: nodeId('User').describe('User.') };

export const groupMemberSchema = createInput(
  { ...memberRef, admin: z.boolean().describe('Group administrator; default false.') },
  ['groupId', 'userId'],
);

/** The membership a removal names. */
export const groupMembershipSchema = createInput(memberRef, ['groupId', 'userId']);

/** A change to a membership: whether the member administers the group. */
export const updateGroupMembershipSchema = updateInput({
  admin: z.boolean().describe('Group administrator.'),
});
