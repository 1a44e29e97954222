import { type Verdict, definePolicy, forbid, realmVerdict } from '../../auth/policy';
import { registerRealmKind } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { readById } from '../../graphql/reads-by-id';
import type { Prisma } from '../../generated/prisma/client';

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

/** Courses and their sections are managed by the administrators of their school (and of its district). */
export const coursePolicy = definePolicy('Course', {
  manage: (viewer: Viewer, schoolId: number) => realmVerdict(viewer, { type: 'SCHOOL', id: schoolId }, 'administer'),
  /** A bulk write is an administrator's: anyone else is refused whole rather than item by item. */
  bulk: (viewer: Viewer, _subject: null): Verdict =>
    administeredSchoolsWhere(viewer) ? 'allow' : forbid('Only school and district administrators manage courses'),
});

/** The schools whose sections the viewer administers: their district's for a district administrator, their own school's for a school administrator. */
function administeredSchoolsWhere({ user }: Viewer): Prisma.SchoolWhereInput | null {
  if (user.role === 'DISTRICT_ADMIN') return { districtId: user.districtId };
  if (user.role === 'SCHOOL_ADMIN') return { id: user.schoolId };
  return null;
}

/** The sections the viewer is an active member of (a teacher administers theirs, a student reads theirs). */
const enrolledIn = (viewer: Viewer): Prisma.SectionWhereInput => ({
  enrollments: { some: { userId: viewer.id, status: 'ACTIVE' } },
});

/**
 * The sections the viewer reads: the SQL twin of the SECTION realm's `read` rule (the sections of the schools they
 * administer, and those they are an active member of).
 */
export function readableSectionsWhere(viewer: Viewer): Prisma.SectionWhereInput {
  const schools = administeredSchoolsWhere(viewer);
  return schools ? { OR: [{ course: { school: schools } }, enrolledIn(viewer)] } : enrolledIn(viewer);
}

/** The courses of the schools the viewer administers, and those of the sections they are an active member of. */
export function readableCoursesWhere(viewer: Viewer): Prisma.CourseWhereInput {
  const schools = administeredSchoolsWhere(viewer);
  const taken = { sections: { some: enrolledIn(viewer) } };
  return schools ? { OR: [{ school: schools }, taken] } : taken;
}

/**
 * The enrollments of a user's roster the viewer reads, once they may read that roster (userPolicy `readRoster`): all of
 * their own and their children's (as gradebookReach reaches them), and others' in the sections the viewer reads.
 */
export function rosterEnrollmentsWhere(viewer: Viewer): Prisma.EnrollmentWhereInput {
  return {
    OR: [
      { userId: viewer.id },
      ...(viewer.user.role === 'PARENT' ? [{ user: { parents: { some: { parentId: viewer.id } } } }] : []),
      { section: readableSectionsWhere(viewer) },
    ],
  };
}
