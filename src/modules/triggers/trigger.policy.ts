import { definePolicy, forbid } from '../../auth/policy';
import type { Viewer, ViewerUser } from '../../auth/viewer';

const refusal = 'Only users with access to trigger administration manage trigger targets and subscriptions';

/**
 * Trigger administration (spec 5, rule 1) is a grant of its own (`triggerAdmin`, given by a district administrator),
 * for staff only: a trigger administrator manages every target of their school, so they can point any of them at a
 * receiver of their own and read what it is sent, which is what its owner may see. Students and parents are never
 * given it (createUser refuses), and one who holds it from before is refused like anyone without it.
 */
const administersTriggers = (user: ViewerUser) =>
  user.triggerAdmin && user.role !== 'STUDENT' && user.role !== 'PARENT';

/**
 * A target belongs to the school of the administrator who made it; another school's targets are not known to exist.
 */
export const triggerPolicy = definePolicy('TriggerTarget', {
  administer: (viewer: Viewer, _schoolId: number) => (administersTriggers(viewer.user) ? 'allow' : forbid(refusal)),
  manage: (viewer: Viewer, target: { schoolId: number } | null) => {
    if (!administersTriggers(viewer.user)) return forbid(refusal);
    return target?.schoolId === viewer.user.schoolId ? 'allow' : 'hide';
  },
});

/** The targets the viewer's trigger administration covers, once `administer` allows it: their school's (SQL twin of `manage`). */
export const managedTargetsWhere = (viewer: Viewer) => ({ schoolId: viewer.user.schoolId });
