import { definePolicy, realmVerdict } from '../../auth/policy';
import type { Viewer } from '../../auth/viewer';

const district = (id: number) => ({ type: 'DISTRICT' as const, id });

export const districtPolicy = definePolicy('District', {
  /** Everyone in a district knows it; other districts are hidden. */
  read: (viewer: Viewer, id: number) => realmVerdict(viewer, district(id), 'read'),
  update: (viewer: Viewer, id: number) => realmVerdict(viewer, district(id), 'administer'),
});
