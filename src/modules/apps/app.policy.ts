import { definePolicy, forbid } from '../../auth/policy';
import type { Viewer } from '../../auth/viewer';

/**
 * Apps belong to a district and are registered and managed by its administrators. Other users of the district are
 * refused (they know the district); anyone else does not learn that the app exists.
 */
export const appPolicy = definePolicy('App', {
  manage: (viewer: Viewer, districtId: number) => {
    if (viewer.isDistrictAdmin(districtId)) return 'allow';
    return viewer.user.districtId === districtId ? forbid('Only district administrators manage apps') : 'hide';
  },
});

/** The apps the viewer lists: their district's, for a district administrator; none for anyone else. */
export const managedAppsWhere = (viewer: Viewer) =>
  viewer.user.role === 'DISTRICT_ADMIN' ? { districtId: viewer.user.districtId } : null;
