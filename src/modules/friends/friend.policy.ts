import { definePolicy, realmVerdict } from '../../auth/policy';
import type { Viewer } from '../../auth/viewer';
import { addressedTo } from '../users/user.policy';

export const friendRequestPolicy = definePolicy('FriendRequest', {
  /** A user's pending requests: theirs, and readable by their district's administrators. */
  read: (viewer: Viewer, userId: number) => addressedTo(viewer, userId, true),
  /** Only the user asked accepts or denies. */
  answer: (viewer: Viewer, userId: number) => addressedTo(viewer, userId, false),
  /** Anyone may ask a user they can see. */
  send: (viewer: Viewer, userId: number) => realmVerdict(viewer, { type: 'USER', id: userId }, 'read'),
});
