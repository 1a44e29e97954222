import { type Verdict, definePolicy, forbid, realmVerdict } from '../../auth/policy';
import { type RealmFacts, placementOf, placementSelection, registerRealmKind } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { readById } from '../../graphql/reads-by-id';
import { type MaybePromise, thenMaybe } from '../../auth/maybe-promise';
import { db } from '../../db/database';
import type { Prisma } from '../../generated/prisma/client';
import type { Role } from '../../generated/prisma/enums';

/** What the access rule reads of a user row; fields that show per-user permissions select it too. */
export const userFactsSelection = {
  ...placementSelection,
  role: true,
  deactivatedAt: true,
} satisfies Prisma.UserSelect;

export const userFacts = (user: Prisma.UserGetPayload<{ select: typeof userFactsSelection }>): RealmFacts => ({
  userId: user.id,
  userIsDistrictAdmin: user.role === 'DISTRICT_ADMIN',
  userIsInactive: user.deactivatedAt !== null,
  ...placementOf(user),
});

registerRealmKind({
  type: 'USER',
  noun: 'user',
  load: async (id) => {
    const user = await readById<Prisma.UserGetPayload<{ select: typeof userFactsSelection }>>(
      'User',
      { select: userFactsSelection },
      id,
    );
    return user && userFacts(user);
  },
  viewersOwn: ({ user }, id) =>
    id === user.id
      ? userFacts({
          id,
          role: user.role,
          // The viewer is signed in, so their account is active (an inactive user's credentials are refused).
          deactivatedAt: null,
          schoolId: user.schoolId,
          buildingId: user.buildingId,
          school: { districtId: user.districtId },
        })
      : null,
  access: (viewer, facts) => {
    if (viewer.user.districtId !== facts.districtId) return 'hidden';
    if (viewer.id === facts.userId || viewer.isDistrictAdmin(facts.districtId)) return 'administer';
    // A school administrator administers the school's users but not a district administrator who belongs to it:
    // acting in that user's realm (their credentials above all) would lend district powers.
    if (viewer.isSchoolAdmin(facts.districtId, facts.schoolId!) && !facts.userIsDistrictAdmin) return 'administer';
    // An inactive account is archived, as on the platform: only those who could reactivate it still see it.
    if (facts.userIsInactive) return 'hidden';
    return viewer.user.schoolId === facts.schoolId ? 'read' : 'hidden';
  },
});

/**
 * The users the viewer may read: the SQL twin of the USER realm's `read` rule (their own school's users; every user of
 * the district for a district administrator). Lists of people filter with it so they show no one `user(id)` hides.
 */
export function readableUsersWhere(viewer: Viewer | null): Prisma.UserWhereInput {
  // Lists are only reached through fields that need a viewer; without one nobody is readable.
  if (!viewer) return { id: { in: [] } };
  const { user } = viewer;
  // Inactive users are left out of every list of people (rosters, members, `users`), as the platform's are: their
  // administrators list them apart (inactiveUsersWhere).
  if (user.role === 'DISTRICT_ADMIN') return { school: { districtId: user.districtId }, deactivatedAt: null };
  return { schoolId: user.schoolId, deactivatedAt: null };
}

/**
 * The inactive users the viewer administers, as the USER realm's rule has it (a school's administrators those of
 * their school but its district administrators; a district's every one of the district); null for anyone else.
 */
export function inactiveUsersWhere(viewer: Viewer | null): Prisma.UserWhereInput | null {
  const user = viewer?.user;
  if (user?.role === 'DISTRICT_ADMIN') return { school: { districtId: user.districtId }, deactivatedAt: { not: null } };
  if (user?.role === 'SCHOOL_ADMIN')
    return { schoolId: user.schoolId, role: { not: 'DISTRICT_ADMIN' }, deactivatedAt: { not: null } };
  return null;
}

/** The users `user(id)` shows the viewer: those readableUsersWhere lists, and the inactive ones they administer. */
export function visibleUsersWhere(viewer: Viewer | null): Prisma.UserWhereInput {
  const inactive = inactiveUsersWhere(viewer);
  return inactive ? { OR: [readableUsersWhere(viewer), inactive] } : readableUsersWhere(viewer);
}

const user = (id: number) => ({ type: 'USER' as const, id });

/** The ids of the viewer's linked children, read once a request; none for anyone but a parent (only parents are linked). */
export function childrenOf(viewer: Viewer): MaybePromise<ReadonlySet<number>> {
  if (viewer.user.role !== 'PARENT') return new Set();
  return viewer.memo('children', async () => {
    const links = await db().parentLink.findMany({ where: { parentId: viewer.id }, select: { childId: true } });
    return new Set(links.map((link) => link.childId));
  });
}

/**
 * A user's account is managed by whoever administers them as an administrator: their school's administrators (a
 * district administrator excepted) and their district's. The user themself may not change it (their name, role and
 * school user id come from the school's records), and nobody deletes themself.
 */
function manages(viewer: Viewer, id: number, action: 'change' | 'delete'): MaybePromise<Verdict> {
  return thenMaybe(realmVerdict(viewer, user(id), 'administer'), (verdict) => {
    if (verdict !== 'allow') return verdict;
    if (viewer.user.role !== 'DISTRICT_ADMIN' && viewer.user.role !== 'SCHOOL_ADMIN')
      return forbid('Only administrators change users');
    if (action === 'delete' && viewer.id === id) return forbid('You may not delete yourself');
    return verdict;
  });
}

/** What a change would make of a user: powers beyond a school are granted by district administrators only. */
export interface UserChange {
  id: number;
  role?: Role;
  triggerAdmin?: boolean;
}

export const userPolicy = definePolicy('User', {
  /** Users are visible within their school, and to their district's administrators. */
  read: (viewer: Viewer, id: number) => realmVerdict(viewer, user(id), 'read'),
  /** The e-mail address is for the user and whoever administers them. */
  readEmail: (viewer: Viewer, id: number) => realmVerdict(viewer, user(id), 'administer'),
  /**
   * A user's roster (their sections, enrollments, groups and children) is for the user, whoever administers them, and
   * their parents, who read their grades and attendance (see gradebookReach).
   */
  readRoster: (viewer: Viewer, id: number): MaybePromise<Verdict> =>
    thenMaybe(realmVerdict(viewer, user(id), 'administer'), (verdict) =>
      verdict === 'allow'
        ? verdict
        : thenMaybe(childrenOf(viewer), (children) => (children.has(id) ? 'allow' : verdict)),
    ),
  /**
   * School administrators create the school's users. Powers beyond a school are granted by district administrators
   * only: another district administrator, and trigger administration (webhook triggers).
   */
  create: async (viewer: Viewer, subject: { schoolId: number; role: Role; triggerAdmin: boolean }) => {
    const verdict = await realmVerdict(viewer, { type: 'SCHOOL', id: subject.schoolId }, 'administer');
    if (verdict !== 'allow' || viewer.user.role === 'DISTRICT_ADMIN') return verdict;
    if (subject.role === 'DISTRICT_ADMIN') return forbid('Only district administrators create district administrators');
    if (subject.triggerAdmin) return forbid('Only district administrators grant trigger administration');
    return verdict;
  },
  /**
   * Writing users at all is for administrators: a bulk write by anyone else is refused whole (403), before its items
   * are judged one by one by `create`, `update` and `delete`.
   */
  manage: (viewer: Viewer, _subject: null): Verdict =>
    viewer.user.role === 'DISTRICT_ADMIN' || viewer.user.role === 'SCHOOL_ADMIN'
      ? 'allow'
      : forbid('Only administrators create, change or delete users'),
  /** Changing a user is for their administrators; powers beyond a school are granted by district administrators. */
  update: (viewer: Viewer, change: UserChange): MaybePromise<Verdict> =>
    thenMaybe(manages(viewer, change.id, 'change'), (verdict) => {
      if (verdict !== 'allow' || viewer.user.role === 'DISTRICT_ADMIN') return verdict;
      if (change.role === 'DISTRICT_ADMIN')
        return forbid('Only district administrators create district administrators');
      if (change.triggerAdmin) return forbid('Only district administrators grant trigger administration');
      return verdict;
    }),
  /** Deleting a user is for their administrators, never for the user themself. */
  delete: (viewer: Viewer, id: number) => manages(viewer, id, 'delete'),
});

/**
 * What is addressed to one user (their invites and friend requests) is theirs: they read and answer it, and their
 * district's administrators may read it. Anyone else who can see the user is refused; a user they cannot see is hidden.
 */
export async function addressedTo(viewer: Viewer, userId: number, districtAdminsMay: boolean): Promise<Verdict> {
  if (viewer.id === userId) return 'allow';
  const verdict = await realmVerdict(viewer, user(userId), 'read');
  if (verdict !== 'allow') return verdict;
  if (districtAdminsMay && viewer.user.role === 'DISTRICT_ADMIN') return 'allow';
  return forbid('Only the user it is addressed to may do this');
}
