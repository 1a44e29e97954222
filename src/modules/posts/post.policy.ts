import { type Verdict, can, definePolicy, realmVerdict } from '../../auth/policy';
import type { RealmRef } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { groupPolicy } from '../groups/group.policy';

/**
 * Who writes a realm's posts: its administrators; in a group, also the members when the group lets members post
 * (options/member_post), each member changing only their own posts.
 */
async function mayWrite(viewer: Viewer, realm: RealmRef, ownPost: boolean): Promise<Verdict> {
  const verdict = await realmVerdict(viewer, realm, 'administer');
  if (verdict === 'allow' || verdict === 'hide' || realm.type !== 'GROUP' || !ownPost) return verdict;
  return (await can(viewer, groupPolicy, 'post', realm.id)) ? 'allow' : verdict;
}

type Post = { realm: RealmRef; authorId: number | null };

export const postPolicy = definePolicy('BlogPost', {
  /** Readers of a realm read its posts; a realm whose contents are closed to the viewer is a 403. */
  read: (viewer: Viewer, realm: RealmRef) => realmVerdict(viewer, realm, 'read'),
  create: (viewer: Viewer, realm: RealmRef) => mayWrite(viewer, realm, true),
  update: (viewer: Viewer, post: Post) => mayWrite(viewer, post.realm, post.authorId === viewer.id),
  delete: (viewer: Viewer, post: Post) => mayWrite(viewer, post.realm, post.authorId === viewer.id),
});
