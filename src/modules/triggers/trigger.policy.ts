import { definePolicy, forbid } from '../../auth/policy';
import type { Viewer } from '../../auth/viewer';

const refusal = 'Only users with access to trigger administration manage trigger targets and subscriptions';

/**
 * Trigger administration (spec 5, rule 1) is a grant of its own (`triggerAdmin`), not a role: a district
 * administrator gives it. A target belongs to the school of the administrator who made it; another school's targets
 * are not known to exist.
 */
export const triggerPolicy = definePolicy('TriggerTarget', {
  administer: (viewer: Viewer, _schoolId: number) => (viewer.user.triggerAdmin ? 'allow' : forbid(refusal)),
  manage: (viewer: Viewer, target: { schoolId: number } | null) => {
    if (!viewer.user.triggerAdmin) return forbid(refusal);
    return target?.schoolId === viewer.user.schoolId ? 'allow' : 'hide';
  },
});
