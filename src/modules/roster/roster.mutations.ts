import type { Viewer } from '../../auth/viewer';
import type { User } from '../../generated/prisma/client';
import { builder } from '../../graphql/builder';
import { userReference } from '../../graphql/references';
import { UserType } from '../users/user.type';
import type { PrismaQuery } from '../../graphql/operations';
import { encodeGlobalId } from '../../core/global-id';
import { payloadMutation } from '../../graphql/payloads';
import { readById } from '../../graphql/reads-by-id';
import { createEnrollment, createSection, setParentLink } from './roster.service';
import { EnrollmentStatusEnum } from './roster.type';
import { createEnrollmentSchema, createSectionSchema, parentLinkSchema } from './roster.validation';

payloadMutation('createSection', {
  description: 'Creates a course section (school and district administrators).',
  input: createSectionSchema,
  inputDescription: 'A new course section; the course is created when its code is new to the school.',
  payload: { section: { model: 'Section', description: 'The new section.' } },
  resolve: async (viewer, input, select) => ({ section: await createSection(viewer, input, select('section')) }),
});
payloadMutation('createEnrollment', {
  description: 'Enrolls a user in a section (its administrators).',
  input: createEnrollmentSchema,
  inputDescription: 'A user to enroll in a section.',
  types: { status: EnrollmentStatusEnum },
  payload: {
    enrollment: { model: 'Enrollment', description: 'The new enrollment.' },
    section: { model: 'Section', description: 'The section, with its enrollments as they now are.' },
  },
  resolve: async (viewer, input, select) => {
    const enrollment = await createEnrollment(viewer, input, select('enrollment'));
    return { enrollment, section: await readById('Section', select('section'), enrollment.sectionId) };
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
