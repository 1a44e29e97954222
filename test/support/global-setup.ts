import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { migrationsDir } from '../../src/db/database';
import { applyMigrations, pgClientSession, pgliteSession } from '../../src/db/migrate';
import { withClient } from './postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** An uncompressed dump of a migrated embedded database, which every file's in-memory PGlite starts from. */
    pgliteTemplateFile: string;
    /** A migrated database on TEST_DATABASE_URL's server, which every file's database is created from; null without it. */
    postgresTemplate: string | null;
  }
}

/**
 * Migrates one database of each kind once per run, so that a test file copies a migrated database instead of
 * creating and migrating its own: an embedded database from initdb takes over a second, a copy of the dump a third of
 * one; on PostgreSQL, CREATE DATABASE ... TEMPLATE instead of running the migrations.
 */
export default async function setup(project: TestProject) {
  const folder = await mkdtemp(join(tmpdir(), 'lectern-test-template-'));
  const pgliteTemplateFile = join(folder, 'pglite.tar');
  const embedded = await PGlite.create();
  try {
    await applyMigrations(pgliteSession(embedded), migrationsDir);
    await writeFile(pgliteTemplateFile, Buffer.from(await (await embedded.dumpDataDir('none')).arrayBuffer()));
  } finally {
    await embedded.close();
  }
  project.provide('pgliteTemplateFile', pgliteTemplateFile);

  const serverUrl = process.env.TEST_DATABASE_URL;
  const postgresTemplate = serverUrl ? `lectern_template_${randomBytes(6).toString('hex')}` : null;
  if (serverUrl && postgresTemplate) {
    await withClient(serverUrl, (admin) => admin.query(`CREATE DATABASE ${postgresTemplate}`));
    const url = new URL(serverUrl);
    url.pathname = `/${postgresTemplate}`;
    // Closed before any file copies it: CREATE DATABASE refuses a template that has connections.
    await withClient(url.href, (client) => applyMigrations(pgClientSession(client), migrationsDir));
  }
  project.provide('postgresTemplate', postgresTemplate);

  return async () => {
    await rm(folder, { recursive: true, force: true });
    if (serverUrl && postgresTemplate) await withClient(serverUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${postgresTemplate} WITH (FORCE)`));
  };
}
