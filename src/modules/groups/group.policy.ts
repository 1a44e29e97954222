import { type Verdict, can, definePolicy, forbid, realmVerdict } from '../../auth/policy';
import {
  type Access,
  type RealmFacts,
  type RealmRef,
  accessTo,
  placementOf,
  placementSelection,
  registerRealmKind,
} from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { db } from '../../db/database';
import { readById } from '../../graphql/reads-by-id';
import type { Prisma } from '../../generated/prisma/client';

/** What the access rule reads of a group row; fields that show per-group permissions select it too. */
export const groupFactsSelection = { ...placementSelection, privacyLevel: true } satisfies Prisma.GroupSelect;

export const groupFacts = (group: Prisma.GroupGetPayload<{ select: typeof groupFactsSelection }>): RealmFacts => ({
  group: { id: group.id, privacyLevel: group.privacyLevel },
  ...placementOf(group),
});

/** Whether the viewer administers every group of a school by rank (its or its district's administrators). */
const administersByRank = (viewer: Viewer, districtId: number, schoolId: number) =>
  viewer.isSchoolAdmin(districtId, schoolId);

registerRealmKind({
  type: 'GROUP',
  noun: 'group',
  load: async (id) => {
    const group = await readById<Prisma.GroupGetPayload<{ select: typeof groupFactsSelection }>>(
      'Group',
      { select: groupFactsSelection },
      id,
    );
    return group && groupFacts(group);
  },
  access: (viewer, facts) => {
    // Groups of another district are hidden whatever their privacy level, as in readableGroupsWhere.
    if (viewer.user.districtId !== facts.districtId) return 'hidden';
    // Administrators are answered before the viewer's memberships are loaded, and without a promise: a list they
    // read costs no statement more, and its rows' permission fields resolve synchronously.
    if (administersByRank(viewer, facts.districtId, facts.schoolId!)) return 'administer';
    return accessByMembership(viewer, facts);
  },
});

/**
 * Loads, before a write, what the access rule reads to answer for a group of the school, so that nothing after the
 * commit can fail: the viewer's memberships, unless their rank answers (an administrator who created thousands of
 * groups would read every membership on each create).
 */
export async function prepareGroupAccess(viewer: Viewer, districtId: number, schoolId: number): Promise<void> {
  if (!administersByRank(viewer, districtId, schoolId)) await viewer.groupMemberships();
}

/** A viewer who administers no group by rank: access by their membership, else by the group's privacy level. */
async function accessByMembership(viewer: Viewer, facts: RealmFacts): Promise<Access> {
  const membership = (await viewer.groupMemberships()).get(facts.group!.id);
  if (membership === true) return 'administer';
  if (membership === false) return 'read';
  const { user } = viewer;
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

/**
 * Whether the viewer reads every group of their district: `readableGroupsWhere` is then the district alone, and the
 * schools' group counts (school_group_counts) answer how many groups the viewer reads.
 */
export const readsEveryGroupOfDistrict = (viewer: Viewer) => viewer.user.role === 'DISTRICT_ADMIN';

/** The groups of the viewer's district the viewer may read: the SQL twin of the GROUP realm's access rule. */
export function readableGroupsWhere(viewer: Viewer): Prisma.GroupWhereInput {
  const { user } = viewer;
  const inDistrict: Prisma.GroupWhereInput = { school: { districtId: user.districtId } };
  if (readsEveryGroupOfDistrict(viewer)) return inDistrict;
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

const group = (id: number) => ({ type: 'GROUP' as const, id });

/** A member's right that a group option grants: administrators always have it, other members when the option is on. */
async function memberOption(viewer: Viewer, id: number, option: 'memberPost' | 'memberPostComment', refusal: string) {
  const verdict = await realmVerdict(viewer, group(id), 'read');
  if (verdict !== 'allow') return verdict;
  // Group administrators (members with `admin`) are among those the access rule answers `administer`.
  if ((await accessTo(viewer, group(id)))?.access === 'administer') return 'allow';
  const membership = (await viewer.groupMemberships()).get(id);
  if (membership === undefined) return forbid(refusal);
  const options = await viewer.memo(`group-options:${id}`, () =>
    db().group.findUnique({ where: { id }, select: { memberPost: true, memberPostComment: true } }),
  );
  return options?.[option] ? 'allow' : forbid(refusal);
}

export const groupPolicy = definePolicy('Group', {
  read: (viewer: Viewer, id: number) => realmVerdict(viewer, group(id), 'read'),
  /** Staff create groups in their own school; school and district administrators in the schools they administer. */
  create: async (viewer: Viewer, schoolId: number) => {
    const verdict = await realmVerdict(viewer, { type: 'SCHOOL', id: schoolId }, 'read');
    if (verdict !== 'allow') return verdict;
    const school = (await accessTo(viewer, { type: 'SCHOOL', id: schoolId }))!;
    const staff =
      school.access === 'administer' ||
      (viewer.user.schoolId === school.facts.schoolId && viewer.user.role === 'TEACHER');
    return staff ? 'allow' : forbid('Only staff of the school create groups in it');
  },
  update: (viewer: Viewer, id: number) => realmVerdict(viewer, group(id), 'administer'),
  delete: (viewer: Viewer, id: number) => realmVerdict(viewer, group(id), 'administer'),
  /** Adding and removing members, and seeing the access code. */
  administer: (viewer: Viewer, id: number) => realmVerdict(viewer, group(id), 'administer'),
  /** Posting in the group (options/member_post). */
  post: (viewer: Viewer, id: number) => memberOption(viewer, id, 'memberPost', 'Members may not post in this group'),
  /** Commenting on what is posted in the group (options/member_post_comment). */
  comment: (viewer: Viewer, id: number) =>
    memberOption(viewer, id, 'memberPostComment', 'Members may not comment in this group'),
  /** A district's group categories are known to its users. */
  readCategories: (viewer: Viewer, districtId: number) => (districtId === viewer.user.districtId ? 'allow' : 'hide'),
  createCategory: (viewer: Viewer, districtId: number) =>
    viewer.isDistrictAdmin(districtId) ? 'allow' : forbid('Only district administrators create group categories'),
});

/** The group categories the viewer reads: the SQL twin of `readCategories`. */
export const readableCategoriesWhere = (viewer: Viewer) =>
  ({ districtId: viewer.user.districtId }) satisfies Prisma.GroupCategoryWhereInput;

/**
 * Who writes what a realm owns (posts, calendar events): its administrators; in a group, also the members when the
 * group lets members post (options/member_post), each member changing only their own.
 */
export async function mayWriteRealmContent(viewer: Viewer, realm: RealmRef, ownContent: boolean): Promise<Verdict> {
  const verdict = await realmVerdict(viewer, realm, 'administer');
  if (verdict === 'allow' || verdict === 'hide' || realm.type !== 'GROUP' || !ownContent) return verdict;
  return (await can(viewer, groupPolicy, 'post', realm.id)) ? 'allow' : verdict;
}
