import { z } from 'zod';
import type { Viewer } from '../../auth/viewer';
import type { User } from '../../generated/prisma/client';
import { builder } from '../../graphql/builder';
import { userReference } from '../../graphql/references';
import { UserType } from '../users/user.type';
import type { PrismaQuery } from '../../graphql/operations';
import { encodeGlobalId } from '../../core/global-id';
import { payloadMutation } from '../../graphql/payloads';
import { readById } from '../../graphql/reads-by-id';
import { createSection, setParentLink } from './roster.service';
import {
  createEnrollment,
  createEnrollments,
  deleteEnrollment,
  deleteEnrollments,
  joinSection,
  updateEnrollment,
} from './enrollment.service';
import { createGroupMemberships } from '../groups/group-membership.service';
import { EnrollmentResultType, EnrollmentStatusEnum, GroupMembershipResultType } from './roster.type';
import {
  createEnrollmentSchema,
  createEnrollmentsSchema,
  createGroupMembershipsSchema,
  createSectionSchema,
  deleteEnrollmentsSchema,
  enrollmentItemSchema,
  joinByCodeSchema,
  maxEnrollmentItems,
  parentLinkSchema,
  updateEnrollmentSchema,
} from './roster.validation';
import { inputFromSchema, objectIdMember, withMembers } from '../../graphql/inputs';
import { parseId } from '../../graphql/realm';

const statusType = { status: EnrollmentStatusEnum };

payloadMutation('createSection', {
  description: 'Creates a course section (school and district administrators).',
  input: createSectionSchema,
  inputDescription: 'A new course section; the course is created when its code is new to the school.',
  payload: { section: { model: 'Section', description: 'The new section.' } },
  resolve: async (viewer, input, select) => ({ section: await createSection(viewer, input, select('section')) }),
});
payloadMutation('createEnrollment', {
  description: 'Enrolls a user in a section (its administrators); a user already enrolled is a CONFLICT.',
  input: createEnrollmentSchema,
  inputDescription: 'A user to enroll in a section, by id or by school uid.',
  types: statusType,
  payload: {
    enrollment: { model: 'Enrollment', description: 'The new enrollment.' },
    section: { model: 'Section', description: 'The section, with its enrollments as they now are.' },
  },
  resolve: async (viewer, input, select) => {
    const enrollment = await createEnrollment(viewer, input, select('enrollment'));
    return { enrollment, section: await readById('Section', select('section'), enrollment.sectionId) };
  },
});

payloadMutation('joinSection', {
  description:
    'Enrolls the viewer in the section whose access code they give, as an active member (a pending invite or request ' +
    'to join becomes active). A wrong code, or one of another district, is NOT_FOUND; an enrollment already held is ' +
    'a CONFLICT.',
  input: joinByCodeSchema,
  inputDescription: "A section's access code.",
  payload: {
    enrollment: { model: 'Enrollment', description: "The viewer's enrollment." },
    section: { model: 'Section', description: 'The section joined.' },
  },
  resolve: async (viewer, input, select) => {
    const enrollment = await joinSection(viewer, input, select('enrollment'));
    return { enrollment, section: await readById('Section', select('section'), enrollment.sectionId) };
  },
});

const EnrollmentItemInput = inputFromSchema(
  'EnrollmentItemInput',
  enrollmentItemSchema,
  'One enrollment of a bulk write: the user (by id or school uid), and their state.',
  statusType,
);
const results = {
  type: EnrollmentResultType,
  list: true,
  description: 'One result per item, in the order sent.',
} as const;
const sectionPayload = {
  model: 'Section',
  description: 'The section, with its enrollments as they now are.',
} as const;

payloadMutation('createEnrollments', {
  description:
    `Enrolls users in a section (its administrators) item by item, at most ${maxEnrollmentItems}: an item that cannot ` +
    'be written fails alone and each good item is committed. A user already enrolled has their enrollment changed to ' +
    'the item; an enrollment that already matches is answered as it is, unwritten.',
  input: createEnrollmentsSchema,
  inputDescription: 'The section, and the enrollments.',
  types: { items: EnrollmentItemInput },
  payload: { results, section: sectionPayload },
  resolve: async (viewer, { sectionId, items }, select) => {
    const section = parseId(sectionId, 'Section', 'sectionId');
    const { results } = await createEnrollments(viewer, section, items);
    return { results, section: await readById('Section', select('section'), section) };
  },
});

payloadMutation('createGroupMemberships', {
  description:
    `Adds users to a group (its administrators) item by item, at most ${maxEnrollmentItems}, as createEnrollments ` +
    'writes a section: an item that cannot be written fails alone and each good item is committed. A member already ' +
    'has their administration changed to the item; one that already matches is answered as it is, unwritten.',
  input: createGroupMembershipsSchema,
  inputDescription: 'The group, and the members (their status, when given, must be ACTIVE).',
  types: { items: EnrollmentItemInput },
  payload: {
    results: { type: GroupMembershipResultType, list: true, description: 'One result per item, in the order sent.' },
    group: { model: 'Group', description: 'The group, with its member count as it now is.' },
  },
  resolve: async (viewer, { groupId, items }, select) => {
    const group = parseId(groupId, 'Group', 'groupId');
    const { results } = await createGroupMemberships(viewer, group, items);
    return { results, group: await readById('Group', select('group'), group) };
  },
});

/** The section an enrollment must be one of, when given (an enrollment of another section is not found). */
const sectionMember = {
  sectionId: objectIdMember(
    'The section; the enrollment must be one of its (an enrollment of another section is not found).',
  ).nullish(),
};
const sectionOf = (sectionId: string | null | undefined) =>
  sectionId == null ? null : parseId(sectionId, 'Section', 'sectionId');

payloadMutation('updateEnrollment', {
  description:
    "Changes an enrollment's status or section administration (the section's administrators). Moving it into or out " +
    'of INVITE_PENDING sends or withdraws the invite that settles it.',
  input: withMembers(updateEnrollmentSchema, { id: objectIdMember('The enrollment to change.'), ...sectionMember }),
  inputDescription: 'The enrollment, and changes to it; members left out keep their values.',
  types: statusType,
  payload: { enrollment: { model: 'Enrollment', description: 'The enrollment as changed.' } },
  resolve: async (viewer, { id, sectionId, ...changes }, select) => ({
    enrollment: await updateEnrollment(
      viewer,
      parseId(id, 'Enrollment'),
      sectionOf(sectionId),
      changes,
      select('enrollment'),
    ),
  }),
});
payloadMutation('deleteEnrollment', {
  description: "Removes a user from a section, with their pending invite to it (the section's administrators).",
  input: withMembers(z.strictObject({ id: objectIdMember('The enrollment to remove.') }), sectionMember),
  inputDescription: 'The enrollment to remove.',
  payload: {
    deletedEnrollmentId: { deleted: 'Enrollment', description: 'Global id of the removed enrollment.' },
    section: sectionPayload,
  },
  resolve: async (viewer, { id, sectionId }, select) => {
    const removed = await deleteEnrollment(viewer, parseId(id, 'Enrollment'), sectionOf(sectionId));
    return {
      deletedEnrollmentId: removed.id,
      section: await readById('Section', select('section'), removed.sectionId),
    };
  },
});
payloadMutation('deleteEnrollments', {
  description:
    `Removes enrollments of a section item by item, at most ${maxEnrollmentItems} (code 204 removed, 404 not an ` +
    'enrollment of the section); each removal is committed on its own.',
  input: deleteEnrollmentsSchema,
  inputDescription: 'The section, and the enrollments to remove.',
  payload: { results, section: sectionPayload },
  resolve: async (viewer, { sectionId, ids }, select) => {
    const section = parseId(sectionId, 'Section', 'sectionId');
    const { results } = await deleteEnrollments(viewer, section, ids);
    return { results, section: await readById('Section', select('section'), section) };
  },
});

const ParentLinkType = builder
  .objectRef<{ parentId: number; childId: number; linked: boolean }>('ParentLink')
  .implement({
    description: 'Whether a parent is now linked to their child.',
    fields: (t) => ({
      parentId: t.id({
        description: 'Global id of the parent; `parent` is the user.',
        resolve: (link) => encodeGlobalId('User', link.parentId),
      }),
      parent: t.field({
        type: UserType,
        nullable: true,
        description: 'The parent (`parentId`); null when the viewer may not see them.',
        resolve: (link, _args, context) => userReference(link.parentId, context),
      }),
      childId: t.id({
        description: 'Global id of the child; `child` is the user.',
        resolve: (link) => encodeGlobalId('User', link.childId),
      }),
      child: t.field({
        type: UserType,
        nullable: true,
        description: 'The child (`childId`); null when the viewer may not see them.',
        resolve: (link, _args, context) => userReference(link.childId, context),
      }),
      linked: t.exposeBoolean('linked', {
        description: "Whether the parent now reads the child's grades and attendance.",
      }),
    }),
  });

/** linkParent and unlinkParent: the link as it now is, and both users, whose lists of children and parents changed. */
const parentLinkPayload = {
  parentLink: { type: ParentLinkType, description: 'The link as it now is.' },
  parent: { model: 'User', description: 'The parent.' },
  child: { model: 'User', description: 'The child.' },
} as const;

/** Writes the link and reads both users with what the client selects of them. */
const writingParentLink =
  (linked: boolean) => async (viewer: Viewer, input: unknown, select: (member: 'parent' | 'child') => PrismaQuery) => {
    const parentLink = await setParentLink(viewer, input, linked);
    const [parent, child] = await Promise.all([
      readById<User>('User', select('parent'), parentLink.parentId),
      readById<User>('User', select('child'), parentLink.childId),
    ]);
    return { parentLink, parent, child };
  };

payloadMutation('linkParent', {
  description:
    "Links a parent to their child, so the parent reads the child's grades and attendance (the child's school's administrators).",
  input: parentLinkSchema,
  inputDescription: 'A parent and their child.',
  payload: parentLinkPayload,
  resolve: writingParentLink(true),
});
payloadMutation('unlinkParent', {
  description: "Removes a parent's link to their child.",
  input: parentLinkSchema,
  inputDescription: 'A parent and their child.',
  payload: parentLinkPayload,
  resolve: writingParentLink(false),
});
