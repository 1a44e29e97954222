// Prisma's schema engine as WebAssembly, for work that needs it offline: the SQL of the next migration (the diff from
// prisma/migrations to prisma/schema.prisma) and whether the two disagree. For scripts and tests only: it loads a
// 5 MB engine and in-memory PGlite databases, so the server must not import it.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import * as engineGlue from '@prisma/schema-engine-wasm/schema_engine_bg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { readMigrations } from './migrate';

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
export const defaultSchemaPath = path.join(projectRoot, 'prisma', 'schema.prisma');
export const defaultMigrationsDir = path.join(projectRoot, 'prisma', 'migrations');

let engineModule: Promise<typeof engineGlue> | undefined;

/**
 * The engine's wasm-bindgen glue, wired to its WebAssembly module. The package's own entry point imports the .wasm
 * file as an ES module, which Node only allows with --experimental-wasm-modules; instantiating it here needs no flag.
 */
export function loadSchemaEngine(): Promise<typeof engineGlue> {
  engineModule ??= (async () => {
    const gluePath = createRequire(import.meta.url).resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const wasmBytes = await readFile(gluePath.replace(/\.js$/, '.wasm'));
    const { instance } = await WebAssembly.instantiate(wasmBytes, {
      './schema_engine_bg.js': engineGlue as unknown as WebAssembly.ModuleImports,
    });
    engineGlue.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return engineGlue;
  })();
  return engineModule;
}

export interface SchemaDiffInput {
  /** Schema text to compare with; read from `schemaPath` when absent. */
  schema?: string;
  schemaPath?: string;
  migrationsDir?: string;
}

export interface SchemaDiff {
  /** The SQL that takes a database from the migrations' state to the schema's (a comment only when they agree). */
  sql: string;
  differs: boolean;
}

/** Replays the migrations on an in-memory PGlite shadow database and diffs the result against the schema. */
export async function diffMigrationsToSchema(input: SchemaDiffInput = {}): Promise<SchemaDiff> {
  const schemaPath = input.schemaPath ?? defaultSchemaPath;
  const schema = input.schema ?? (await readFile(schemaPath, 'utf8'));
  const migrationsDir = input.migrationsDir ?? defaultMigrationsDir;
  const from = { tag: 'migrations' as const, ...(await engineMigrationsList(migrationsDir)) };

  // The engine opens a main connection although a diff only works on shadow databases; a clone of the untouched
  // main database is a quicker shadow than a new PGlite.
  const main = await PGlite.create();
  try {
    const adapterFactory = pgliteAdapterFactory(main, async () => (await main.clone()) as PGlite);
    const result = await withSchemaEngine(adapterFactory, (engine) =>
      engine.diff({
        from,
        to: { tag: 'schemaDatamodel', files: [{ path: schemaPath, content: schema }] },
        script: true,
        // With exitCode the engine answers 2 when there is a difference, 0 when there is none.
        exitCode: true,
        filters: noFilters,
      }),
    );
    return { sql: result.stdout ?? '', differs: result.exitCode === 2 };
  } finally {
    await main.close();
  }
}

/** Whether schema.prisma describes a database other than the one the migrations build. */
export async function schemaDrift(input: SchemaDiffInput = {}): Promise<boolean> {
  return (await diffMigrationsToSchema(input)).differs;
}

type SchemaEngine = engineGlue.SchemaEngine;

/** Entities the engine should leave alone: none. */
export const noFilters: engineGlue.SchemaFilter = { externalTables: [], externalEnums: [] };

/**
 * Runs `work` with a schema engine whose database is `adapterFactory`'s, e.g. to read Prisma's own view of a
 * database's migration history (engine.diagnoseMigrationHistory) or to apply migrations the way Prisma does.
 */
export async function withSchemaEngine<T>(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  work: (engine: SchemaEngine) => Promise<T>,
): Promise<T> {
  const { SchemaEngine } = await loadSchemaEngine();
  // The engine does not dispose the connections it opens (a pg pool would linger), so they are tracked here.
  const connections: SqlDriverAdapter[] = [];
  const track = (connection: SqlDriverAdapter) => {
    connections.push(connection);
    return connection;
  };
  const tracked = bindMigrationAwareSqlAdapterFactory({
    provider: adapterFactory.provider,
    adapterName: adapterFactory.adapterName,
    connect: async () => track(await adapterFactory.connect()),
    connectToShadowDb: async () => track(await adapterFactory.connectToShadowDb()),
  });
  try {
    const engine = await SchemaEngine.new({ datamodels: undefined }, () => {}, tracked);
    try {
      return await work(engine);
    } finally {
      engine.free();
    }
  } catch (error) {
    throw withAdapterErrors(error, tracked.errorRegistry);
  } finally {
    await Promise.all(connections.map((connection) => connection.dispose()));
  }
}

/** A migrations folder as the engine takes it (Prisma's CLI reads it the same way). */
export async function engineMigrationsList(migrationsDir: string): Promise<engineGlue.MigrationList> {
  const migrations = await readMigrations(migrationsDir);
  const lockfile = await readFile(path.join(migrationsDir, 'migration_lock.toml'), 'utf8').catch(() => null);
  return {
    baseDir: migrationsDir,
    lockfile: { path: 'migration_lock.toml', content: lockfile },
    shadowDbInitScript: '',
    migrationDirectories: migrations.map((m) => ({
      path: m.name,
      migrationFile: { path: 'migration.sql', content: { tag: 'ok', value: m.sql } },
    })),
  };
}

/**
 * pglite-prisma-adapter's factory for the engine, on `db`, with shadow databases from `openShadow` (closed when the
 * engine is done with them).
 */
export function pgliteAdapterFactory(
  db: PGlite,
  openShadow: () => Promise<PGlite>,
): SqlMigrationAwareDriverAdapterFactory {
  return {
    provider: 'postgres',
    adapterName: '@electric-sql/pglite',
    connect: () => connectAwaitingScripts(db),
    connectToShadowDb: async () => {
      const shadow = await openShadow();
      const adapter = await connectAwaitingScripts(shadow);
      // Unclosed PGlite instances keep Node running for seconds after the work is done.
      adapter.dispose = async () => {
        if (!shadow.closed) await shadow.close();
      };
      return adapter;
    },
  };
}

async function connectAwaitingScripts(db: PGlite): Promise<SqlDriverAdapter> {
  const adapter = (await new PrismaPGlite(db).connect()) as SqlDriverAdapter;
  // pglite-prisma-adapter 0.7 does not await executeScript: a migration that fails on the shadow database is ignored
  // (the diff comes out wrong) and its error escapes as an unhandled rejection that ends the process.
  adapter.executeScript = async (script) => {
    await db.exec(script);
  };
  return adapter;
}

// Errors thrown by the adapter reach the engine as "External error id#N"; the registry has the original.
function withAdapterErrors(error: unknown, registry: { consumeError(id: number): { error: unknown } | undefined }) {
  if (!(error instanceof Error)) return error;
  const message = error.message.replace(/External error id#(\d+)/g, (text, id: string) => {
    const original = registry.consumeError(Number(id))?.error;
    return original instanceof Error ? original.message : text;
  });
  return new Error(message, { cause: error });
}
