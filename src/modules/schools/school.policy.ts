import { definePolicy, forbid, realmVerdict } from '../../auth/policy';
import { type RealmFacts, accessTo, registerRealmKind } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import type { Prisma } from '../../generated/prisma/client';
import { readById } from '../../graphql/reads-by-id';
import { type SchoolFactsRow, schoolFactsById, schoolFactsSelection } from './school.sql';

registerRealmKind({
  type: 'DISTRICT',
  noun: 'district',
  load: async (id) => {
    const district = await readById<{ id: number }>('District', { select: { id: true } }, id);
    return district && { districtId: district.id, schoolId: null, buildingId: null };
  },
  viewersOwn: ({ user }, id) => (id === user.districtId ? { districtId: id, schoolId: null, buildingId: null } : null),
  access: (viewer, facts) =>
    viewer.user.districtId !== facts.districtId
      ? 'hidden'
      : viewer.isDistrictAdmin(facts.districtId)
        ? 'administer'
        : 'read',
});

/** A school's or a building's place: a building's school is its parent. */
const schoolFacts = ({ id, districtId, parentId }: SchoolFactsRow): RealmFacts => ({
  districtId,
  schoolId: parentId ?? id,
  buildingId: parentId === null ? null : id,
});

// Schools are known district-wide; their administrators are the school's and the district's.
registerRealmKind({
  type: 'SCHOOL',
  noun: 'school',
  load: async (id) => {
    const school = await readById<SchoolFactsRow>('School', schoolFactsSelection, id, schoolFactsById);
    return school && schoolFacts(school);
  },
  // A user's school is a top-level school, and their building one of its buildings (user.service.ts checks both).
  viewersOwn: ({ user }, id) =>
    id === user.schoolId
      ? schoolFacts({ id, districtId: user.districtId, parentId: null })
      : id === user.buildingId
        ? schoolFacts({ id, districtId: user.districtId, parentId: user.schoolId })
        : null,
  access: (viewer, facts) =>
    viewer.user.districtId !== facts.districtId
      ? 'hidden'
      : viewer.isSchoolAdmin(facts.districtId, facts.schoolId!)
        ? 'administer'
        : 'read',
});

const school = (id: number) => ({ type: 'SCHOOL' as const, id });

export const schoolPolicy = definePolicy('School', {
  read: (viewer: Viewer, id: number) => realmVerdict(viewer, school(id), 'read'),
  create: (viewer: Viewer, districtId: number) =>
    viewer.isDistrictAdmin(districtId) ? 'allow' : forbid('Only district administrators create schools'),
  createBuilding: (viewer: Viewer, parentId: number) => realmVerdict(viewer, school(parentId), 'administer'),
  update: (viewer: Viewer, id: number) => realmVerdict(viewer, school(id), 'administer'),
  /** A school goes with everything in it, so only its district's administrators delete it; buildings, its own too. */
  delete: async (viewer: Viewer, id: number) => {
    const verdict = await realmVerdict(viewer, school(id), 'administer');
    if (verdict !== 'allow') return verdict;
    const { facts } = (await accessTo(viewer, school(id)))!;
    if (facts.buildingId !== null) return verdict;
    return viewer.isDistrictAdmin(facts.districtId) ? 'allow' : forbid('Only district administrators delete schools');
  },
});

/** The schools and buildings the viewer reads: those of their district (the SQL twin of the SCHOOL realm's access rule). */
export const readableSchoolsWhere = (viewer: Viewer) =>
  ({ districtId: viewer.user.districtId }) satisfies Prisma.SchoolWhereInput;
