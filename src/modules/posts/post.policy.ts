import { definePolicy, realmVerdict } from '../../auth/policy';
import type { RealmRef } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { mayWriteRealmContent } from '../groups/group.policy';

type Post = { realm: RealmRef; authorId: number | null };

export const postPolicy = definePolicy('BlogPost', {
  /** Readers of a realm read its posts; a realm whose contents are closed to the viewer is a 403. */
  read: (viewer: Viewer, realm: RealmRef) => realmVerdict(viewer, realm, 'read'),
  create: (viewer: Viewer, realm: RealmRef) => mayWriteRealmContent(viewer, realm, true),
  update: (viewer: Viewer, post: Post) => mayWriteRealmContent(viewer, post.realm, post.authorId === viewer.id),
  delete: (viewer: Viewer, post: Post) => mayWriteRealmContent(viewer, post.realm, post.authorId === viewer.id),
});
