import type { Logger } from 'pino';
import { loadServerKey } from '../auth/server-key';
import { ensureBootstrapCredential } from './bootstrap-credential';
import type { Config } from '../config';
import { type Database, openDatabase } from '../db/database';
import { openFileStore, useFileStore } from '../modules/uploads/file-store';
import { releaseClaimsOfStoppedProcess } from '../rest/idempotency';

/**
 * What the server and the CLI share at start: the database with migrations applied, the server key, and the store of
 * uploaded files (`DATA_DIR/files`).
 */
export async function boot(config: Config, logger: Logger): Promise<{ database: Database; serverKey: Buffer }> {
  const open = () =>
    openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      statementTimeoutMs: config.queryTimeoutMs,
      onConnectionError: (error) => logger.warn({ err: error }, 'database connection lost; the pool reconnects'),
    });
  let database = await open();
  try {
    const applied = await database.migrate((message) => logger.info(message));
    if (applied.length) logger.info({ applied }, 'migrations applied');
    if (applied.length && database.kind === 'pglite') {
      // The embedded database's WebAssembly memory grows to what the migrations needed and never shrinks; opened
      // again, it holds what serving needs.
      await database.close();
      database = await open();
    }
    if (database.kind === 'pglite') {
      const released = await releaseClaimsOfStoppedProcess();
      if (released) logger.info({ released }, 'Idempotency-Key claims of the stopped process released for retries');
    }
    const serverKey = await loadServerKey(config);
    useFileStore(await openFileStore(config));
    if (config.bootstrap) {
      const { userId, created } = await ensureBootstrapCredential(serverKey, config.bootstrap);
      logger.info({ userId, created }, 'bootstrap credential ready');
    }
    return { database, serverKey };
  } catch (error) {
    await database.close();
    throw error;
  }
}
