import { can, definePolicy, realmVerdict } from '../../auth/policy';
import type { RealmRef } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import type { Prisma } from '../../generated/prisma/client';

export const pagePolicy = definePolicy('Page', {
  /** Readers of a realm read its pages (those published and assigned to them); a closed realm is a 403. */
  read: (viewer: Viewer, realm: RealmRef) => realmVerdict(viewer, realm, 'read'),
  /** Pages are written by the realm's administrators: a section's teachers, a group's administrators. */
  write: (viewer: Viewer, realm: RealmRef) => realmVerdict(viewer, realm, 'administer'),
});

/** What of a page says whether someone who does not administer its realm sees it. */
export interface PageAudience {
  published: boolean;
  _count: { assignees: number; gradingGroups: number };
  /** The viewer's own assignments: directly, or through a grading group. */
  assignees: unknown[];
  gradingGroups: unknown[];
}

const theirs = (userId: number) => ({ enrollment: { userId } });

/** The selection of a page's audience for one viewer: counts, and the viewer's own assignments. */
export const audienceSelection = (userId: number) =>
  ({
    published: true,
    _count: { select: { assignees: true, gradingGroups: true } },
    assignees: { where: theirs(userId), select: { enrollmentId: true } },
    gradingGroups: { where: { gradingGroup: { members: { some: theirs(userId) } } }, select: { gradingGroupId: true } },
  }) satisfies Prisma.PageSelect;

/**
 * A realm's administrators see all of its pages. Anyone else sees published pages that are assigned to everyone (no
 * assignees, no grading groups) or to them, individually or through a grading group they are in.
 */
export function isShownTo(page: PageAudience, administers: boolean): boolean {
  if (administers) return true;
  const forEveryone = page._count.assignees === 0 && page._count.gradingGroups === 0;
  return page.published && (forEveryone || page.assignees.length > 0 || page.gradingGroups.length > 0);
}

/** The SQL twin of `isShownTo`, for lists and lookups. */
export async function shownPagesWhere(viewer: Viewer, realm: RealmRef): Promise<Prisma.PageWhereInput> {
  if (await can(viewer, pagePolicy, 'write', realm)) return {};
  return {
    published: true,
    OR: [
      { assignees: { none: {} }, gradingGroups: { none: {} } },
      { assignees: { some: theirs(viewer.id) } },
      { gradingGroups: { some: { gradingGroup: { members: { some: theirs(viewer.id) } } } } },
    ],
  };
}
