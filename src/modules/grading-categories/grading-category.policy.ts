import { allowsReading, definePolicy, verdictOf } from '../../auth/policy';
import type { Viewer } from '../../auth/viewer';
import { gradebookPolicy, sectionWriter } from '../gradebook/gradebook.policy';

/** A section's grading categories are part of its gradebook: whoever reads the gradebook reads them, its keepers keep them. */
export const gradingCategoryPolicy = definePolicy('GradingCategory', {
  read: (viewer: Viewer, sectionId: number) => verdictOf(viewer, gradebookPolicy, 'read', sectionId),
  write: (viewer: Viewer, sectionId: number) => verdictOf(viewer, gradebookPolicy, 'write', sectionId),
});

/** The section's facts once the viewer may keep its categories (see `sectionWriter`). */
export const categoryWriter = sectionWriter(gradingCategoryPolicy);

/**
 * Whether the viewer reads the section's categories: false when the section does not exist or is hidden; a 403 when it
 * is known but its gradebook is closed to the viewer.
 */
export const readsCategories = async (viewer: Viewer, sectionId: number): Promise<boolean> =>
  allowsReading(await verdictOf(viewer, gradingCategoryPolicy, 'read', sectionId));
