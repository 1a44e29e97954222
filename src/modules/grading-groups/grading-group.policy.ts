import { definePolicy, realmVerdict } from '../../auth/policy';
import type { Viewer } from '../../auth/viewer';

const section = (id: number) => ({ type: 'SECTION' as const, id });

/** Grading groups are the section's teachers' tool: its administrators read and keep them. */
export const gradingGroupPolicy = definePolicy('GradingGroup', {
  read: (viewer: Viewer, sectionId: number) => realmVerdict(viewer, section(sectionId), 'administer'),
  write: (viewer: Viewer, sectionId: number) => realmVerdict(viewer, section(sectionId), 'administer'),
});
