import { GraphQLError } from 'graphql';
import { authorize, can, realmFactsFor } from '../../auth/policy';
import { type RealmFacts, findByStorableId, isStorableId, knownRealm } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { ConflictError, type FieldIssue, NotFoundError, ValidationError } from '../../core/errors';
import { validate } from '../../core/validation';
import { db } from '../../db/database';
import { conflictOnUnique, isUniqueViolation } from '../../db/unique';
import type { Enrollment, Prisma } from '../../generated/prisma/client';
import type { EnrollmentStatus } from '../../generated/prisma/enums';
import { paged } from '../../graphql/paging';
import { findIfVisible } from '../../graphql/visible';
import {
  itemByItem,
  recordEvent,
  recordEvents,
  runItem,
  startItems,
  writeItemsTogether,
  writeTransaction,
} from '../../outbox/record';
import { inviteEvents } from '../invites/invite.service';
import { readableUsersWhere, userFacts, userFactsSelection, userPolicy } from '../users/user.policy';
import { sectionPolicy } from './roster.policy';
import { rosterEvents } from './roster.service';
import {
  createEnrollmentSchema,
  deleteEnrollmentsSchema,
  enrollmentItemSchema,
  maxEnrollmentItems,
  updateEnrollmentSchema,
} from './roster.validation';

type EnrollmentQuery = { select?: Prisma.EnrollmentSelect; include?: Prisma.EnrollmentInclude };

/** What became of an item of a bulk write: its name in GraphQL, and its /v1 `response_code`. */
export const enrollmentItemCodes = {
  WRITTEN: 200,
  DELETED: 204,
  INVALID: 400,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
} as const;
type EnrollmentItemCode = (typeof enrollmentItemCodes)[keyof typeof enrollmentItemCodes];

/** One item of a bulk write: its code, and the enrollment written (or, for a removal, its id) or why it was not. */
export interface EnrollmentResult {
  code: EnrollmentItemCode;
  message: string | null;
  issues: FieldIssue[];
  enrollment: Enrollment | null;
  id: number | null;
}

const sectionRealm = (id: number) => ({ type: 'SECTION' as const, id });

/** What `/v1` filters a roster by: enrollment states, the admin flag, users. */
export interface EnrollmentFilter {
  status?: readonly EnrollmentStatus[] | null;
  admin?: boolean | null;
  userIds?: readonly number[] | null;
}

/** The enrollments of a section that a viewer who reads its roster sees, filtered. */
export function sectionEnrollmentsWhere(
  viewer: Viewer,
  sectionId: number,
  filter: EnrollmentFilter,
): Prisma.EnrollmentWhereInput {
  // As `Section.enrollments`: a district administrator may enroll users of several schools; each reader sees only
  // the users `user(id)` shows them.
  return {
    sectionId,
    user: readableUsersWhere(viewer),
    ...(filter.status?.length ? { status: { in: [...filter.status] } } : {}),
    ...(filter.admin != null ? { admin: filter.admin } : {}),
    ...(filter.userIds?.length ? { userId: { in: filter.userIds.filter(isStorableId) } } : {}),
  };
}

/** The enrollments of a section, by id, filtered as `/v1` filters them; null when the section is hidden. */
export async function listSectionEnrollments(
  viewer: Viewer,
  sectionId: number,
  filter: EnrollmentFilter,
  page: { start?: number | null; limit?: number | null },
) {
  if (!(await readsRoster(viewer, sectionId))) return null;
  const where = sectionEnrollmentsWhere(viewer, sectionId, filter);
  return paged(page, {
    findMany: (query) => db().enrollment.findMany({ ...query, where, orderBy: { id: 'asc' } }),
    count: () => db().enrollment.count({ where }),
  });
}

/** Whether the viewer reads a section's roster: false when the section is hidden, a 403 when it is closed to them. */
export async function readsRoster(viewer: Viewer, sectionId: number): Promise<boolean> {
  const verdict = await sectionPolicy.rules.read(viewer, sectionId);
  if (verdict === 'hide') return false;
  if (verdict !== 'allow') await authorize(viewer, sectionPolicy, 'read', sectionId, sectionId);
  return true;
}

/** One enrollment of a section the viewer reads; null when it, or the section, does not exist or is hidden. */
export async function sectionEnrollment(viewer: Viewer, sectionId: number, id: number, query: EnrollmentQuery) {
  return findIfVisible(query, readsRoster(viewer, sectionId), (selection) =>
    isStorableId(id)
      ? db().enrollment.findFirst({ ...selection, where: { id, sectionId, user: readableUsersWhere(viewer) } })
      : Promise.resolve(null),
  );
}

/** The users items name, read at once: by id, and by the school's own id in the section's school. */
async function usersNamed(
  viewer: Viewer,
  schoolId: number,
  items: readonly { userId?: string | null; schoolUid?: string | null }[],
) {
  const ids = items.map((item) => Number(item.userId)).filter(isStorableId);
  const uids = items.flatMap((item) => (item.userId == null && item.schoolUid ? [item.schoolUid] : []));
  if (ids.length === 0 && uids.length === 0) return { byId: new Map(), byUid: new Map() };
  const users = await db().user.findMany({
    where: { OR: [{ id: { in: ids } }, { schoolId, schoolUid: { in: uids } }] },
    select: { ...userFactsSelection, schoolUid: true },
  });
  // The policy then judges each from these facts, with no statement of its own.
  for (const user of users) knownRealm(viewer, { type: 'USER', id: user.id }, userFacts(user));
  return {
    byId: new Map(users.map((user) => [user.id, user.id])),
    byUid: new Map(users.filter((user) => user.schoolId === schoolId).map((user) => [user.schoolUid, user.id])),
  };
}
type NamedUsers = Awaited<ReturnType<typeof usersNamed>>;

/** The user an item names, once the viewer may see them; otherwise the item's NotFoundError. */
async function userOf(viewer: Viewer, item: { userId?: string | null; schoolUid?: string | null }, users: NamedUsers) {
  if (item.userId == null && !item.schoolUid)
    throw new ValidationError([{ field: 'userId', message: 'is required (or schoolUid)' }]);
  const id = item.userId != null ? users.byId.get(Number(item.userId)) : users.byUid.get(item.schoolUid!);
  const named = item.userId ?? item.schoolUid!;
  if (id === undefined || !(await can(viewer, userPolicy, 'read', id))) throw new NotFoundError('User', named);
  return id;
}

/**
 * Keeps an enrollment's "invite pending" and the user's invite to the section in step, in the write's transaction:
 * an enrollment in that state has a pending invite (which settles it: accepted, it becomes active; denied, it goes),
 * and one that leaves that state, or goes, takes its invite with it.
 */
async function syncInvite(
  tx: Prisma.TransactionClient,
  viewer: Viewer,
  enrollment: { sectionId: number; userId: number; status: EnrollmentStatus | null },
  facts: RealmFacts,
) {
  const { sectionId, userId } = enrollment;
  const realm = sectionRealm(sectionId);
  if (enrollment.status === 'INVITE_PENDING') {
    const [invite] = await tx.invite.createManyAndReturn({
      data: [{ userId, sectionId, inviterId: viewer.id }],
      skipDuplicates: true,
      select: { id: true },
    });
    if (invite)
      await recordEvent(tx, inviteEvents.create, {
        realm,
        objectId: invite.id,
        actorId: viewer.id,
        scope: facts,
        data: { userId },
      });
    return;
  }
  await tx.invite.deleteMany({ where: { userId, sectionId } });
}

/**
 * Writes one enrollment (new, or a change to the user's enrollment in the section) with its event and invite.
 * `invited` says whether the user has a pending invite to the section, when the caller has read it: a bulk write reads
 * them all at once, which spares each item that has none a statement of its transaction.
 */
async function writeEnrollment(
  viewer: Viewer,
  sectionId: number,
  facts: RealmFacts,
  userId: number,
  state: { admin?: boolean; status?: EnrollmentStatus },
  existing: { id: number; admin: boolean; status: EnrollmentStatus } | undefined,
  query: EnrollmentQuery,
  invited?: boolean,
) {
  const realm = sectionRealm(sectionId);
  return writeTransaction(async (tx) => {
    const enrollment = existing
      ? await tx.enrollment.update({ ...query, where: { id: existing.id }, data: state })
      : await tx.enrollment.create({
          ...query,
          data: { sectionId, userId, admin: state.admin ?? false, status: state.status ?? 'ACTIVE' },
        });
    const kind = existing ? rosterEvents.updateEnrollment : rosterEvents.createEnrollment;
    await recordEvent(tx, kind, { realm, objectId: enrollment.id, actorId: viewer.id, scope: facts });
    const status = state.status ?? existing?.status ?? 'ACTIVE';
    const statusChanged = !existing || status !== existing.status;
    if (statusChanged && (status === 'INVITE_PENDING' || invited !== false))
      await syncInvite(tx, viewer, { sectionId, userId, status }, facts);
    return enrollment;
  });
}

/** Enrolls a user in a section (its administrators); a user already enrolled is a ConflictError. */
export async function createEnrollment(viewer: Viewer, input: unknown, query: EnrollmentQuery) {
  const { sectionId, userId, schoolUid, admin, status } = validate(createEnrollmentSchema, input);
  const section = Number(sectionId);
  await authorize(viewer, sectionPolicy, 'enroll', section, sectionId);
  const facts = await realmFactsFor(viewer, sectionRealm(section), 'administer');
  const user = await userOf(
    viewer,
    { userId, schoolUid },
    await usersNamed(viewer, facts.schoolId!, [{ userId, schoolUid }]),
  );
  return writeEnrollment(viewer, section, facts, user, { admin, status }, undefined, query).catch(
    conflictOnUnique('The user is already enrolled in this section', 'userId'),
  );
}

/** A written item's outcome, from the enrollment its transaction returned. */
const written = (enrollment: Enrollment): EnrollmentResult => ({
  code: 200,
  message: null,
  issues: [],
  enrollment,
  id: enrollment.id,
});
const removed = (id: number): EnrollmentResult => ({ code: 204, message: null, issues: [], enrollment: null, id });

/**
 * One item's outcome, or the expected failure that stopped it alone (a ValidationError 400, a NotFoundError 404, a
 * ConflictError 409, a refusal 403). Anything else is a fault and fails the request.
 */
async function settle<Value>(write: () => Promise<Value>): Promise<Value | EnrollmentResult> {
  const failed = (code: EnrollmentItemCode, message: string, issues: FieldIssue[] = []): EnrollmentResult => ({
    code,
    message,
    issues,
    enrollment: null,
    id: null,
  });
  try {
    return await write();
  } catch (error) {
    if (error instanceof ValidationError) return failed(400, error.message, error.issues);
    if (error instanceof NotFoundError) return failed(404, error.message);
    if (error instanceof ConflictError) return failed(409, error.message);
    if (isUniqueViolation(error)) return failed(409, 'The user was enrolled in this section by another request');
    const status =
      error instanceof GraphQLError ? (error.extensions.http as { status?: number } | undefined)?.status : undefined;
    if (status === 403) return failed(403, (error as GraphQLError).message);
    throw error;
  }
}

function assertItemCount(items: readonly unknown[], member: string) {
  if (items.length > maxEnrollmentItems)
    throw new ValidationError([{ field: member, message: `must list at most ${maxEnrollmentItems} items` }]);
}

/**
 * Enrolls users in a section. Every item is checked first (its 400, 403 or 404 alone); the new enrollments are then
 * written in one transaction, with one multi-row INSERT each of them, their events and their invites, so a call of 50
 * costs a few statements, not a transaction per item. A user enrolled meanwhile by another request is that item's 409.
 * A user already enrolled has their enrollment changed to the item, in a transaction of its own; one whose enrollment
 * already matches is answered as it is, with no write, so that a nightly sync sent twice changes nothing. An item
 * naming a user an earlier item of the call enrolls changes that enrollment once it is written, as it would in a
 * later call. The users and their enrollments are read once for all items.
 */
export async function createEnrollments(viewer: Viewer, sectionId: number, items: readonly unknown[]) {
  await authorize(viewer, sectionPolicy, 'enroll', sectionId, sectionId);
  const facts = await realmFactsFor(viewer, sectionRealm(sectionId), 'administer');
  assertItemCount(items, 'items');
  const valid = items.flatMap((item) => {
    const parsed = enrollmentItemSchema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
  const users = await usersNamed(viewer, facts.schoolId!, valid);
  const userIds = [...new Set([...users.byId.values(), ...users.byUid.values()])];
  const [enrolled, invites] = await Promise.all([
    db().enrollment.findMany({ where: { sectionId, userId: { in: userIds } } }),
    db().invite.findMany({ where: { sectionId, userId: { in: userIds } }, select: { userId: true } }),
  ]);
  const invited = new Set(invites.map((invite) => invite.userId));
  const existing = new Map(enrolled.map((row) => [row.userId, row]));
  const realm = sectionRealm(sectionId);
  const bulk = await startItems();
  const results: EnrollmentResult[] = new Array(items.length);
  const fresh = new Map<number, { userId: number; admin: boolean; status: EnrollmentStatus }>();
  const later: { index: number; user: number; state: { admin?: boolean; status?: EnrollmentStatus } }[] = [];

  /** An item naming an enrolled user: their enrollment changed to it, or as it is when it already matches. */
  const change = (index: number, user: number, state: { admin?: boolean; status?: EnrollmentStatus }) =>
    runItem(bulk, index, () =>
      settle(async () => {
        const current = existing.get(user);
        const unchanged =
          current &&
          (state.admin === undefined || state.admin === current.admin) &&
          (state.status === undefined || state.status === current.status);
        if (unchanged) return written(current);
        const enrollment = await writeEnrollment(viewer, sectionId, facts, user, state, current, {}, invited.has(user));
        if (enrollment.status === 'INVITE_PENDING') invited.add(user);
        else invited.delete(user);
        // A later item naming the same user changes what this one wrote.
        existing.set(user, enrollment);
        return written(enrollment);
      }),
    );

  const enrolling = new Set<number>();
  for (const [index, item] of items.entries()) {
    if (bulk.recorded.has(index)) {
      results[index] = written(bulk.recorded.get(index) as Enrollment);
      continue;
    }
    const planned = await settle(async () => {
      const { userId, schoolUid, admin, status } = validate(enrollmentItemSchema, item);
      return { user: await userOf(viewer, { userId, schoolUid }, users), state: { admin, status } };
    });
    if (!('user' in planned)) results[index] = planned;
    else if (enrolling.has(planned.user)) later.push({ index, ...planned });
    else if (existing.has(planned.user)) results[index] = await change(index, planned.user, planned.state);
    else {
      enrolling.add(planned.user);
      const { admin = false, status = 'ACTIVE' } = planned.state;
      fresh.set(index, { userId: planned.user, admin, status });
    }
  }
  if (fresh.size) {
    const created = await writeItemsTogether(bulk, async (tx) => {
      const rows = await tx.enrollment.createManyAndReturn({
        data: [...fresh.values()].map((row) => ({ ...row, sectionId })),
        skipDuplicates: true,
      });
      // A user enrolled meanwhile by another request is left out of RETURNING.
      const byUser = new Map(rows.map((row) => [row.userId, row]));
      const values = new Map<number, Enrollment>();
      for (const [index, row] of fresh) {
        const enrollment = byUser.get(row.userId);
        if (enrollment) values.set(index, enrollment);
      }
      const event = { realm, actorId: viewer.id, scope: facts };
      await recordEvents(
        tx,
        rosterEvents.createEnrollment,
        rows.map((enrollment) => ({ ...event, objectId: enrollment.id })),
      );
      await inviteNewEnrollments(tx, viewer, sectionId, facts, rows, invited);
      return values;
    });
    for (const [index, row] of fresh) {
      const enrollment = created.get(index);
      results[index] = enrollment
        ? written(enrollment)
        : await settle(() =>
            Promise.reject(new ConflictError('The user was enrolled in this section by another request')),
          );
      if (!enrollment) continue;
      existing.set(row.userId, enrollment);
      if (enrollment.status === 'INVITE_PENDING') invited.add(row.userId);
      else invited.delete(row.userId);
    }
  }
  for (const { index, user, state } of later) results[index] = await change(index, user, state);
  return { results };
}

/**
 * The invites of new enrollments, as syncInvite keeps them for one: a pending invite (and its event) for each in
 * "invite pending", and none left for the others, in a statement or two for all of them.
 */
async function inviteNewEnrollments(
  tx: Prisma.TransactionClient,
  viewer: Viewer,
  sectionId: number,
  facts: RealmFacts,
  rows: readonly Enrollment[],
  invited: ReadonlySet<number>,
) {
  const pending = rows.filter((row) => row.status === 'INVITE_PENDING').map((row) => row.userId);
  const settled = rows.filter((row) => row.status !== 'INVITE_PENDING' && invited.has(row.userId));
  if (settled.length)
    await tx.invite.deleteMany({ where: { sectionId, userId: { in: settled.map((row) => row.userId) } } });
  if (!pending.length) return;
  const invites = await tx.invite.createManyAndReturn({
    data: pending.map((userId) => ({ userId, sectionId, inviterId: viewer.id })),
    skipDuplicates: true,
    select: { id: true, userId: true },
  });
  await recordEvents(
    tx,
    inviteEvents.create,
    invites.map((invite) => ({
      realm: sectionRealm(sectionId),
      objectId: invite.id,
      actorId: viewer.id,
      scope: facts,
      data: { userId: invite.userId },
    })),
  );
}

/** The enrollment `id` of a section (the given one, if any), with what a change reads; NotFoundError otherwise. */
async function enrollmentOf(id: number | string, sectionId: number | null) {
  const found = await findByStorableId(id, (key) =>
    db().enrollment.findUnique({
      where: { id: key },
      select: { id: true, sectionId: true, userId: true, admin: true, status: true },
    }),
  );
  if (!found || (sectionId !== null && found.sectionId !== sectionId)) throw new NotFoundError('Enrollment', id);
  return found;
}

/** The facts of the section of an enrollment the viewer administers (its teachers and administrators). */
async function administeredSection(viewer: Viewer, enrollment: { id: number; sectionId: number }) {
  await authorize(viewer, sectionPolicy, 'enroll', enrollment.sectionId, enrollment.id, 'Enrollment');
  return realmFactsFor(viewer, sectionRealm(enrollment.sectionId), 'administer');
}

/** Changes an enrollment's status or admin flag (the section's administrators). */
export async function updateEnrollment(
  viewer: Viewer,
  id: number,
  sectionId: number | null,
  input: unknown,
  query: EnrollmentQuery,
) {
  const enrollment = await enrollmentOf(id, sectionId);
  const facts = await administeredSection(viewer, enrollment);
  const state = validate(updateEnrollmentSchema, input);
  return writeEnrollment(viewer, enrollment.sectionId, facts, enrollment.userId, state, enrollment, query);
}

/** Removes an enrollment, and the invite of one in "invite pending", in one transaction with its event. */
async function removeEnrollment(
  viewer: Viewer,
  enrollment: { id: number; sectionId: number; userId: number },
  facts: RealmFacts,
) {
  return writeTransaction(async (tx) => {
    // deleteMany: a concurrent removal of the same enrollment is a NotFoundError, not a failed delete (500).
    const { count } = await tx.enrollment.deleteMany({ where: { id: enrollment.id } });
    if (count === 0) throw new NotFoundError('Enrollment', enrollment.id);
    await tx.invite.deleteMany({ where: { userId: enrollment.userId, sectionId: enrollment.sectionId } });
    await recordEvent(tx, rosterEvents.deleteEnrollment, {
      realm: sectionRealm(enrollment.sectionId),
      objectId: enrollment.id,
      actorId: viewer.id,
      scope: facts,
    });
    return enrollment.id;
  });
}

export async function deleteEnrollment(viewer: Viewer, id: number, sectionId: number | null) {
  const enrollment = await enrollmentOf(id, sectionId);
  const facts = await administeredSection(viewer, enrollment);
  return { id: await removeEnrollment(viewer, enrollment, facts), sectionId: enrollment.sectionId };
}

/** Removes enrollments of one section item by item (as createEnrollments); an id not of the section is its 404. */
export async function deleteEnrollments(viewer: Viewer, sectionId: number, ids: readonly string[]) {
  await authorize(viewer, sectionPolicy, 'enroll', sectionId, sectionId);
  const facts = await realmFactsFor(viewer, sectionRealm(sectionId), 'administer');
  assertItemCount(ids, 'ids');
  validate(deleteEnrollmentsSchema, { sectionId: String(sectionId), ids });
  const remove = (id: string) =>
    settle(async () => removed(await removeEnrollment(viewer, await enrollmentOf(id, sectionId), facts)));
  return { results: await itemByItem(ids, remove, removed) };
}
