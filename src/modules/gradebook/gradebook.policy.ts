import { type Policy, type Verdict, authorize, definePolicy, realmVerdict } from '../../auth/policy';
import type { MaybePromise } from '../../auth/maybe-promise';
import { type RealmFacts, isStorableId, realmFacts } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { forbidden } from '../../core/errors';
import { db } from '../../db/database';

const section = (id: number) => ({ type: 'SECTION' as const, id });

/**
 * Whose grades and attendance in a section the viewer reads: every enrollment's (the section's teachers, the school's
 * and district's administrators), or some (a student their own, a parent their linked children's); otherwise the
 * verdict that refuses them.
 */
export type GradebookReach = { all: true } | { all: false; enrollmentIds: number[] };

type Reach = GradebookReach | Exclude<Verdict, 'allow'>;

export async function gradebookReach(viewer: Viewer, sectionId: number): Promise<Reach> {
  return viewer.memo(`gradebook:${sectionId}`, async (): Promise<Reach> => {
    if (!isStorableId(sectionId)) return 'hide';
    const verdict = await realmVerdict(viewer, section(sectionId), 'administer');
    if (verdict === 'allow') return { all: true };
    const own = await db().enrollment.findMany({
      where: { sectionId, OR: [{ userId: viewer.id }, { user: { parents: { some: { parentId: viewer.id } } } }] },
      select: { id: true },
      orderBy: { id: 'asc' },
    });
    if (own.length) return { all: false, enrollmentIds: own.map((enrollment) => enrollment.id) };
    if (verdict === 'hide') return 'hide';
    return { forbid: "Only the section's teachers, its students and their parents read its gradebook" };
  });
}

/** The viewer's reach in a section's gradebook; null when the section is hidden, a 403 when it is closed to them. */
export async function readableReach(viewer: Viewer, sectionId: number): Promise<GradebookReach | null> {
  const reach = await gradebookReach(viewer, sectionId);
  if (reach === 'hide') return null;
  if (!('all' in reach)) throw forbidden(reach.forbid);
  return reach;
}

/** The section's teachers and administrators keep its gradebook; its students and their parents read their own part. */
export const gradebookPolicy = definePolicy('Section', {
  read: async (viewer: Viewer, sectionId: number): Promise<Verdict> => {
    const reach = await gradebookReach(viewer, sectionId);
    return typeof reach === 'object' && 'all' in reach ? 'allow' : reach;
  },
  write: (viewer: Viewer, sectionId: number) => realmVerdict(viewer, section(sectionId), 'administer'),
});

/** A policy of a part of the gradebook (grades, attendance, categories) with a `write` rule on the section. */
type SectionWriting = Policy<{ write: (viewer: Viewer, sectionId: number) => MaybePromise<Verdict> }>;

/**
 * For a part of the gradebook: the section's facts once `policy` lets the viewer write it, a NotFoundError for
 * `objectType` `id` (the section, or the category or item being changed) when the section is hidden, a 403 when it is
 * not theirs to keep.
 */
export const sectionWriter =
  (policy: SectionWriting) =>
  async (viewer: Viewer, sectionId: number, id: number = sectionId, objectType = 'Section'): Promise<RealmFacts> => {
    await authorize(viewer, policy, 'write', sectionId, id, objectType);
    return realmFacts(viewer, section(sectionId));
  };

export const gradebookWriter = sectionWriter(gradebookPolicy);

/** Grading periods and scales are the school's: its administrators keep them, everyone who knows the school reads them. */
export const schoolGradingPolicy = definePolicy('School', {
  read: (viewer: Viewer, schoolId: number) => realmVerdict(viewer, { type: 'SCHOOL', id: schoolId }, 'visible'),
  write: (viewer: Viewer, schoolId: number) => realmVerdict(viewer, { type: 'SCHOOL', id: schoolId }, 'administer'),
});
