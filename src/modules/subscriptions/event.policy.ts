import { definePolicy, realmVerdict } from '../../auth/policy';
import type { RealmRef } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';

export const eventPolicy = definePolicy('Realm', {
  /** Following a realm's changes reveals what it holds, so it takes the right to read its contents. */
  subscribe: (viewer: Viewer, realm: RealmRef) => realmVerdict(viewer, realm, 'read'),
});
