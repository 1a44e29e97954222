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

/** An item of `itemByItem` whose write transaction is about to commit, with what that transaction returned. */
export interface ItemWrite {
  batch: number;
  index: number;
  value: unknown;
}

/** What joins the write transactions of one operation: an Idempotency-Key's claim (src/rest/idempotency.ts). */
export interface WriteJoin {
  /**
   * Runs in each write transaction before it commits; `items` lists the items of itemByItem (one) or of
   * writeItemsTogether (any number) that the transaction writes and that are to be recorded (startBatch gave their
   * batch); empty otherwise.
   */
  beforeCommit(tx: Prisma.TransactionClient, items: readonly ItemWrite[]): Promise<void>;
  /**
   * Starts the operation's next item-by-item write: its number and the values its items recorded in an earlier run
   * cut short, by index; null when this operation does not record items.
   */
  startBatch(): Promise<{ batch: number; recorded: Map<number, unknown> } | null>;
}

const writeJoins = new AsyncLocalStorage<WriteJoin>();
/** The item of itemByItem running; `batch` is null when the operation records no items. */
const currentItem = new AsyncLocalStorage<{ batch: number | null; index: number; committed: boolean }>();

/** Runs `run` so that every write transaction it starts runs the join's `beforeCommit` before committing. */
export function joinWriteTransactions<T>(join: WriteJoin, run: () => T): T {
  return writeJoins.run(join, run);
}

/** What every write transaction runs last, before it commits. */
async function beforeCommit(tx: Prisma.TransactionClient, value: unknown): Promise<void> {
  const item = currentItem.getStore();
  // A second write would commit after the item was recorded as written: a retry would skip it.
  if (item?.committed) throw new Error('an item of itemByItem commits at most one write transaction');
  const recorded = item && item.batch !== null ? [{ batch: item.batch, index: item.index, value }] : [];
  await writeJoins.getStore()?.beforeCommit(tx, recorded);
}

/** Marks the current item of itemByItem written, once its transaction has committed. */
function itemCommitted(): void {
  const item = currentItem.getStore();
  if (item) item.committed = true;
}

/** The items of one bulk write: its batch under an Idempotency-Key, and the values of the items an earlier run wrote. */
export interface BulkItems {
  batch: number | null;
  recorded: ReadonlyMap<number, unknown>;
}

/** Starts a bulk write: its items' batch, and what an earlier run of the same Idempotency-Key recorded of them. */
export async function startItems(): Promise<BulkItems> {
  return (await writeJoins.getStore()?.startBatch()) ?? { batch: null, recorded: new Map() };
}

/** Runs one item of a bulk write, which commits at most one write transaction of its own (recorded as the item). */
export function runItem<Result>(bulk: BulkItems, index: number, run: () => Promise<Result>): Promise<Result> {
  return currentItem.run({ batch: bulk.batch, index, committed: false }, run);
}

/**
 * Runs a bulk write item by item, each item committing at most one write transaction of its own (`run` answers the
 * item, `written` answers an item from the value its transaction returned). Under an Idempotency-Key that value is
 * recorded in the item's transaction, so that a retry of a write cut short (the process stopped, or a fault failed
 * the request) answers the items written as recorded and runs only the others: the write is finished, not repeated.
 */
export async function itemByItem<Item, Value, Result>(
  items: readonly Item[],
  run: (item: Item, index: number) => Promise<Result>,
  written: (value: Value) => Result,
): Promise<Result[]> {
  const bulk = await startItems();
  const results: Result[] = [];
  for (const [index, item] of items.entries()) {
    if (bulk.recorded.has(index)) results.push(written(bulk.recorded.get(index) as Value));
    else results.push(await runItem(bulk, index, () => run(item, index)));
  }
  return results;
}

/**
 * Writes several items of a bulk write in one transaction (a few multi-row statements per call, where itemByItem
 * takes a transaction per item): `work` answers the value of each item it wrote, by index, and under an
 * Idempotency-Key each is recorded in the same transaction, so a retry answers them as recorded. The items commit
 * together or not at all.
 */
export async function writeItemsTogether<Value>(
  bulk: BulkItems,
  work: (tx: Prisma.TransactionClient) => Promise<Map<number, Value>>,
): Promise<Map<number, Value>> {
  const recorded: CommitNotice[] = [];
  const result = await db().$transaction(async (tx) => {
    eventsOfTransaction.set(tx, recorded);
    tasksAfterCommit.set(tx, []);
    const values = await work(tx);
    const items =
      bulk.batch === null ? [] : [...values].map(([index, value]) => ({ batch: bulk.batch!, index, value }));
    await writeJoins.getStore()?.beforeCommit(tx, items);
    return values;
  });
  announceCommit(recorded);
  return result;
}

/**
 * Runs a write in one transaction and, once it has committed, announces the events it recorded, so the followers of
 * the log (subscriptions, webhooks) read them at once. Events of a rolled-back write are never stored.
 */
export async function writeTransaction<T>(work: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  const recorded: CommitNotice[] = [];
  const tasks: (() => Promise<void>)[] = [];
  const result = await db().$transaction(async (tx) => {
    eventsOfTransaction.set(tx, recorded);
    tasksAfterCommit.set(tx, tasks);
    const value = await work(tx);
    await beforeCommit(tx, value);
    return value;
  });
  itemCommitted();
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

/**
 * Records events of one kind in one multi-row INSERT inside the transaction of the changes they describe: the same
 * rows recordEvent writes, one statement for a bulk write's items.
 */
export async function recordEvents<Data extends Prisma.InputJsonObject>(
  tx: Prisma.TransactionClient,
  kind: EventKind,
  events: readonly DomainEventInput<Data>[],
): Promise<void> {
  const recorded = eventsOfTransaction.get(tx);
  if (!recorded) throw new Error('recordEvents must run inside writeTransaction or writeItemsTogether');
  if (!events.length) return;
  const rows = events.map((event) => {
    assertCatalogued(kind, event.realm.type, event.data ?? {});
    return {
      type: kind.type,
      realmType: event.realm.type,
      realmId: event.realm.id,
      objectId: event.objectId,
      actorId: event.actorId,
      districtId: event.scope.districtId,
      schoolId: event.scope.schoolId,
      ancestors: containingRealms(event.realm, event.scope),
      data: event.data ?? {},
    };
  });
  const written = await tx.domainEvent.createManyAndReturn({ data: rows, select: { id: true, objectId: true } });
  // RETURNING's order is not promised: each event is found again by its object (a bulk writes an object once).
  const ancestorsOf = new Map(rows.map((row) => [row.objectId, row.ancestors]));
  for (const row of written) recorded.push({ id: String(row.id), ancestors: ancestorsOf.get(row.objectId)! });
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
  const [row, result] =
    within || writeJoins.getStore()
      ? await db().$transaction(async (tx) => {
          const [written] = await tx.$queryRaw<Written[]>(statement);
          const answer = within ? await within(tx, written!) : written;
          await beforeCommit(tx, answer);
          return [written!, answer];
        })
      : await directQuery<Written>(statement.text, statement.values).then(([written]) => [written!, written]);
  itemCommitted();
  const eventId = row.eventId!;
  delete row.eventId;
  announceCommit([{ id: eventId, ancestors: containingRealms({ type: realmType, id: row.id }, scope) }]);
  return result as Result;
}
