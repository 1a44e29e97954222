import { authorize } from '../../auth/policy';
import { type RealmFacts, findByStorableId, isStorableId, knownRealm, realmFacts } from '../../auth/realms';
import { forgetCredentialsOf } from '../../auth/credential-cache';
import type { Viewer } from '../../auth/viewer';
import { ConflictError, type FieldIssue, NotFoundError, ValidationError } from '../../core/errors';
import { type ItemOutcome, settleItem, writtenItem } from '../../core/item-outcomes';
import { deleteRealmContents } from '../../core/realm-content';
import { validate } from '../../core/validation';
import { db } from '../../db/database';
import { isUniqueViolation } from '../../db/unique';
import type { Prisma, User } from '../../generated/prisma/client';
import { defineEvent } from '../../outbox/catalogue';
import {
  itemByItem,
  recordEvent,
  recordEvents,
  runItem,
  startItems,
  writeItemsTogether,
  writeTransaction,
} from '../../outbox/record';
import { userFacts, userPolicy } from './user.policy';
import { createUserSchema, maxUserItems, staffOnlyTriggerAdmin, itemUserId, updateUserSchema } from './user.validation';

type UserQuery = { include?: Prisma.UserInclude; select?: Prisma.UserSelect };
type UserWithDistrict = User & { school: { districtId: number } };

const schoolRealm = (id: number) => ({ type: 'SCHOOL' as const, id });
const userRealm = (id: number) => ({ type: 'USER' as const, id });

// Recorded in the user's school: its readers (the school's users and the district's administrators) see its people.
export const userEvents = {
  create: defineEvent('user.create', {
    object: 'User',
    realms: ['SCHOOL'],
    description: 'A user was added to a school.',
  }),
  update: defineEvent('user.update', {
    object: 'User',
    realms: ['SCHOOL'],
    description: "A user's account was changed (names, role, ids, building).",
  }),
  delete: defineEvent('user.delete', {
    object: 'User',
    realms: ['SCHOOL'],
    description: 'A user was deleted, with their enrollments, memberships and credentials.',
  }),
  // Recorded in the user's own realm (inside their school, whose readers hear it as they hear the other user events):
  // every instance's credential cache and the user's own subscriptions follow that realm, so a deactivation refuses
  // their credentials and ends their subscriptions as a revocation does.
  deactivate: defineEvent('user.deactivate', {
    object: 'User',
    realms: ['USER'],
    description:
      'A user was made inactive: they cannot sign in, their credentials are refused, and they leave lists of people; with their enrollments and memberships unless kept.',
  }),
  reactivate: defineEvent('user.reactivate', {
    object: 'User',
    realms: ['USER'],
    description: 'An inactive user was made active again: their credentials work again.',
  }),
};

/** What became of one item of a bulk write; /v1 answers each with the `response_code` of `userItemCodes`. */
export type UserItemCode =
  | 'CREATED'
  | 'UPDATED'
  | 'DELETED'
  | 'DEACTIVATED'
  | 'REACTIVATED'
  | 'INVALID'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT';
export const userItemCodes: Record<UserItemCode, number> = {
  CREATED: 200,
  UPDATED: 200,
  DELETED: 204,
  DEACTIVATED: 204,
  REACTIVATED: 200,
  INVALID: 400,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
};

/** One item of a bulk write: what became of it, and the user written or why it was not. */
export interface UserResult {
  code: UserItemCode;
  message: string | null;
  issues: FieldIssue[];
  user: User | null;
}

/** A unique key of the school was taken: name the member the client has to change, the school user id first. */
async function conflictOf(schoolId: number, schoolUid: string | null | undefined, except: number | null) {
  const taken =
    Boolean(schoolUid) &&
    (await db().user.findFirst({ where: { schoolId, schoolUid, id: { not: except ?? 0 } }, select: { id: true } }));
  return taken
    ? new ConflictError('School user id is already used in this school', 'schoolUid')
    : new ConflictError('Username is already used in this school', 'username');
}

/** A building must be one of the user's school's. */
async function assertBuildingOf(schoolId: number, buildingId: string | null | undefined) {
  if (!buildingId) return;
  const building = await findByStorableId(buildingId, (id) =>
    db().school.findUnique({ where: { id }, select: { parentId: true } }),
  );
  if (building?.parentId !== schoolId)
    throw new ValidationError([{ field: 'buildingId', message: 'is not a building of the school' }]);
}

/** The school a new user joins (the viewer's when none is named), once the viewer may create them there. */
async function placeNewUser(viewer: Viewer, input: unknown) {
  const { schoolId: named, buildingId, ...fields } = validate(createUserSchema, input);
  const schoolId = named ? Number(named) : viewer.user.schoolId;
  const subject = { schoolId, role: fields.role, triggerAdmin: fields.triggerAdmin ?? false };
  await authorize(viewer, userPolicy, 'create', subject, schoolId, 'School');
  const school = await realmFacts(viewer, schoolRealm(schoolId));
  if (school.buildingId !== null)
    throw new ValidationError([{ field: 'schoolId', message: 'is a building; name its school' }]);
  await assertBuildingOf(schoolId, buildingId);
  // The platform asks for a username or an email; without either, the school's own id is the login name.
  const username = fields.username ?? fields.schoolUid ?? fields.email!;
  const data = { ...fields, username, schoolId, buildingId: buildingId ? Number(buildingId) : null };
  return { data, scope: { ...school, buildingId: data.buildingId } };
}

export async function createUser(viewer: Viewer, input: unknown, query: UserQuery) {
  const { data, scope } = await placeNewUser(viewer, input);
  return writeTransaction(async (tx) => {
    const user = await tx.user.create({ ...query, data });
    await recordEvent(tx, userEvents.create, {
      realm: schoolRealm(data.schoolId),
      objectId: user.id,
      actorId: viewer.id,
      scope,
    });
    return user;
  }).catch(async (error) => {
    if (!isUniqueViolation(error)) throw error;
    throw await conflictOf(data.schoolId, data.schoolUid, null);
  });
}

/** The user a change is about, with the facts of their realm; NotFoundError when hidden or missing. */
async function existingUser(id: number) {
  const user = await findByStorableId(id, (key) => db().user.findUnique({ where: { id: key } }));
  if (!user) throw new NotFoundError('User', id);
  return user;
}

/** Whether a change leaves every member as it is: a repeated roster sync then writes nothing. */
const changesNothing = (user: User, data: Record<string, unknown>) =>
  Object.entries(data).every(([member, value]) => user[member as keyof User] === value);

/**
 * Changes a user. `known` is their row when the caller read it already (a bulk's users read in one statement): the
 * change then reads nothing more, and one that changes nothing (a repeated roster sync) sends no statement at all.
 */
/**
 * Changes a user. With `reactivate` (a nightly sync's `update_existing` naming an inactive user by school user id), the
 * same transaction makes them active again, with the reactivation's event, even when nothing else changes.
 */
export async function updateUser(
  viewer: Viewer,
  id: number,
  input: unknown,
  query: UserQuery,
  known?: User,
  reactivate = false,
) {
  await authorize(viewer, userPolicy, 'update', { id }, id);
  const { buildingId, ...fields } = validate(updateUserSchema, input);
  // Powers beyond a school, once the change is known to ask for them.
  if (fields.role || fields.triggerAdmin)
    await authorize(viewer, userPolicy, 'update', { id, role: fields.role, triggerAdmin: fields.triggerAdmin }, id);
  const user = known ?? (await existingUser(id));
  if (
    !staffOnlyTriggerAdmin({ role: fields.role ?? user.role, triggerAdmin: fields.triggerAdmin ?? user.triggerAdmin })
  )
    throw new ValidationError([
      { field: fields.role ? 'role' : 'triggerAdmin', message: 'students and parents do not administer triggers' },
    ]);
  await assertBuildingOf(user.schoolId, buildingId);
  const data = {
    ...fields,
    ...(buildingId !== undefined ? { buildingId: buildingId ? Number(buildingId) : null } : {}),
  };
  const unchanged = changesNothing(user, data);
  if (unchanged && !reactivate)
    return query.select || query.include ? db().user.findUniqueOrThrow({ ...query, where: { id } }) : user;
  const scope = await realmFacts(viewer, userRealm(id));
  return writeTransaction(async (tx) => {
    const changed = await tx.user.update({
      ...query,
      where: { id },
      data: reactivate ? { ...data, deactivatedAt: null } : data,
    });
    if (reactivate)
      await recordEvent(tx, userEvents.reactivate, { realm: userRealm(id), objectId: id, actorId: viewer.id, scope });
    if (!unchanged)
      await recordEvent(tx, userEvents.update, {
        realm: schoolRealm(user.schoolId),
        objectId: id,
        actorId: viewer.id,
        scope,
      });
    return changed;
  }).catch(async (error) => {
    if (!isUniqueViolation(error)) throw error;
    throw await conflictOf(user.schoolId, fields.schoolUid, id);
  });
}

/** Deletes a user with what is theirs: enrollments, memberships, credentials, and the content of their realm. */
export async function deleteUser(viewer: Viewer, id: number) {
  await authorize(viewer, userPolicy, 'delete', id, id);
  const scope: RealmFacts = await realmFacts(viewer, userRealm(id));
  await writeTransaction(async (tx) => {
    await deleteRealmContents(tx, [{ type: 'USER', ids: [id] }]);
    // Deleted meanwhile (or earlier in the same bulk, whose access answers are kept for the request): not found.
    const { count } = await tx.user.deleteMany({ where: { id } });
    if (count === 0) throw new NotFoundError('User', id);
    await recordEvent(tx, userEvents.delete, {
      realm: schoolRealm(scope.schoolId!),
      objectId: id,
      actorId: viewer.id,
      scope,
    });
  });
  return { id };
}

/**
 * Makes a user inactive, as the platform's delete does: they cannot sign in (their credentials are refused on every
 * instance within CREDENTIAL_CACHE_MS, their subscriptions end), they leave every list of people, and only their
 * administrators still see them. Their enrollments and group memberships are kept with `keepEnrollments` (hidden from
 * rosters while they are inactive, back when they are reactivated), removed otherwise. An inactive user is not found.
 */
export async function deactivateUser(viewer: Viewer, id: number, keepEnrollments: boolean, query: UserQuery = {}) {
  await authorize(viewer, userPolicy, 'delete', id, id);
  const scope = await realmFacts(viewer, userRealm(id));
  const user = await writeTransaction(async (tx) => {
    // Made inactive meanwhile (or earlier in the same bulk, whose access answers are kept for the request): not found.
    const { count } = await tx.user.updateMany({
      where: { id, deactivatedAt: null },
      data: { deactivatedAt: new Date() },
    });
    if (count === 0) throw new NotFoundError('User', id);
    if (!keepEnrollments) {
      await tx.enrollment.deleteMany({ where: { userId: id } });
      await tx.groupMembership.deleteMany({ where: { userId: id } });
    }
    await recordEvent(tx, userEvents.deactivate, { realm: userRealm(id), objectId: id, actorId: viewer.id, scope });
    return tx.user.findUniqueOrThrow({ ...query, where: { id } });
  });
  // At once on this instance; the others drop the user's credentials on reading the event, or within the cache bound.
  forgetCredentialsOf(id);
  return user;
}

/** Makes an inactive user active again; one who is active is not found (as on the platform's list of inactive users). */
export async function reactivateUser(viewer: Viewer, id: number, query: UserQuery = {}) {
  await authorize(viewer, userPolicy, 'update', { id }, id);
  const scope = await realmFacts(viewer, userRealm(id));
  return writeTransaction(async (tx) => {
    const { count } = await tx.user.updateMany({
      where: { id, deactivatedAt: { not: null } },
      data: { deactivatedAt: null },
    });
    if (count === 0) throw new NotFoundError('User', id);
    await recordEvent(tx, userEvents.reactivate, { realm: userRealm(id), objectId: id, actorId: viewer.id, scope });
    return tx.user.findUniqueOrThrow({ ...query, where: { id } });
  });
}

const asUserResult = ({ value, ...outcome }: ItemOutcome<User, UserItemCode>): UserResult => ({
  ...outcome,
  user: value,
});
const written = (code: UserItemCode) => (user: User | null) => asUserResult(writtenItem(code)(user));

/** One item's outcome (src/core/item-outcomes.ts): what it wrote with `code`, or what stopped it alone. */
const settle = (code: UserItemCode, write: () => Promise<User | null>) => settleItem(code, write).then(asUserResult);

/** A bulk write: by an administrator (anyone else is refused whole), of at most 50 items. */
async function assertBulk(viewer: Viewer, items: readonly unknown[], member: string) {
  await authorize(viewer, userPolicy, 'manage', null, viewer.id);
  if (items.length > maxUserItems)
    throw new ValidationError([{ field: member, message: `must list at most ${maxUserItems} users` }]);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The users of the items' schools that already hold the items' school user ids, read in one statement with what the
 * access rule needs of them: with `updateExisting` such an item changes that user instead of failing as a conflict,
 * and neither its permission nor its change reads the user again.
 */
async function holdersOfSchoolUids(viewer: Viewer, items: readonly unknown[]) {
  const keys = items
    .filter(isObject)
    .flatMap((item) =>
      typeof item.schoolUid === 'string' && item.schoolUid
        ? [{ schoolId: Number(item.schoolId ?? viewer.user.schoolId), schoolUid: item.schoolUid }]
        : [],
    );
  const holders = new Map<string, UserWithDistrict>();
  if (!keys.length) return holders;
  const found = await db().user.findMany({
    where: {
      schoolId: { in: [...new Set(keys.map((key) => key.schoolId).filter(isStorableId))] },
      schoolUid: { in: keys.map((key) => key.schoolUid) },
    },
    include: { school: { select: { districtId: true } } },
  });
  for (const user of found) {
    knownRealm(viewer, userRealm(user.id), userFacts(user));
    holders.set(`${user.schoolId}:${user.schoolUid}`, user);
  }
  return holders;
}

type NewUser = Awaited<ReturnType<typeof placeNewUser>>;

/**
 * Creates users: every item is checked first (its 400, 403 or 404 alone), then the new users are written in one
 * transaction with one multi-row INSERT and one of their events, so a call of 50 costs a few statements, not a
 * transaction per user. An item whose username or school user id is taken (by a user already there, one written
 * meanwhile, or an earlier item of the call) is its 409 and writes nothing. With `updateExisting`, an item whose school
 * user id a user of its school already holds changes that user (nothing when it already matches), in a transaction of
 * its own, so that a roster sync may be run again.
 */
export async function createUsers(viewer: Viewer, items: readonly unknown[], updateExisting: boolean) {
  await assertBulk(viewer, items, 'items');
  const holders = updateExisting ? await holdersOfSchoolUids(viewer, items) : new Map<string, UserWithDistrict>();
  const bulk = await startItems();
  const results: UserResult[] = new Array(items.length);
  const placed = new Map<number, NewUser>();
  const taken = new Set<string>();
  for (const [index, item] of items.entries()) {
    if (bulk.recorded.has(index)) {
      results[index] = written('CREATED')(bulk.recorded.get(index) as User);
      continue;
    }
    const holder = isObject(item)
      ? holders.get(`${Number(item.schoolId ?? viewer.user.schoolId)}:${String(item.schoolUid)}`)
      : undefined;
    if (holder) {
      // The school is where the holder was found, not a change; a member a create leaves out or null keeps its value.
      const changes = Object.fromEntries(
        Object.entries(item as Record<string, unknown>).filter(
          ([member, value]) => member !== 'schoolId' && value !== null && value !== undefined,
        ),
      );
      const { school: _district, ...row } = holder;
      // A user the sync sends again after they were made inactive has come back: they are made active again, with
      // the enrollments and memberships kept for them (docs/rest/users.md).
      const inactive = holder.deactivatedAt !== null;
      results[index] = await runItem(bulk, index, () =>
        settle('UPDATED', () => updateUser(viewer, holder.id, changes, {}, row, inactive)),
      );
      continue;
    }
    results[index] = await settle('CREATED', async () => {
      const next = await placeNewUser(viewer, item);
      const { schoolId, username, schoolUid } = next.data;
      // Two items of a call asking for one key: the first has it, as the first of two calls would.
      if (taken.has(`${schoolId}:u:${username}`) || (schoolUid && taken.has(`${schoolId}:s:${schoolUid}`)))
        throw conflictWithin(next, taken);
      taken.add(`${schoolId}:u:${username}`);
      if (schoolUid) taken.add(`${schoolId}:s:${schoolUid}`);
      placed.set(index, next);
      return null;
    });
  }
  if (placed.size) {
    const created = await writeItemsTogether(bulk, async (tx) => {
      const rows = await tx.user.createManyAndReturn({
        data: [...placed.values()].map((next) => next.data),
        skipDuplicates: true,
      });
      // A user taken meanwhile by another request is left out of RETURNING: its username is its key in the school.
      const byLogin = new Map(rows.map((row) => [`${row.schoolId}:${row.username}`, row]));
      const values = new Map<number, User>();
      for (const [index, next] of placed) {
        const row = byLogin.get(`${next.data.schoolId}:${next.data.username}`);
        if (row) values.set(index, row);
      }
      await recordEvents(
        tx,
        userEvents.create,
        [...values].map(([index, row]) => ({
          realm: schoolRealm(row.schoolId),
          objectId: row.id,
          actorId: viewer.id,
          scope: placed.get(index)!.scope,
        })),
      );
      return values;
    });
    for (const [index, next] of placed) {
      const row = created.get(index);
      results[index] = row
        ? written('CREATED')(row)
        : await settle('CREATED', async () => {
            throw await conflictOf(next.data.schoolId, next.data.schoolUid, null);
          });
    }
  }
  return { results };
}

/** The 409 of an item asking for a username or school user id an earlier item of the same call has. */
function conflictWithin({ data }: NewUser, taken: ReadonlySet<string>) {
  return data.schoolUid && taken.has(`${data.schoolId}:s:${data.schoolUid}`)
    ? new ConflictError('School user id is already used in this school', 'schoolUid')
    : new ConflictError('Username is already used in this school', 'username');
}

/** The user an item names, by its database or global id; an id no user can have is that item's 404. */
async function namedUser(id: string) {
  const { id: key } = validate(itemUserId, { id });
  const found = await findByStorableId(key, (storable) => Promise.resolve(storable));
  if (found === null) throw new NotFoundError('User', id);
  return found;
}

/** Changes users item by item (as createUsers); an item's unknown or hidden user is its 404. */
export async function updateUsers(viewer: Viewer, items: readonly { id: string }[]) {
  await assertBulk(viewer, items, 'items');
  const change = ({ id, ...changes }: { id: string }) =>
    settle('UPDATED', async () => updateUser(viewer, await namedUser(id), changes, {}));
  return { results: await itemByItem(items, change, written('UPDATED')) };
}

/** Deletes users item by item, each with its own transaction and event. */
export async function deleteUsers(viewer: Viewer, ids: readonly string[]) {
  await assertBulk(viewer, ids, 'ids');
  const remove = (id: string) =>
    settle('DELETED', async () => {
      await deleteUser(viewer, await namedUser(id));
      return null;
    });
  return { results: await itemByItem(ids, remove, written('DELETED')) };
}

/** Makes users inactive item by item (as deactivateUser does), each with its own transaction and event. */
export async function deactivateUsers(viewer: Viewer, ids: readonly string[], keepEnrollments: boolean) {
  await assertBulk(viewer, ids, 'ids');
  const deactivate = (id: string) =>
    settle('DEACTIVATED', async () => deactivateUser(viewer, await namedUser(id), keepEnrollments));
  return { results: await itemByItem(ids, deactivate, written('DEACTIVATED')) };
}

/** Makes inactive users active again item by item; an item's active, unknown or hidden user is its 404. */
export async function reactivateUsers(viewer: Viewer, ids: readonly string[]) {
  await assertBulk(viewer, ids, 'ids');
  const reactivate = (id: string) => settle('REACTIVATED', async () => reactivateUser(viewer, await namedUser(id)));
  return { results: await itemByItem(ids, reactivate, written('REACTIVATED')) };
}
