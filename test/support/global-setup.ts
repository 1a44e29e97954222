import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
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
    /** With TEST_DATABASE_URL: a migrated database on its server, which every file's database is created from. */
    postgresTemplate: string;
  }
}

/**
 * Compiles the server and the CLI for the tests that start them as processes, as `npm start` does (bin/lectern.mjs
 * then finds its bundle up to date). Migrates the run's database
 * once, so that a test file copies a migrated database instead of creating and migrating its own: with
 * TEST_DATABASE_URL a template database on its server (CREATE DATABASE ... TEMPLATE), otherwise a dump of an embedded
 * one (a fresh one from initdb takes over a second, a copy of the dump a third of one).
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
  try {
    await applyMigrations(pgliteSession(embedded), migrationsDir);
    await writeFile(templateFile, Buffer.from(await (await embedded.dumpDataDir('none')).arrayBuffer()));
  } finally {
    await embedded.close();
  }
  project.provide('pgliteTemplateFile', templateFile);
  return () => rm(folder, { recursive: true, force: true });
}
