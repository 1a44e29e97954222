import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  applyMigrations,
  pendingMigrations,
  pgClientSession,
  pgliteSession,
  type SqlSession,
} from '../../src/db/migrate';
import {
  defaultMigrationsDir,
  defaultSchemaPath,
  diffMigrationsToSchema,
  engineMigrationsList,
  noFilters,
  pgliteAdapterFactory,
  schemaDrift,
  withSchemaEngine,
} from '../../src/db/schema-diff';

// The wasm engine and fresh PGlite databases take seconds each.
const slow = { timeout: 300_000 };

describe('schema.prisma and prisma/migrations', slow, () => {
  it('agree (when not, run `npm run migration:create -- <name>` and commit the migration)', async () => {
    expect(await schemaDrift()).toBe(false);
  });

  it('disagree when the schema has a model that no migration creates', async () => {
    const schema = `${await readFile(defaultSchemaPath, 'utf8')}\nmodel DriftProbe {\n  id Int @id\n}\n`;
    const diff = await diffMigrationsToSchema({ schema });
    expect(diff.differs).toBe(true);
    expect(diff.sql).toContain('CREATE TABLE "DriftProbe"');
  });

  it('fail with the database error when a migration does not apply to the shadow database', async () => {
    const migrationsDir = await tempMigrations({ '0001_broken': 'SELECT * FROM no_such_table;' });
    await expect(diffMigrationsToSchema({ migrationsDir })).rejects.toThrow(
      /0001_broken[\s\S]*relation "no_such_table" does not exist/,
    );
  });
});

/** An empty database for one test, and a Prisma driver adapter on it to ask Prisma's engine about it. */
interface TestDatabase {
  session: SqlSession;
  prismaAdapter: SqlMigrationAwareDriverAdapterFactory;
}

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const tempDirs: string[] = [];
afterAll(() => Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true }))));

/** A migrations folder with the given migration.sql files, named by their folders. */
async function tempMigrations(scripts: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'lectern-migrations-'));
  tempDirs.push(dir);
  await writeFile(path.join(dir, 'migration_lock.toml'), 'provider = "postgresql"\n');
  for (const [name, sql] of Object.entries(scripts)) {
    await mkdir(path.join(dir, name));
    await writeFile(path.join(dir, name, 'migration.sql'), sql);
  }
  return dir;
}

async function migrationNames(migrationsDir: string): Promise<string[]> {
  const entries = await readdir(migrationsDir, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

function prismaMigrationStatus(db: TestDatabase, migrationsDir: string) {
  return withSchemaEngine(db.prismaAdapter, async (engine) =>
    engine.diagnoseMigrationHistory({
      migrationsList: await engineMigrationsList(migrationsDir),
      optInToShadowDatabase: false,
      filters: noFilters,
    }),
  );
}

function runnerSuite(openDatabase: () => Promise<TestDatabase>) {
  const dir = defaultMigrationsDir;

  it('applies every migration once, recorded as Prisma records them', async () => {
    const db = await openDatabase();
    const names = await migrationNames(dir);
    expect(names.length).toBeGreaterThan(0);

    expect(await pendingMigrations(db.session, dir)).toEqual(names);
    expect(await applyMigrations(db.session, dir)).toEqual({ applied: names });
    expect(await applyMigrations(db.session, dir)).toEqual({ applied: [] });
    expect(await pendingMigrations(db.session, dir)).toEqual([]);

    const { rows } = await db.session.query(
      `SELECT id, migration_name, checksum, finished_at, rolled_back_at, applied_steps_count, logs
         FROM _prisma_migrations ORDER BY migration_name`,
    );
    const expected = names.map(async (name) => ({
      id: expect.stringMatching(UUID_V4),
      migration_name: name,
      checksum: sha256(await readFile(path.join(dir, name, 'migration.sql'))),
      finished_at: expect.any(Date),
      rolled_back_at: null,
      applied_steps_count: 1,
      logs: null,
    }));
    expect(rows).toEqual(await Promise.all(expected));

    expect(await prismaMigrationStatus(db, dir)).toEqual({
      history: null,
      failedMigrationNames: [],
      editedMigrationNames: [],
      hasMigrationsTable: true,
    });
  });

  it('creates _prisma_migrations exactly as Prisma does', async () => {
    const db = await openDatabase();
    await applyMigrations(db.session, await tempMigrations({}));
    const { rows } = await db.session.query(
      `SELECT column_name, data_type, character_maximum_length AS length, is_nullable, column_default
         FROM information_schema.columns WHERE table_name = '_prisma_migrations' ORDER BY ordinal_position`,
    );
    const column = (name: string, type: string, length: number | null, nullable: boolean, def: string | null) => ({
      column_name: name,
      data_type: type,
      length,
      is_nullable: nullable ? 'YES' : 'NO',
      column_default: def,
    });
    expect(rows).toEqual([
      column('id', 'character varying', 36, false, null),
      column('checksum', 'character varying', 64, false, null),
      column('finished_at', 'timestamp with time zone', null, true, null),
      column('migration_name', 'character varying', 255, false, null),
      column('logs', 'text', null, true, null),
      column('rolled_back_at', 'timestamp with time zone', null, true, null),
      column('started_at', 'timestamp with time zone', null, false, 'now()'),
      column('applied_steps_count', 'integer', null, false, '0'),
    ]);
  });

  it('counts migrations applied by Prisma as applied', async () => {
    const db = await openDatabase();
    const { appliedMigrationNames } = await withSchemaEngine(db.prismaAdapter, async (engine) =>
      engine.applyMigrations({ migrationsList: await engineMigrationsList(dir), filters: noFilters }),
    );
    expect(appliedMigrationNames).toEqual(await migrationNames(dir));
    expect(await pendingMigrations(db.session, dir)).toEqual([]);
    expect(await applyMigrations(db.session, dir)).toEqual({ applied: [] });
  });

  it('records a failed migration and applies nothing more until it is resolved', async () => {
    const db = await openDatabase();
    const failing = await tempMigrations({
      '0001_create_a': 'CREATE TABLE a (id int);',
      '0002_broken': 'CREATE TABLE b (id int);\nSELECT * FROM no_such_table;',
      '0003_create_c': 'CREATE TABLE c (id int);',
    });

    await expect(applyMigrations(db.session, failing)).rejects.toThrow(/Migration 0002_broken failed: .*no_such_table/);
    const { rows } = await db.session.query(
      `SELECT migration_name, finished_at IS NOT NULL AS finished, applied_steps_count, logs,
              to_regclass('b') IS NOT NULL AS b_exists
         FROM _prisma_migrations ORDER BY migration_name`,
    );
    expect(rows).toEqual([
      { migration_name: '0001_create_a', finished: true, applied_steps_count: 1, logs: null, b_exists: false },
      {
        migration_name: '0002_broken',
        finished: false,
        applied_steps_count: 0,
        logs: expect.stringContaining('no_such_table'),
        b_exists: false, // the migration's transaction was rolled back
      },
    ]);
    expect((await prismaMigrationStatus(db, failing)).failedMigrationNames).toEqual(['0002_broken']);

    await expect(applyMigrations(db.session, failing)).rejects.toThrow(
      /0002_broken started at .* failed[\s\S]*migrate resolve --rolled-back/,
    );
    expect(await pendingMigrations(db.session, failing)).toEqual(['0002_broken', '0003_create_c']);

    // The way out the error describes: mark it rolled back, fix it, start again.
    await db.session.query(
      `UPDATE _prisma_migrations SET rolled_back_at = now()
        WHERE migration_name IN ('0002_broken') AND finished_at IS NULL AND rolled_back_at IS NULL`,
    );
    await writeFile(path.join(failing, '0002_broken', 'migration.sql'), 'CREATE TABLE b (id int);');
    expect(await applyMigrations(db.session, failing)).toEqual({ applied: ['0002_broken', '0003_create_c'] });
  });

  it('gives the targets made before owners were kept the user who made them, as their create events recorded', async () => {
    const db = await openDatabase();
    const owners = '20261128185442_trigger_target_owner';
    const names = await migrationNames(dir);
    const before = await tempMigrations(
      Object.fromEntries(
        await Promise.all(
          names
            .filter((name) => name < owners)
            .map(async (name) => [name, await readFile(path.join(dir, name, 'migration.sql'), 'utf8')]),
        ),
      ),
    );
    await applyMigrations(db.session, before);
    const one = async (sql: string, params: unknown[]) =>
      (await db.session.query<{ id: number }>(sql, params)).rows[0]!.id;
    const district = await one(`INSERT INTO districts (title) VALUES ($1) RETURNING id`, ['District']);
    const school = await one(`INSERT INTO schools ("districtId", title) VALUES ($1, $2) RETURNING id`, [
      district,
      'School',
    ]);
    const maker = await one(
      `INSERT INTO users ("schoolId", username, "nameFirst", "nameLast", role) VALUES ($1, 'maker', 'Ada', 'Admin', 'SCHOOL_ADMIN') RETURNING id`,
      [school],
    );
    const target = async () =>
      one(
        `INSERT INTO trigger_targets ("schoolId", url, secret) VALUES ($1, 'https://receiver.test/hook', 'sealed') RETURNING id`,
        [school],
      );
    const [made, unrecorded, madeByGone] = [await target(), await target(), await target()];
    const created = `INSERT INTO domain_events (type, "realmType", "realmId", "objectId", "actorId") VALUES ('trigger_target.create', 'SCHOOL', $1, $2, $3) RETURNING id`;
    await one(created, [school, made, maker]);
    await one(created, [school, madeByGone, 2_000_000_000]);

    expect(await applyMigrations(db.session, dir)).toEqual({ applied: names.filter((name) => name >= owners) });
    const { rows } = await db.session.query<{ id: number; ownerId: number | null }>(
      `SELECT id, "ownerId" FROM trigger_targets ORDER BY id`,
    );
    expect(rows).toEqual([
      { id: made, ownerId: maker },
      { id: unrecorded, ownerId: null },
      { id: madeByGone, ownerId: null },
    ]);
  });

  it('warns about an applied migration whose file changed, but not about changed line endings', async () => {
    const db = await openDatabase();
    const edited = await tempMigrations({ '0001_create_a': 'CREATE TABLE a (id int);\nCREATE TABLE b (id int);\n' });
    await applyMigrations(db.session, edited);
    const file = path.join(edited, '0001_create_a', 'migration.sql');
    const warnings = async () => {
      const log: string[] = [];
      expect(await applyMigrations(db.session, edited, (msg) => log.push(msg))).toEqual({ applied: [] });
      return log;
    };

    await writeFile(file, 'CREATE TABLE a (id int);\r\nCREATE TABLE b (id int);\r\n');
    expect(await warnings()).toEqual([]);
    await writeFile(file, 'CREATE TABLE a (id bigint);\n');
    expect(await warnings()).toEqual([expect.stringMatching(/0001_create_a was modified after it was applied/)]);
  });
}

describe('migration runner on PGlite', slow, () => {
  // Cloning an empty database is faster than initialising a new one for each test.
  const template = PGlite.create();
  const opened: PGlite[] = [];
  afterAll(async () => {
    await Promise.all(opened.map((db) => db.close()));
    await (await template).close();
  });

  runnerSuite(async () => {
    const db = (await (await template).clone()) as PGlite;
    opened.push(db);
    return { session: pgliteSession(db), prismaAdapter: pgliteAdapterFactory(db, () => PGlite.create()) };
  });
});

const serverUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!serverUrl)('migration runner on PostgreSQL (TEST_DATABASE_URL)', slow, () => {
  const created: { name: string; client: pg.Client }[] = [];
  let admin: pg.Client | undefined;
  afterAll(async () => {
    await Promise.all(created.map(({ client }) => client.end()));
    for (const { name } of created) await admin?.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin?.end();
  });

  runnerSuite(async () => {
    if (!admin) {
      admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
    }
    const name = `lectern_migrations_test_${process.pid}_${Date.now()}_${created.length}`;
    await admin.query(`CREATE DATABASE "${name}"`);
    const url = new URL(serverUrl!);
    url.pathname = `/${name}`;
    const client = new pg.Client({ connectionString: url.toString() });
    created.push({ name, client });
    await client.connect();
    return { session: pgClientSession(client), prismaAdapter: new PrismaPg({ connectionString: url.toString() }) };
  });
});
