import { type Verdict, definePolicy, forbid, verdictOf } from '../../auth/policy';
import type { Viewer } from '../../auth/viewer';
import { gradebookPolicy, gradebookReach, sectionWriter } from '../gradebook/gradebook.policy';

/**
 * Grades are part of a section's gradebook: those who keep the gradebook set them and read every enrollment's; its
 * students and their parents read their own part, one enrollment at a time, as the platform answers them.
 */
export const gradePolicy = definePolicy('Section', {
  /** A whole section's grades (`GET /sections/{id}/grades`): those who reach every enrollment. */
  readSection: async (viewer: Viewer, sectionId: number): Promise<Verdict> => {
    const reach = await gradebookReach(viewer, sectionId);
    if (reach === 'hide' || !('all' in reach)) return reach;
    return reach.all
      ? 'allow'
      : forbid("A section's grades are for its teachers and administrators; read a student's with users/{id}/grades");
  },
  /**
   * One student enrollment's grades (`GET /users/{id}/grades?section_id=`), null when the student is not enrolled: a
   * section must be named, as on the platform; then those whose reach holds the enrollment.
   */
  readEnrollment: async (
    viewer: Viewer,
    { sectionId, enrollmentId }: { sectionId: number | null; enrollmentId: number | null },
  ): Promise<Verdict> => {
    if (sectionId === null)
      return forbid("Name the section: a user's grades are read one section at a time (section_id)");
    const reach = await gradebookReach(viewer, sectionId);
    if (reach === 'hide' || enrollmentId === null) return 'hide';
    if (!('all' in reach)) return reach;
    return reach.all || reach.enrollmentIds.includes(enrollmentId)
      ? 'allow'
      : forbid("You may read only your own grades and your children's");
  },
  write: (viewer: Viewer, sectionId: number) => verdictOf(viewer, gradebookPolicy, 'write', sectionId),
});

/** The section's facts once the viewer may set its grades (see `sectionWriter`). */
export const gradeWriter = sectionWriter(gradePolicy);
