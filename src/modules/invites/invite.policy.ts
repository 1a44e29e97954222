import { definePolicy, realmVerdict } from '../../auth/policy';
import type { RealmRef } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { addressedTo } from '../users/user.policy';

export const invitePolicy = definePolicy('Invite', {
  /** A user's pending invites: theirs, and readable by their district's administrators. */
  read: (viewer: Viewer, userId: number) => addressedTo(viewer, userId, true),
  /** Only the invited user accepts or denies. */
  answer: (viewer: Viewer, userId: number) => addressedTo(viewer, userId, false),
  /** The administrators of a group or section (its teachers, for a section) invite people to join it. */
  create: (viewer: Viewer, realm: RealmRef) => realmVerdict(viewer, realm, 'administer'),
});
