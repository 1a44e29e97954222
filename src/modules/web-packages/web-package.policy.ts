import { definePolicy, realmVerdict } from '../../auth/policy';
import type { RealmRef } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';

export const webPackagePolicy = definePolicy('WebPackage', {
  /** The section's readers (its teachers, enrolled students, administrators) see and open its packages. */
  read: (viewer: Viewer, section: RealmRef) => realmVerdict(viewer, section, 'read'),
  /** Packages are added and removed by the section's administrators. */
  write: (viewer: Viewer, section: RealmRef) => realmVerdict(viewer, section, 'administer'),
});
