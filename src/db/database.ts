import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlQuery } from '@prisma/driver-adapter-utils';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient } from '../generated/prisma/client';
import { traceStatement } from '../ops/tracing';
import { lockDataDir } from './data-dir-lock';
import { timeStatement } from '../ops/metrics';
import { applyMigrations, pendingMigrations, pgClientSession, pgliteSession, type SqlSession } from './migrate';

export const migrationsDir = fileURLToPath(new URL('../../prisma/migrations', import.meta.url));

type AdapterFactory = ConstructorParameters<typeof PrismaClient>[0] extends { adapter?: infer A }
  ? NonNullable<A>
  : never;

export interface Database {
  prisma: PrismaClient;
  kind: 'pglite' | 'postgresql';
  /** SQL statements sent since start; tests and the benchmark read it to catch N+1 queries. */
  readonly statementCount: number;
  /**
   * The SQL of the statements `work` sends itself, leaving out what runs beside it meanwhile (the event follower's
   * reads), for tests that count or read a request's statements while background work goes on.
   */
  statementsOf(work: () => Promise<unknown>): Promise<string[]>;
  /** See `directQuery`. */
  directQuery<Row>(sql: string, params: unknown[]): Promise<Row[]>;
  /** The PostgreSQL pool's connections (all, idle) and the checkouts waiting for one; null on PGlite, which has none. */
  poolUsage(): { total: number; idle: number; waiting: number } | null;
  migrate(log?: (message: string) => void): Promise<string[]>;
  pendingMigrations(): Promise<string[]>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgresql:// URL; the embedded PGlite in dataDir when null. `memory://` keeps PGlite in memory. */
  databaseUrl: string | null;
  dataDir: string;
  /** Told when PostgreSQL drops an idle pooled connection (restart, failover); the pool reconnects by itself. */
  onConnectionError?: (error: Error) => void;
  /**
   * PostgreSQL's `statement_timeout` for the pool's connections (QUERY_TIMEOUT): the server itself cancels a statement
   * that outlives the request's deadline. Migrations lift it. PGlite runs in this process and has no cancellation.
   */
  statementTimeoutMs?: number;
  /**
   * An in-memory embedded database starts as a copy of this data directory (PGlite's `dumpDataDir`, uncompressed)
   * instead of running initdb: the test suite gives every file a copy of one migrated database.
   */
  pgliteTemplate?: Blob;
}

/**
 * Hands `onStatement` every statement at the driver-adapter boundary, which sees every query Prisma sends (its text,
 * values and their types), inside transactions too: what counts them here and what tests record.
 */
export function observedAdapter(factory: AdapterFactory, onStatement: (query: SqlQuery) => void): AdapterFactory {
  const observe = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(object, property, receiver) {
        const value = Reflect.get(object, property, receiver);
        if (typeof value !== 'function') return value;
        if (property === 'queryRaw' || property === 'executeRaw') {
          return (...args: unknown[]) => {
            onStatement(args[0] as SqlQuery);
            return timeStatement(traceStatement((args[0] as SqlQuery).sql, () => value.apply(object, args)));
          };
        }
        if (property === 'connect' || property === 'startTransaction') {
          return async (...args: unknown[]) => observe(await value.apply(object, args));
        }
        return value.bind(object);
      },
    });
  return observe(factory);
}

/**
 * Prisma reads a `timestamp` column (without time zone, as Prisma creates `DateTime`) as UTC; so do direct statements,
 * whatever the process's time zone (pg's own parser reads it as local time).
 */
const utcTimestamps = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.TIMESTAMP
      ? (text: string) => new Date(`${text.replace(' ', 'T')}Z`)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

let current: Database | null = null;

/** The process's database. One process serves one database, so the Pothos builder and services share this handle. */
export const db = (): PrismaClient => openedDatabase().prisma;

/** The process's open database, for a reader that must go on reading the one it started on (the log's follower). */
export function openedDatabase(): Database {
  if (!current) throw new Error('database is not open: call openDatabase() first');
  return current;
}

/** How many texts `directQuery` prepares on each PostgreSQL connection at most. */
export const maxNamedStatements = 200;

/**
 * One statement outside any transaction, for the few that every request of a kind sends (a list's total, a district
 * administrator's first pages of groups, an OAuth nonce, a group's create). On PostgreSQL it goes to the pool's driver
 * directly: Prisma's raw path costs three to four times the CPU of the statement itself (0.23 ms against 0.06 for a
 * list's total). There each text is a named prepared statement (the first `maxNamedStatements` texts): PostgreSQL parses
 * it once per connection and, after five executions, plans it once too (planning the first page's statement cost
 * PostgreSQL 0.37 ms of CPU, running it 0.1). PGlite is one connection that Prisma's open transactions hold, so there it
 * goes through Prisma.
 */
export function directQuery<Row>(sql: string, params: unknown[]): Promise<Row[]> {
  return openedDatabase().directQuery<Row>(sql, params);
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (current) throw new Error('a database is already open in this process');
  let statements = 0;
  const recorded = new AsyncLocalStorage<string[]>();
  const count = (sql: string) => {
    statements++;
    recorded.getStore()?.push(sql);
  };

  let prisma: PrismaClient;
  let withSession: <T>(fn: (session: SqlSession) => Promise<T>) => Promise<T>;
  let closeDriver: () => Promise<void>;
  let directQuery: <Row>(sql: string, params: unknown[]) => Promise<Row[]>;
  let poolUsage: Database['poolUsage'] = () => null;

  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      statement_timeout: options.statementTimeoutMs,
    });
    // Prisma's adapter listens for dropped idle connections only while connected; without a listener for the pool's
    // whole life, a connection the server terminates during shutdown would crash the process.
    const connectionLost =
      options.onConnectionError ?? ((error: Error) => console.warn(`database connection lost: ${error.message}`));
    pool.on('error', connectionLost);
    // The pool listens only to its idle connections: one checked out (a transaction between its statements) that the
    // server ends would emit an error nobody hears, which crashes the process. Its statement fails on its own.
    pool.on('connect', (client) => client.on('error', connectionLost));
    prisma = new PrismaClient({ adapter: observedAdapter(new PrismaPg(pool), ({ sql }) => count(sql)) });
    withSession = async (fn) => {
      const client = await pool.connect();
      try {
        // A migration may rewrite a large table; it is not a request and has no deadline.
        if (options.statementTimeoutMs) await client.query('SET statement_timeout = 0');
        return await fn(pgClientSession(client));
      } finally {
        if (options.statementTimeoutMs) await client.query('RESET statement_timeout').catch(() => {});
        client.release();
      }
    };
    closeDriver = () => pool.end();
    poolUsage = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
    // The texts are the code's own, but a create's also has the columns its input gives (insertReturning): past this
    // many, a text goes unnamed rather than stay prepared on every connection for good.
    const statementNames = new Map<string, string>();
    directQuery = async <Row>(sql: string, params: unknown[]) => {
      count(sql);
      let name = statementNames.get(sql);
      if (!name && statementNames.size < maxNamedStatements)
        statementNames.set(sql, (name = `lectern_${statementNames.size}`));
      const result = await timeStatement(
        traceStatement(sql, () => pool.query({ name, text: sql, values: params, types: utcTimestamps })),
      );
      return result.rows as Row[];
    };
  } else {
    const inMemory = options.dataDir === 'memory://';
    let unlock = () => {};
    if (!inMemory) {
      mkdirSync(options.dataDir, { recursive: true });
      unlock = lockDataDir(options.dataDir);
    }
    let pglite: PGlite;
    try {
      pglite = await PGlite.create(
        inMemory ? { loadDataDir: options.pgliteTemplate } : { dataDir: `${options.dataDir}/pglite` },
      );
    } catch (error) {
      unlock();
      throw error;
    }
    prisma = new PrismaClient({ adapter: observedAdapter(new PrismaPGlite(pglite), ({ sql }) => count(sql)) });
    withSession = (fn) => fn(pgliteSession(pglite));
    directQuery = <Row>(sql: string, params: unknown[]) => prisma.$queryRawUnsafe<Row[]>(sql, ...params);
    closeDriver = async () => {
      await pglite.close();
      unlock();
    };
  }

  const database: Database = {
    prisma,
    kind: options.databaseUrl ? 'postgresql' : 'pglite',
    get statementCount() {
      return statements;
    },
    directQuery,
    poolUsage,
    async statementsOf(work) {
      const sent: string[] = [];
      await recorded.run(sent, work);
      return sent;
    },
    migrate: (log) => withSession(async (session) => (await applyMigrations(session, migrationsDir, log)).applied),
    pendingMigrations: () => withSession((session) => pendingMigrations(session, migrationsDir)),
    async close() {
      await prisma.$disconnect();
      await closeDriver();
      if (current === database) current = null;
    },
  };
  current = database;
  return database;
}
