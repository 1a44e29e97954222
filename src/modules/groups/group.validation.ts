import { z } from 'zod';
import { clearable, createInput, nodeId, requiredText, text, updateInput } from '../../core/validation';

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

// Without a school (left out, or null as XML clients send `<school_id />`), a group is created in the viewer's school.
export const createGroupSchema = createInput({ ...groupFields, schoolId: nodeId('School') }, ['title']);
export const updateGroupSchema = updateInput(groupFields);

export const groupCategorySchema = createInput({ title: requiredText(255) }, ['title']);

export const groupMemberSchema = createInput({ groupId: nodeId('Group'), userId: nodeId('User'), admin: z.boolean() }, ['groupId', 'userId']);
