import { definePolicy, realmVerdict } from '../../auth/policy';
import { registerRealmKind } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { readById } from '../../graphql/reads-by-id';

// Sections are known to their school; their contents to their enrolled users (teachers administer) and administrators.
registerRealmKind({
  type: 'SECTION',
  noun: 'section',
  load: async (id) => {
    const section = await readById<{ course: { schoolId: number; school: { districtId: number } } }>(
      'Section',
      { select: { course: { select: { schoolId: true, school: { select: { districtId: true } } } } } },
      id,
    );
    return (
      section && {
        districtId: section.course.school.districtId,
        schoolId: section.course.schoolId,
        buildingId: null,
        sectionId: id,
      }
    );
  },
  access: async (viewer, facts) => {
    if (viewer.user.districtId !== facts.districtId) return 'hidden';
    if (viewer.isSchoolAdmin(facts.districtId, facts.schoolId!)) return 'administer';
    const enrollment = (await viewer.sectionEnrollments()).get(facts.sectionId!);
    if (enrollment !== undefined) return enrollment ? 'administer' : 'read';
    return viewer.user.schoolId === facts.schoolId ? 'visible' : 'hidden';
  },
});

const section = (id: number) => ({ type: 'SECTION' as const, id });

export const sectionPolicy = definePolicy('Section', {
  read: (viewer: Viewer, id: number) => realmVerdict(viewer, section(id), 'read'),
  /** Sections are created by the administrators of their school. */
  create: (viewer: Viewer, schoolId: number) => realmVerdict(viewer, { type: 'SCHOOL', id: schoolId }, 'administer'),
  enroll: (viewer: Viewer, id: number) => realmVerdict(viewer, section(id), 'administer'),
});
