import { db } from '../db/database';
import type { Prisma } from '../generated/prisma/client';
import type { PrivacyLevel, RealmType } from '../generated/prisma/enums';
import { NotFoundError, forbidden } from '../core/errors';
import type { Viewer } from './viewer';

/** The owner of a realm-scoped resource: a district, school (or building), user, section or group. */
export interface RealmRef {
  type: RealmType;
  id: number;
}

/** Where a realm sits in the district, as far as permissions care. */
export interface RealmFacts {
  districtId: number;
  /** Top-level school; null for a district. */
  schoolId: number | null;
  buildingId: number | null;
  userId?: number;
  /** For a user realm: whether that user is a district administrator. */
  userIsDistrictAdmin?: boolean;
  sectionId?: number;
  group?: { id: number; privacyLevel: PrivacyLevel };
}

/**
 * What the viewer may do in a realm: `hidden` (its existence is private: 404), `visible` (known to exist, contents
 * closed: 403), `read`, or `administer` (create, change and delete what the realm owns).
 */
export type Access = 'hidden' | 'visible' | 'read' | 'administer';

const rank: Record<Access, number> = { hidden: 0, visible: 1, read: 2, administer: 3 };

/** Ids are 32-bit integers in the database: a larger one names nothing (and would make the query fail). */
export const isStorableId = (id: number) => Number.isSafeInteger(id) && id >= 0 && id <= 2_147_483_647;

/** Looks a row up by an id from input: an id the database cannot hold names nothing, so the answer is null. */
export async function findByStorableId<T>(id: number | string, lookup: (id: number) => Promise<T | null>): Promise<T | null> {
  const value = Number(id);
  return isStorableId(value) ? lookup(value) : null;
}

async function loadFacts(realm: RealmRef): Promise<RealmFacts | null> {
  if (!isStorableId(realm.id)) return null;
  const prisma = db();
  switch (realm.type) {
    case 'DISTRICT': {
      const district = await prisma.district.findUnique({ where: { id: realm.id }, select: { id: true } });
      return district && { districtId: district.id, schoolId: null, buildingId: null };
    }
    case 'SCHOOL': {
      const school = await prisma.school.findUnique({ where: { id: realm.id }, select: { districtId: true, parentId: true } });
      return (
        school && {
          districtId: school.districtId,
          schoolId: school.parentId ?? realm.id,
          buildingId: school.parentId ? realm.id : null,
        }
      );
    }
    case 'USER': {
      const user = await prisma.user.findUnique({
        where: { id: realm.id },
        select: { schoolId: true, buildingId: true, role: true, school: { select: { districtId: true } } },
      });
      return (
        user && {
          districtId: user.school.districtId,
          schoolId: user.schoolId,
          buildingId: user.buildingId,
          userId: realm.id,
          userIsDistrictAdmin: user.role === 'DISTRICT_ADMIN',
        }
      );
    }
    case 'SECTION': {
      const section = await prisma.section.findUnique({
        where: { id: realm.id },
        select: { course: { select: { schoolId: true, school: { select: { districtId: true } } } } },
      });
      return (
        section && {
          districtId: section.course.school.districtId,
          schoolId: section.course.schoolId,
          buildingId: null,
          sectionId: realm.id,
        }
      );
    }
    case 'GROUP': {
      const group = await prisma.group.findUnique({
        where: { id: realm.id },
        select: { schoolId: true, buildingId: true, privacyLevel: true, school: { select: { districtId: true } } },
      });
      return (
        group && {
          districtId: group.school.districtId,
          schoolId: group.schoolId,
          buildingId: group.buildingId,
          group: { id: realm.id, privacyLevel: group.privacyLevel },
        }
      );
    }
  }
}

async function decideAccess(viewer: Viewer, realm: RealmRef, facts: RealmFacts): Promise<Access> {
  const user = viewer.user;
  const sameDistrict = user.districtId === facts.districtId;
  const schoolAdmin = facts.schoolId !== null && viewer.isSchoolAdmin(facts.districtId, facts.schoolId);
  switch (realm.type) {
    case 'DISTRICT':
      return !sameDistrict ? 'hidden' : viewer.isDistrictAdmin(facts.districtId) ? 'administer' : 'read';
    case 'SCHOOL':
      return !sameDistrict ? 'hidden' : schoolAdmin ? 'administer' : 'read';
    case 'USER':
      if (!sameDistrict) return 'hidden';
      if (user.id === facts.userId || viewer.isDistrictAdmin(facts.districtId)) return 'administer';
      // A school administrator administers the school's users but not a district administrator who belongs to it:
      // acting in that user's realm (their credentials above all) would lend district powers.
      if (schoolAdmin && !facts.userIsDistrictAdmin) return 'administer';
      return user.schoolId === facts.schoolId ? 'read' : 'hidden';
    case 'SECTION': {
      if (!sameDistrict) return 'hidden';
      if (schoolAdmin) return 'administer';
      const enrollment = (await viewer.sectionEnrollments()).get(facts.sectionId!);
      if (enrollment !== undefined) return enrollment ? 'administer' : 'read';
      return user.schoolId === facts.schoolId ? 'visible' : 'hidden';
    }
    case 'GROUP': {
      // Groups of another district are hidden whatever their privacy level, as in visibleGroupsWhere.
      if (!sameDistrict) return 'hidden';
      const membership = (await viewer.groupMemberships()).get(facts.group!.id);
      if (schoolAdmin || membership === true) return 'administer';
      if (membership === false) return 'read';
      switch (facts.group!.privacyLevel) {
        case 'EVERYONE':
          return 'read';
        case 'SCHOOL':
          return user.schoolId === facts.schoolId ? 'read' : 'hidden';
        case 'BUILDING':
          return user.schoolId === facts.schoolId && (facts.buildingId === null || user.buildingId === facts.buildingId)
            ? 'read'
            : 'hidden';
        default:
          return 'hidden';
      }
    }
  }
}

/** The viewer's access to a realm, or null when the realm does not exist. Memoised per request. */
export function accessTo(viewer: Viewer, realm: RealmRef): Promise<{ access: Access; facts: RealmFacts } | null> {
  return viewer.memo(`realm:${realm.type}:${realm.id}`, async () => {
    const facts = await loadFacts(realm);
    return facts && { access: await decideAccess(viewer, realm, facts), facts };
  });
}

export async function canRead(viewer: Viewer, realm: RealmRef): Promise<boolean> {
  const result = await accessTo(viewer, realm);
  return result !== null && rank[result.access] >= rank.read;
}

const realmNames: Record<RealmType, string> = {
  DISTRICT: 'District',
  SCHOOL: 'School',
  USER: 'User',
  SECTION: 'Section',
  GROUP: 'Group',
};

/**
 * Guards a change or a read: a realm that does not exist or is hidden is a NotFoundError (404), one the viewer can see
 * but not use in this way a 403.
 */
export async function assertCan(viewer: Viewer, action: 'read' | 'administer', realm: RealmRef): Promise<RealmFacts> {
  const result = await accessTo(viewer, realm);
  if (!result || result.access === 'hidden') throw new NotFoundError(realmNames[realm.type], realm.id);
  if (rank[result.access] < rank[action]) throw forbidden(`You may not ${action === 'read' ? 'read' : 'change'} this ${realmNames[realm.type].toLowerCase()}`);
  return result.facts;
}

/** Staff create groups in their own school; district admins anywhere in their district. */
export function canCreateGroupIn(viewer: Viewer, districtId: number, schoolId: number): boolean {
  if (viewer.isSchoolAdmin(districtId, schoolId)) return true;
  return viewer.user.schoolId === schoolId && viewer.user.role === 'TEACHER';
}

/** The groups of the viewer's district the viewer may read: the SQL twin of the GROUP rules of decideAccess. */
export function visibleGroupsWhere(viewer: Viewer): Prisma.GroupWhereInput {
  const { user } = viewer;
  const inDistrict: Prisma.GroupWhereInput = { school: { districtId: user.districtId } };
  if (user.role === 'DISTRICT_ADMIN') return inDistrict;
  return {
    ...inDistrict,
    OR: [
      ...(user.role === 'SCHOOL_ADMIN' ? [{ schoolId: user.schoolId }] : []),
      { memberships: { some: { userId: user.id } } },
      { privacyLevel: 'EVERYONE' },
      { privacyLevel: 'SCHOOL', schoolId: user.schoolId },
      {
        privacyLevel: 'BUILDING',
        schoolId: user.schoolId,
        OR: [{ buildingId: null }, ...(user.buildingId ? [{ buildingId: user.buildingId }] : [])],
      },
    ],
  };
}

/**
 * Whether the viewer may read what a realm owns: false when the realm does not exist or is hidden (a 404 to the
 * client), a 403 when its existence is known but its contents are closed.
 */
export async function canReadContents(viewer: Viewer, realm: RealmRef): Promise<boolean> {
  const result = await accessTo(viewer, realm);
  if (!result || result.access === 'hidden') return false;
  if (result.access === 'visible') throw forbidden(`You may not read this ${realmNames[realm.type].toLowerCase()}`);
  return true;
}
