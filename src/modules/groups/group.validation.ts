import { z } from 'zod';
import { clearable, createInput, nodeId, requiredText, text, updateInput, validate } from '../../core/validation';

/** The most characters of a group's description. */
export const groupDescriptionMaxLength = 65_535;

const groupFields = {
  title: requiredText(255),
  description: clearable(text(groupDescriptionMaxLength), ''),
  pictureUrl: clearable(text(2048), ''),
  website: clearable(text(2048), ''),
  // `custom` exists on the platform but only as a read-only result of per-member settings.
  privacyLevel: z.enum(['EVERYONE', 'SCHOOL', 'BUILDING', 'GROUP', 'CUSTOM']).refine((level) => level !== 'CUSTOM', {
    message: 'custom is read only and cannot be set',
  }),
  categoryId: clearable(nodeId('GroupCategory').nullable(), null),
  buildingId: clearable(nodeId('School').nullable(), null),
  groupCode: clearable(text(255), ''),
  inviteType: z.enum(['INVITE_ONLY', 'REQUEST_TO_JOIN', 'ANYONE_CAN_JOIN']),
  memberPost: z.boolean(),
  memberPostComment: z.boolean(),
  createDiscussion: z.boolean(),
  createFiles: z.boolean(),
};

/** A new group's members besides its school, validated once the policy has judged the school (`requestedSchool`). */
export const createGroupSchema = createInput(groupFields, ['title']);

// Without a school (left out, or null as XML clients send `<school_id />`), a group is created in the viewer's school.
const groupSchoolSchema = createInput({ schoolId: nodeId('School') }, []);
const wholeCreateGroupSchema = createInput({ ...groupFields, schoolId: nodeId('School') }, ['title']);

/**
 * The school a new group is asked for (null: the viewer's), which the policy judges before the rest of the input is
 * validated. An unreadable id fails with every issue of the input, as validating it whole reports them.
 */
export function requestedSchool(input: unknown): number | null {
  const subject = groupSchoolSchema.safeParse(input);
  if (!subject.success) validate(wholeCreateGroupSchema, input);
  return subject.data?.schoolId ? Number(subject.data.schoolId) : null;
}

export const updateGroupSchema = updateInput(groupFields);

export const groupCategorySchema = createInput({ title: requiredText(255) }, ['title']);

export const groupMemberSchema = createInput({ groupId: nodeId('Group'), userId: nodeId('User'), admin: z.boolean() }, ['groupId', 'userId']);
