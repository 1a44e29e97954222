import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { migrationsDir } from '../../src/db/database';
import { applyMigrations, pgClientSession, pgliteSession } from '../../src/db/migrate';
import { databaseUrl, withClient } from './postgres';
import { buildServer } from './process';

declare module 'vitest' {
  export interface ProvidedContext {
    /** An uncompressed dump of a migrated embedded database, which every file's in-memory PGlite starts from. */
    pgliteTemplateFile: string;
    /** A data folder holding the same database on disk, which server and CLI processes start from a copy of. */
    dataDirTemplate: string;
    /** With TEST_DATABASE_URL: a migrated database on its server, which every file's database is created from. */
    postgresTemplate: string;
  }
}

/**
 * Compiles the server and the CLI for the tests that start them as processes, as `npm start` does (bin/lectern.mjs
 * then finds its bundle up to date). Migrates the run's database
 * once, so that a test file copies a migrated database instead of creating and migrating its own: with
 * TEST_DATABASE_URL a template database on its server (CREATE DATABASE ... TEMPLATE), otherwise a dump of an embedded
 * one (a fresh one from initdb takes over a second, a copy of the dump a third of one). The dump is also unpacked into
 * a data folder, which tests of server and CLI processes copy (test/support/process.ts, `migratedDataDir`) where a
 * first start is not what they test: initdb, the migrations and the reopening after them cost a process seconds.
 */
export default async function setup(project: TestProject) {
  buildServer();
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const template = `lectern_template_${randomBytes(6).toString('hex')}`;
    await withClient(serverUrl, (admin) => admin.query(`CREATE DATABASE ${template}`));
    // Closed before any file copies it: CREATE DATABASE refuses a template that has connections.
    await withClient(databaseUrl(serverUrl, template), (client) =>
      applyMigrations(pgClientSession(client), migrationsDir),
    );
    project.provide('postgresTemplate', template);
    return async () => {
      await withClient(serverUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`));
    };
  }

  const folder = await mkdtemp(join(tmpdir(), 'lectern-test-template-'));
  const templateFile = join(folder, 'pglite.tar');
  const embedded = await PGlite.create();
  let dump: Blob;
  try {
    await applyMigrations(pgliteSession(embedded), migrationsDir);
    dump = await embedded.dumpDataDir('none');
    await writeFile(templateFile, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await embedded.close();
  }
  const dataDir = join(folder, 'data');
  // Where the server keeps its embedded database in DATA_DIR (src/db/database.ts).
  await mkdir(join(dataDir, 'pglite'), { recursive: true });
  await (await PGlite.create({ dataDir: join(dataDir, 'pglite'), loadDataDir: dump })).close();
  project.provide('pgliteTemplateFile', templateFile);
  project.provide('dataDirTemplate', dataDir);
  return () => rm(folder, { recursive: true, force: true });
}
