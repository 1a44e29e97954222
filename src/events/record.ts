import { AsyncLocalStorage } from 'node:async_hooks';
import type { RealmRef } from '../auth/realms';
import { db, directQuery } from '../db/database';
import { Prisma } from '../generated/prisma/client';
import type { RealmType } from '../generated/prisma/enums';
import { type CommitNotice, announceCommit } from './bus';
import { type EventKind, assertCatalogued } from './catalogue';
import { realmKey } from './realm-key';

export interface DomainEventInput<Data> {
  realm: RealmRef;
  objectId: number;
  actorId: number | null;
  /**
   * District, top-level school and building the changed object belongs to: with the realm, the realms that contain
   * it, whose subscribers all hear the event (containingRealms).
   */
  scope: { districtId: number | null; schoolId: number | null; buildingId?: number | null };
  data?: Data;
}

/** The events each open write transaction recorded, announced once it commits. */
const eventsOfTransaction = new WeakMap<Prisma.TransactionClient, CommitNotice[]>();
const tasksAfterCommit = new WeakMap<Prisma.TransactionClient, (() => Promise<void>)[]>();

/**
 * Runs `task` once the write transaction `tx` has committed (removing stored files of deleted rows), before the
 * write's answer goes out. A task that fails is left to the periodic sweep that also backs it up after a crash.
 */
export function afterCommit(tx: Prisma.TransactionClient, task: () => Promise<void>): void {
  const tasks = tasksAfterCommit.get(tx);
  if (!tasks) throw new Error('afterCommit must run inside writeTransaction');
  tasks.push(task);
}

type TransactionHook = (tx: Prisma.TransactionClient) => Promise<void>;
const transactionHooks = new AsyncLocalStorage<TransactionHook>();

/**
 * Runs `run` so that every write transaction it starts also runs `hook` before committing: an Idempotency-Key marks
 * its claim committed atomically with the write (src/rest/idempotency.ts).
 */
export function joinWriteTransactions<T>(hook: TransactionHook, run: () => T): T {
  return transactionHooks.run(hook, run);
}

/**
 * Runs a write in one transaction and, once it has committed, announces the events it recorded, so the followers of
 * the log (subscriptions, webhooks) read them at once. Events of a rolled-back write are never stored.
 */
export async function writeTransaction<T>(work: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  const recorded: CommitNotice[] = [];
  const tasks: (() => Promise<void>)[] = [];
  const hook = transactionHooks.getStore();
  const result = await db().$transaction(async (tx) => {
    eventsOfTransaction.set(tx, recorded);
    tasksAfterCommit.set(tx, tasks);
    const value = await work(tx);
    await hook?.(tx);
    return value;
  });
  announceCommit(recorded);
  for (const task of tasks) await task().catch(() => {});
  return result;
}

/**
 * The realms that contain an event's object, as stored in `ancestors`: the realm it is filed in, and its building,
 * school and district. A group created in a school is heard by the school's and the district's subscribers; a
 * building (filed in its own realm) by its school's and district's.
 */
export function containingRealms(realm: RealmRef, scope: DomainEventInput<unknown>['scope']): string[] {
  return [...new Set([realmKey(realm), ...scopeRealms(scope)])];
}

/** The building, school and district of a scope, as `ancestors` names them, each once. */
function scopeRealms(scope: DomainEventInput<unknown>['scope']): string[] {
  const realms = [];
  if (scope.buildingId != null) realms.push(realmKey({ type: 'SCHOOL', id: scope.buildingId }));
  if (scope.schoolId !== null) realms.push(realmKey({ type: 'SCHOOL', id: scope.schoolId }));
  if (scope.districtId !== null) realms.push(realmKey({ type: 'DISTRICT', id: scope.districtId }));
  return [...new Set(realms)];
}

/**
 * Records a domain event of a catalogued kind inside the transaction of the change it describes, so a rolled-back
 * change leaves no event and a committed one always has its event. Readers follow the stream with
 * readCommittedEvents (stream.ts).
 */
export async function recordEvent<Data extends Prisma.InputJsonObject>(
  tx: Prisma.TransactionClient,
  kind: EventKind,
  event: DomainEventInput<Data>,
): Promise<void> {
  const recorded = eventsOfTransaction.get(tx);
  if (!recorded) throw new Error('recordEvent must run inside writeTransaction');
  assertCatalogued(kind, event.realm.type, event.data ?? {});
  const ancestors = containingRealms(event.realm, event.scope);
  const row = await tx.domainEvent.create({
    data: {
      type: kind.type,
      realmType: event.realm.type,
      realmId: event.realm.id,
      objectId: event.objectId,
      actorId: event.actorId,
      districtId: event.scope.districtId,
      schoolId: event.scope.schoolId,
      ancestors: { set: ancestors },
      data: event.data ?? {},
    },
    select: { id: true },
  });
  recorded.push({ id: String(row.id), ancestors });
}

/** The event a one-statement create records about its new row, which is the realm the event is filed in. */
export interface CreatedRealmEvent {
  kind: EventKind;
  realmType: RealmType;
  actorId: number | null;
  scope: DomainEventInput<unknown>['scope'];
  data?: Prisma.InputJsonObject;
}

/** What `createInOneStatement` writes: the new row's INSERT, the INSERTs that go with it, and its event. */
export interface OneStatementCreate {
  /** `INSERT ... RETURNING` the new row, with its `id` (insertReturning). */
  insert: Prisma.Sql;
  /** INSERTs of rows that come with the new one (its creator's membership), reading it from `created`. */
  alongside: Prisma.Sql[];
  event: CreatedRealmEvent;
}

/**
 * Creates a row, the rows that come with it and its domain event in one statement: one round trip, where
 * writeTransaction takes one per row plus BEGIN and COMMIT (a group's create cost twice the CPU that way). It is as
 * atomic, since a statement commits whole or not at all, and its event is announced once it has. It runs in a
 * transaction only when something must commit with it: an Idempotency-Key's claim (joinWriteTransactions), or
 * `within`, which reads what the answer needs inside it, so that the answer of a committed create cannot fail.
 */
export async function createInOneStatement<Row extends { id: number }, Result = Row>(
  create: OneStatementCreate,
  within?: (tx: Prisma.TransactionClient, row: Row) => Promise<Result>,
): Promise<Result> {
  const { kind, realmType, actorId, scope, data = {} } = create.event;
  assertCatalogued(kind, realmType, data);
  const scopeKeys = scopeRealms(scope);
  // The new row's own realm key is made in the statement, from the id it gets there (realmKey's `<type>:<id>`).
  const event = Prisma.sql`INSERT INTO domain_events (type, "realmType", "realmId", "objectId", "actorId", "districtId", "schoolId", ancestors, data, "createdAt")
    SELECT ${kind.type}, ${realmType}::"RealmType", created.id, created.id, ${actorId}::int4, ${scope.districtId}::int4, ${scope.schoolId}::int4,
      ARRAY[${`${realmType}:`}::text || created.id] || ${scopeKeys}::text[], ${JSON.stringify(data)}::jsonb,
      ${new Date().toISOString()}::timestamp(3)
    FROM created RETURNING id`;
  const parts = [
    Prisma.sql`created AS (${create.insert})`,
    ...create.alongside.map((insert, index) => Prisma.sql`${Prisma.raw(`alongside_${index}`)} AS (${insert})`),
    Prisma.sql`event AS (${event})`,
  ];
  const statement = Prisma.sql`WITH ${Prisma.join(parts, ',\n')} SELECT created.*, event.id::text AS "eventId" FROM created, event`;
  type Written = Row & { eventId?: string };
  const hook = transactionHooks.getStore();
  const [row, result] =
    within || hook
      ? await db().$transaction(async (tx) => {
          const [written] = await tx.$queryRaw<Written[]>(statement);
          const answer = within ? await within(tx, written!) : written;
          await hook?.(tx);
          return [written!, answer];
        })
      : await directQuery<Written>(statement.text, statement.values).then(([written]) => [written!, written]);
  const eventId = row.eventId!;
  delete row.eventId;
  announceCommit([{ id: eventId, ancestors: containingRealms({ type: realmType, id: row.id }, scope) }]);
  return result as Result;
}
