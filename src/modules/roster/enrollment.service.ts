import { GraphQLError } from 'graphql';
import { authorize, can, realmFactsFor } from '../../auth/policy';
import { type RealmFacts, accessTo, findByStorableId, isStorableId, knownRealm } from '../../auth/realms';
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
  joinByCodeSchema,
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

/**
 * One item of a bulk roster write: its code, and the row written (a section's enrollment, a group's membership) or,
 * for a removal, its id, or why it was not.
 */
export interface RosterResult<Row> {
  code: EnrollmentItemCode;
  message: string | null;
  issues: FieldIssue[];
  enrollment: Row | null;
  id: number | null;
}
export type EnrollmentResult = RosterResult<Enrollment>;

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

/**
 * The realm an access code opens, for the viewer: the code is typed by hand, so letter case does not matter. A code of
 * another district's section or group is as unknown as a wrong one (404), whatever the realm's privacy.
 */
export async function realmByCode<Realm extends 'SECTION' | 'GROUP'>(
  viewer: Viewer,
  type: Realm,
  input: unknown,
  find: (accessCode: string) => Promise<{ id: number } | null>,
) {
  const accessCode = validate(joinByCodeSchema, input).accessCode.toUpperCase();
  const found = await find(accessCode);
  const access = found && (await accessTo(viewer, { type, id: found.id }));
  if (!access || access.facts.districtId !== viewer.user.districtId)
    throw new NotFoundError(type === 'SECTION' ? 'Section' : 'Group', `with access code ${accessCode}`);
  return { realm: { type, id: found.id }, facts: access.facts };
}

/**
 * Enrolls the viewer in the section whose access code they give, as an active member. An invite or a request to join
 * that is pending becomes active (the code is the administrators' consent); any other enrollment of theirs is a
 * ConflictError, as joining twice is.
 */
export async function joinSection(viewer: Viewer, input: unknown, query: EnrollmentQuery) {
  const { realm, facts } = await realmByCode(viewer, 'SECTION', input, (accessCode) =>
    db().section.findUnique({ where: { accessCode }, select: { id: true } }),
  );
  const existing = await db().enrollment.findUnique({
    where: { sectionId_userId: { sectionId: realm.id, userId: viewer.id } },
    select: { id: true, admin: true, status: true },
  });
  if (existing && existing.status !== 'INVITE_PENDING' && existing.status !== 'REQUEST_PENDING')
    throw new ConflictError('You are already enrolled in this section', 'accessCode');
  const state = { status: 'ACTIVE' as const, ...(existing ? {} : { admin: false }) };
  return writeEnrollment(viewer, realm.id, facts, viewer.id, state, existing ?? undefined, query).catch(
    conflictOnUnique('You are already enrolled in this section', 'accessCode'),
  );
}

/** A written item's outcome, from the row its transaction returned. */
const written = <Row extends { id: number }>(enrollment: Row): RosterResult<Row> => ({
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
async function settle<Value>(write: () => Promise<Value>): Promise<Value | RosterResult<never>> {
  const failed = (code: EnrollmentItemCode, message: string, issues: FieldIssue[] = []): RosterResult<never> => ({
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
    if (isUniqueViolation(error)) return failed(409, 'The user was enrolled by another request');
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

/** An item's user (by id or school uid) and the state it asks for. */
export interface RosterItem<State> {
  userId?: string | null;
  schoolUid?: string | null;
  state: State;
}

/** How one realm's roster is written in bulk: a section's enrollments, a group's memberships. */
export interface RosterWrites<Row extends { id: number; userId: number }, State> {
  /** The school whose users items name by school uid. */
  schoolId: number;
  /** Reads an item; a ValidationError is the item's 400. */
  read(item: unknown): RosterItem<State>;
  /** The rows of the users the items name, read at once. */
  load(userIds: readonly number[]): Promise<Row[]>;
  /** Whether a user's row already is as the item asks: it is then answered as it is, unwritten. */
  matches(row: Row, state: State): boolean;
  /** Changes a user's row to the item, or creates it, in a transaction of its own. */
  change(userId: number, state: State, current: Row | undefined): Promise<Row>;
  /** Writes new rows and their events in the call's one transaction; a row another request wrote meanwhile is left out. */
  insert(tx: Prisma.TransactionClient, rows: readonly { userId: number; state: State }[]): Promise<Row[]>;
}

/**
 * Writes a roster item by item. Every item is checked first (its 400, 403 or 404 alone); the new rows are then written
 * in one transaction, with one multi-row INSERT each of them and their events, so a call of 50 costs a few statements,
 * not a transaction per item. A user written meanwhile by another request is that item's 409. A user already on the
 * roster has their row changed to the item, in a transaction of its own; one whose row already matches is answered as
 * it is, with no write, so that a nightly sync sent twice changes nothing. An item naming a user an earlier item of the
 * call adds changes that row once it is written, as it would in a later call. The users and their rows are read once
 * for all items.
 */
export async function writeRoster<Row extends { id: number; userId: number }, State>(
  viewer: Viewer,
  items: readonly unknown[],
  writes: RosterWrites<Row, State>,
) {
  assertItemCount(items, 'items');
  const valid = items.flatMap((item) => {
    try {
      return [writes.read(item)];
    } catch (error) {
      if (error instanceof ValidationError) return [];
      throw error;
    }
  });
  const users = await usersNamed(viewer, writes.schoolId, valid);
  const existing = new Map(
    (await writes.load([...new Set([...users.byId.values(), ...users.byUid.values()])])).map((row) => [
      row.userId,
      row,
    ]),
  );
  const bulk = await startItems();
  const results: RosterResult<Row>[] = new Array(items.length);
  const fresh = new Map<number, { userId: number; state: State }>();
  const later: { index: number; user: number; state: State }[] = [];

  /** An item naming a user on the roster: their row changed to it, or as it is when it already matches. */
  const change = (index: number, user: number, state: State) =>
    runItem(bulk, index, () =>
      settle(async () => {
        const current = existing.get(user);
        if (current && writes.matches(current, state)) return written(current);
        const row = await writes.change(user, state, current);
        // A later item naming the same user changes what this one wrote.
        existing.set(user, row);
        return written(row);
      }),
    );

  const adding = new Set<number>();
  for (const [index, item] of items.entries()) {
    if (bulk.recorded.has(index)) {
      results[index] = written(bulk.recorded.get(index) as Row);
      continue;
    }
    const planned = await settle(async () => {
      const { state, ...named } = writes.read(item);
      return { user: await userOf(viewer, named, users), state };
    });
    if (!('user' in planned)) results[index] = planned;
    else if (adding.has(planned.user)) later.push({ index, ...planned });
    else if (existing.has(planned.user)) results[index] = await change(index, planned.user, planned.state);
    else {
      adding.add(planned.user);
      fresh.set(index, { userId: planned.user, state: planned.state });
    }
  }
  if (fresh.size) {
    const created = await writeItemsTogether(bulk, async (tx) => {
      // A user written meanwhile by another request is left out of RETURNING.
      const byUser = new Map((await writes.insert(tx, [...fresh.values()])).map((row) => [row.userId, row]));
      const values = new Map<number, Row>();
      for (const [index, row] of fresh) {
        const inserted = byUser.get(row.userId);
        if (inserted) values.set(index, inserted);
      }
      return values;
    });
    for (const [index, row] of fresh) {
      const inserted = created.get(index);
      results[index] = inserted
        ? written(inserted)
        : await settle(() => Promise.reject(new ConflictError('The user was enrolled by another request')));
      if (inserted) existing.set(row.userId, inserted);
    }
  }
  for (const { index, user, state } of later) results[index] = await change(index, user, state);
  return { results };
}

type EnrollmentState = { admin?: boolean; status?: EnrollmentStatus };

/** Enrolls users in a section, item by item as writeRoster does; a new enrollment in "invite pending" is invited. */
export async function createEnrollments(viewer: Viewer, sectionId: number, items: readonly unknown[]) {
  await authorize(viewer, sectionPolicy, 'enroll', sectionId, sectionId);
  const facts = await realmFactsFor(viewer, sectionRealm(sectionId), 'administer');
  const invited = new Set<number>();
  const settleInvites = (rows: readonly Enrollment[]) => {
    for (const row of rows) {
      if (row.status === 'INVITE_PENDING') invited.add(row.userId);
      else invited.delete(row.userId);
    }
  };
  return writeRoster<Enrollment, EnrollmentState>(viewer, items, {
    schoolId: facts.schoolId!,
    read: (item) => {
      const { userId, schoolUid, admin, status } = validate(enrollmentItemSchema, item);
      return { userId, schoolUid, state: { admin, status } };
    },
    load: async (userIds) => {
      const [enrolled, invites] = await Promise.all([
        db().enrollment.findMany({ where: { sectionId, userId: { in: [...userIds] } } }),
        db().invite.findMany({ where: { sectionId, userId: { in: [...userIds] } }, select: { userId: true } }),
      ]);
      for (const invite of invites) invited.add(invite.userId);
      return enrolled;
    },
    matches: (row, state) =>
      (state.admin === undefined || state.admin === row.admin) &&
      (state.status === undefined || state.status === row.status),
    change: async (userId, state, current) => {
      const enrollment = await writeEnrollment(
        viewer,
        sectionId,
        facts,
        userId,
        state,
        current,
        {},
        invited.has(userId),
      );
      settleInvites([enrollment]);
      return enrollment;
    },
    insert: async (tx, fresh) => {
      const rows = await tx.enrollment.createManyAndReturn({
        data: fresh.map(({ userId, state }) => ({
          sectionId,
          userId,
          admin: state.admin ?? false,
          status: state.status ?? 'ACTIVE',
        })),
        skipDuplicates: true,
      });
      const event = { realm: sectionRealm(sectionId), actorId: viewer.id, scope: facts };
      await recordEvents(
        tx,
        rosterEvents.createEnrollment,
        rows.map((enrollment) => ({ ...event, objectId: enrollment.id })),
      );
      await inviteNewEnrollments(tx, viewer, sectionId, facts, rows, invited);
      settleInvites(rows);
      return rows;
    },
  });
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
