// Applies prisma/migrations with the semantics of `prisma migrate deploy`, without Prisma's native schema engine
// (which cannot be downloaded offline). It keeps Prisma's own bookkeeping (the `_prisma_migrations` table, its
// checksums, ids and advisory lock), so Prisma's tooling sees a database migrated here as up to date and the other
// way round.
import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';

/** One database connection: the advisory lock and the transactions below belong to the session. */
export interface SqlSession {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  /** Runs a script that may contain several statements. */
  exec(sql: string): Promise<void>;
}

/** PGlite is a single connection: migrate before anything else uses it, or its queries join the transactions. */
export function pgliteSession(db: PGlite): SqlSession {
  return {
    async query<T>(sql: string, params?: unknown[]) {
      const { rows } = await db.query<T>(sql, params);
      return { rows };
    },
    async exec(sql: string) {
      await db.exec(sql);
    },
  };
}

export function pgClientSession(client: pg.Client | pg.PoolClient): SqlSession {
  return {
    async query<T>(sql: string, params?: unknown[]) {
      const { rows } = await client.query(sql, params);
      return { rows: rows as T[] };
    },
    async exec(sql: string) {
      // Without parameters pg uses the simple query protocol, which accepts several statements.
      await client.query(sql);
    },
  };
}

export interface MigrationFile {
  /** The folder name, `<YYYYMMDDHHMMSS>_<name>`; Prisma records it as migration_name. */
  name: string;
  sql: string;
  /** sha256 of migration.sql's bytes in lowercase hex, as Prisma computes it. */
  checksum: string;
}

/** The migration folders of `migrationsDir` in the order Prisma applies them. */
export async function readMigrations(migrationsDir: string): Promise<MigrationFile[]> {
  const entries = await readdir(migrationsDir, { withFileTypes: true });
  // Prisma's CLI orders the folders with localeCompare; the same order keeps both tools in step.
  const folders = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort((a, b) => a.localeCompare(b));
  return Promise.all(
    folders.map(async (name) => {
      const file = path.join(migrationsDir, name, 'migration.sql');
      const bytes = await readFile(file).catch((error: Error) => {
        throw new Error(`Migration folder ${name} has no readable migration.sql (${file}): ${error.message}`);
      });
      return { name, sql: bytes.toString('utf8'), checksum: createHash('sha256').update(bytes).digest('hex') };
    }),
  );
}

// The key Prisma Migrate locks with, so this runner and `prisma migrate` never apply migrations at the same time.
const MIGRATE_LOCK_KEY = 72707369;

// Prisma's DDL for PostgreSQL, column for column; IF NOT EXISTS only makes the creation idempotent.
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS _prisma_migrations (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
);`;

interface MigrationRecord {
  migration_name: string;
  checksum: string;
  started_at: Date;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  logs: string | null;
}

async function migrationRecords(session: SqlSession): Promise<MigrationRecord[]> {
  const { rows } = await session.query<MigrationRecord>(
    `SELECT migration_name, checksum, started_at, finished_at, rolled_back_at, logs
       FROM _prisma_migrations ORDER BY started_at`,
  );
  return rows;
}

const isApplied = (record: MigrationRecord) => record.finished_at !== null && record.rolled_back_at === null;
const isFailed = (record: MigrationRecord) => record.finished_at === null && record.rolled_back_at === null;

/**
 * Applies the migrations of `migrationsDir` that the database has not applied yet, each in its own transaction.
 * `log` receives progress and warnings (edited migrations); pass the server's logger.
 */
export async function applyMigrations(
  session: SqlSession,
  migrationsDir: string,
  log: (msg: string) => void = () => {},
): Promise<{ applied: string[] }> {
  const migrations = await readMigrations(migrationsDir);
  await acquireMigrateLock(session, log);
  try {
    await session.exec(CREATE_MIGRATIONS_TABLE);
    const records = await migrationRecords(session);
    const failed = records.filter(isFailed);
    if (failed.length > 0) throw new Error(failedMigrationsMessage(failed));
    warnAboutEditedMigrations(migrations, records, log);

    // Like Prisma, a migration counts as done when any record of it is not rolled back.
    const done = new Set(records.filter((r) => r.rolled_back_at === null).map((r) => r.migration_name));
    const applied: string[] = [];
    for (const migration of migrations.filter((m) => !done.has(m.name))) {
      log(`applying migration ${migration.name}`);
      await applyMigration(session, migration, log);
      applied.push(migration.name);
    }
    return { applied };
  } finally {
    // A session that ends releases the lock anyway, so failing to unlock must not hide the real outcome.
    await session
      .query(`SELECT pg_advisory_unlock(${MIGRATE_LOCK_KEY})`)
      .catch((error: Error) => log(`could not release the migration lock: ${error.message}`));
  }
}

/** Names of the migrations in `migrationsDir` that the database has not applied (all of them on a new database). */
export async function pendingMigrations(session: SqlSession, migrationsDir: string): Promise<string[]> {
  const migrations = await readMigrations(migrationsDir);
  const { rows } = await session.query<{ present: boolean }>(
    `SELECT to_regclass('_prisma_migrations') IS NOT NULL AS present`,
  );
  if (!rows[0]?.present) return migrations.map((m) => m.name);
  const applied = new Set((await migrationRecords(session)).filter(isApplied).map((r) => r.migration_name));
  return migrations.filter((m) => !applied.has(m.name)).map((m) => m.name);
}

async function acquireMigrateLock(session: SqlSession, log: (msg: string) => void): Promise<void> {
  const { rows } = await session.query<{ locked: boolean }>(
    `SELECT pg_try_advisory_lock(${MIGRATE_LOCK_KEY}) AS locked`,
  );
  if (rows[0]?.locked) return;
  // Another instance (or `prisma migrate`) is migrating; its migrations are done when we get the lock.
  log('another process is applying migrations; waiting for it to finish');
  await session.query(`SELECT pg_advisory_lock(${MIGRATE_LOCK_KEY})`);
}

async function applyMigration(session: SqlSession, migration: MigrationFile, log: (msg: string) => void) {
  const id = randomUUID();
  // The record is written before the transaction, as Prisma does, so that a failure stays recorded.
  await session.query(
    `INSERT INTO _prisma_migrations (id, checksum, started_at, migration_name) VALUES ($1, $2, now(), $3)`,
    [id, migration.checksum, migration.name],
  );
  try {
    // Scripts Prisma generates for enum changes carry their own BEGIN/COMMIT: PostgreSQL only warns about the nesting,
    // and their COMMIT ends this transaction early, which leaves the same outcome as under `prisma migrate deploy`.
    await session.exec('BEGIN');
    await session.exec(migration.sql);
    // clock_timestamp(): now() would be the time the transaction began.
    await session.query(
      `UPDATE _prisma_migrations SET finished_at = clock_timestamp(), applied_steps_count = applied_steps_count + 1
        WHERE id = $1`,
      [id],
    );
    await session.exec('COMMIT');
  } catch (error) {
    await recordFailure(session, id, error).catch((recordError: Error) =>
      log(`could not record the failure of migration ${migration.name}: ${recordError.message}`),
    );
    throw new Error(`Migration ${migration.name} failed: ${describeError(error)}`, { cause: error });
  }
}

async function recordFailure(session: SqlSession, id: string, error: unknown): Promise<void> {
  await session.exec('ROLLBACK');
  await session.query(`UPDATE _prisma_migrations SET logs = $1 WHERE id = $2`, [describeError(error), id]);
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // Both pg and PGlite raise PostgreSQL's error fields on the error object.
  const { code, detail, hint } = error as Error & { code?: string; detail?: string; hint?: string };
  const message = code ? `${error.message} (PostgreSQL error ${code})` : error.message;
  return [message, detail && `Detail: ${detail}`, hint && `Hint: ${hint}`].filter(Boolean).join('\n');
}

function failedMigrationsMessage(failed: MigrationRecord[]): string {
  const details = failed.map((record) => {
    const logs = record.logs?.trim() ? ` with these logs:\n${record.logs.trim()}` : '';
    return `The migration ${record.migration_name} started at ${record.started_at.toISOString()} failed${logs}`;
  });
  const names = failed.map((r) => `'${r.migration_name}'`).join(', ');
  return [
    'Found failed migrations in the database; no further migrations will be applied.',
    ...details,
    'To continue, inspect the database and either undo what the failed migration changed (it ran in a transaction,',
    'so usually nothing) and mark it rolled back so that it is retried on the next start, or finish it by hand and',
    'mark it applied. With the Prisma CLI: `npx prisma migrate resolve --rolled-back <name>` or `--applied <name>`;',
    'without it: UPDATE _prisma_migrations SET rolled_back_at = now()',
    `  WHERE migration_name IN (${names}) AND finished_at IS NULL AND rolled_back_at IS NULL;`,
  ].join('\n');
}

function warnAboutEditedMigrations(
  migrations: MigrationFile[],
  records: MigrationRecord[],
  log: (msg: string) => void,
): void {
  const byName = new Map(migrations.map((m) => [m.name, m]));
  for (const record of records.filter(isApplied)) {
    const migration = byName.get(record.migration_name);
    if (migration && !matchesChecksum(migration.sql, record.checksum)) {
      log(
        `warning: migration ${record.migration_name} was modified after it was applied ` +
          '(its checksum differs from the database); the changes are not applied',
      );
    }
  }
}

// Prisma's comparison: a checksum still matches after a change of line endings (git on Windows), and records written
// by old Prisma versions have hex bytes without zero padding.
function matchesChecksum(sql: string, recorded: string): boolean {
  const variants = [sql, sql.replaceAll('\r\n', '\n'), sql.replaceAll('\n', '\r\n')];
  return variants.some((variant) => {
    const digest = createHash('sha256').update(variant, 'utf8').digest();
    const rendered =
      recorded.length === 64 ? digest.toString('hex') : Array.from(digest, (byte) => byte.toString(16)).join('');
    return rendered === recorded;
  });
}
