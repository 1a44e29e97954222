import { definePolicy, verdictOf } from '../../auth/policy';
import type { Viewer } from '../../auth/viewer';
import { type GradebookReach, gradebookPolicy, readableReach, sectionWriter } from '../gradebook/gradebook.policy';

/**
 * Attendance is part of a section's gradebook: those who keep the gradebook take it; those who read the gradebook read
 * the attendance of the enrollments within their reach (every one, a student's own, a parent's children's).
 */
export const attendancePolicy = definePolicy('Section', {
  write: (viewer: Viewer, sectionId: number) => verdictOf(viewer, gradebookPolicy, 'write', sectionId),
});

/** The section's facts once the viewer may take its attendance (see `sectionWriter`). */
export const attendanceTaker = sectionWriter(attendancePolicy);

/** The viewer's reach in a section's attendance; null when the section is hidden, a 403 when it is closed to them. */
export const attendanceReach: (viewer: Viewer, sectionId: number) => Promise<GradebookReach | null> = readableReach;

/** The enrollments whose records the reach reads: null for every one. */
export const readableEnrollments = (reach: GradebookReach): number[] | null => (reach.all ? null : reach.enrollmentIds);

/** Whether the reach reads the records of an enrollment. */
export const readsEnrollment = (reach: GradebookReach, enrollmentId: number) =>
  reach.all || reach.enrollmentIds.includes(enrollmentId);
