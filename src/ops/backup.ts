import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PGlite } from '@electric-sql/pglite';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { z } from 'zod';
import packageJson from '../../package.json' with { type: 'json' };
import { deriveKey } from '../auth/secrets';
import type { Config } from '../config';
import { lockDataDir } from '../db/data-dir-lock';
import { migrationsDir } from '../db/database';
import { secretsNotDecrypting, storedSecretsSql } from './server-key-check';

/** Why a backup or restore did not run, worded for the person at the terminal. */
export class BackupError extends Error {}

const formatVersion = 1;
const manifestName = 'manifest.json';
const databaseName = 'database.tar.gz';
const keyName = 'secret.key';
const filesFolder = 'files/';
// The folder store's own keys (src/modules/uploads/folder-file-store.ts); its `.partial-` and `.probe-` files are an
// interrupted write and a readiness probe, not data.
const storageKey = /^[a-z0-9][a-z0-9-]{0,127}$/;

const manifestSchema = z.object({
  format: z.literal('lectern-backup'),
  formatVersion: z.number().int(),
  lecternVersion: z.string(),
  migration: z.string().nullable(),
  createdAt: z.iso.datetime(),
  serverKey: z.enum(['included', 'SECRET_KEY']),
  /** Uploaded files in the archive; those in a bucket (`bucket` names it) are the bucket's to keep. */
  files: z.object({
    count: z.number().int().nonnegative(),
    bytes: z.number().int().nonnegative(),
    bucket: z.string().nullable(),
  }),
});
export type BackupManifest = z.infer<typeof manifestSchema>;

type EmbeddedConfig = Pick<Config, 'databaseUrl' | 'dataDir' | 'secretKey' | 's3'>;

function assertEmbedded(config: EmbeddedConfig, command: 'backup' | 'restore'): void {
  if (config.databaseUrl) {
    throw new BackupError(
      `lectern ${command} is for the embedded database (DATA_DIR); with DATABASE_URL the database is PostgreSQL's to ` +
        `back up: pg_dump (or your provider's snapshots) for the database, ${config.s3 ? `the bucket ${config.s3.bucket}` : 'DATA_DIR/files'} ` +
        'for uploaded files, and SECRET_KEY kept apart from both. `lectern check-key` tells whether SECRET_KEY ' +
        'decrypts the secrets a restored database holds. See docs/operations.md, "State to back up".',
    );
  }
  if (config.dataDir === 'memory://') throw new BackupError(`DATA_DIR=memory:// keeps nothing to ${command}`);
}

/** Uploaded files in the folder store: name in the archive, path on disk, size. */
async function storedFiles(dataDir: string) {
  const folder = join(dataDir, 'files');
  const entries = await readdir(folder, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const files: { name: string; path: string; size: number }[] = [];
  for (const entry of entries) {
    if (!entry.isFile() || !storageKey.test(entry.name)) continue;
    const path = join(folder, entry.name);
    files.push({ name: `${filesFolder}${entry.name}`, path, size: (await stat(path)).size });
  }
  return files;
}

/** The newest migration the database finished (Prisma's names begin with their timestamp). */
async function latestMigration(pglite: PGlite): Promise<string | null> {
  const { rows } = await pglite.query<{ name: string }>(
    `SELECT migration_name AS name FROM _prisma_migrations
      WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name DESC LIMIT 1`,
  );
  return rows[0]?.name ?? null;
}

/**
 * Writes the embedded database, the uploaded files and the server key into one zip at `file`. The embedded database
 * serves one process at a time, so this holds DATA_DIR's lock throughout: with a server running it refuses
 * (DataDirInUseError names the server's process), and nothing can write while it copies, which is what makes the copy
 * consistent.
 */
export async function createBackup(
  config: EmbeddedConfig,
  file: string,
  options: { force: boolean },
): Promise<BackupManifest> {
  assertEmbedded(config, 'backup');
  const pgdata = join(config.dataDir, 'pglite');
  if (!existsSync(join(pgdata, 'PG_VERSION')))
    throw new BackupError(`There is no embedded database in ${resolve(config.dataDir)} to back up`);
  if (!options.force && existsSync(file)) throw new BackupError(`${file} exists: give --force to replace it`);
  const unlock = lockDataDir(config.dataDir);
  const partial = `${file}.partial-${process.pid}`;
  try {
    const pglite = await PGlite.create({ dataDir: pgdata });
    let database: Blob;
    let migration: string | null;
    try {
      migration = await latestMigration(pglite);
      // The dump copies the data folder's files; a checkpoint first writes every change into them, so that the copy
      // needs no replay of the write-ahead log to hold the last commit.
      await pglite.exec('CHECKPOINT');
      database = await pglite.dumpDataDir('gzip');
    } finally {
      await pglite.close();
    }
    const files = config.s3 ? [] : await storedFiles(config.dataDir);
    const manifest: BackupManifest = {
      format: 'lectern-backup',
      formatVersion,
      lecternVersion: packageJson.version,
      migration,
      createdAt: new Date().toISOString(),
      serverKey: config.secretKey ? 'SECRET_KEY' : 'included',
      files: {
        count: files.length,
        bytes: files.reduce((sum, { size }) => sum + size, 0),
        bucket: config.s3 ? `s3://${config.s3.bucket}/${config.s3.prefix}` : null,
      },
    };
    const zip = new yazl.ZipFile();
    // First, so that restore checks it before reading anything else.
    zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), manifestName);
    // Already gzipped: deflating it again costs time and saves nothing.
    zip.addBuffer(Buffer.from(await database.arrayBuffer()), databaseName, { compress: false });
    if (!config.secretKey) {
      const key = await readFile(join(config.dataDir, keyName)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
        throw new BackupError(
          `${resolve(config.dataDir, keyName)} is missing and SECRET_KEY is not set: no server key`,
        );
      });
      zip.addBuffer(key, keyName, { mode: 0o100600 });
    }
    for (const stored of files) zip.addFile(stored.path, stored.name);
    zip.end();
    await pipeline(zip.outputStream, createWriteStream(partial, { mode: 0o600 }));
    // Renamed only once complete: a backup file that exists is a whole one.
    await rename(partial, file);
    return manifest;
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  } finally {
    unlock();
  }
}

const openZip = (file: string) =>
  new Promise<yauzl.ZipFile>((done, fail) =>
    yauzl.open(file, { lazyEntries: true, strictFileNames: true, validateEntrySizes: true }, (error, zip) =>
      error ? fail(error) : done(zip),
    ),
  );

async function* zipEntries(zip: yauzl.ZipFile): AsyncGenerator<{ entry: yauzl.Entry; open(): Promise<Readable> }> {
  for (;;) {
    const entry = await new Promise<yauzl.Entry | null>((done, fail) => {
      zip
        .once('entry', done)
        .once('end', () => done(null))
        .once('error', fail);
      zip.readEntry();
    });
    zip.removeAllListeners('entry').removeAllListeners('end').removeAllListeners('error');
    if (!entry) return;
    const open = () =>
      new Promise<Readable>((done, fail) =>
        zip.openReadStream(entry, (error, stream) => (error ? fail(error) : done(stream))),
      );
    yield { entry, open };
  }
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

function parseManifest(bytes: Buffer, migrations: string[]): BackupManifest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new BackupError(`${manifestName} is not JSON: not a Lectern backup`);
  }
  const format = (parsed as { formatVersion?: unknown }).formatVersion;
  if (typeof format === 'number' && format > formatVersion)
    throw new BackupError(`The backup's format is version ${format}; this Lectern reads version ${formatVersion}`);
  const checked = manifestSchema.safeParse(parsed);
  if (!checked.success || checked.data.formatVersion !== formatVersion)
    throw new BackupError(`${manifestName} is not a Lectern backup manifest`);
  const { migration, lecternVersion } = checked.data;
  // An older database is migrated when the server starts; a newer one has tables this code does not know.
  if (migration !== null && !migrations.includes(migration))
    throw new BackupError(
      `The backup's database is at migration ${migration}, which this Lectern (${packageJson.version}) does not have: ` +
        `restore it with Lectern ${lecternVersion} or later`,
    );
  return checked.data;
}

/** What a data folder holds that a restore would replace. */
const restoredParts = ['pglite', 'files', keyName];

/**
 * Restores a backup into DATA_DIR. Everything is unpacked into a folder beside the target and checked (the database
 * opens, the server key decrypts its stored secrets) before it replaces anything, so a failed restore changes nothing.
 */
export async function restoreBackup(
  config: EmbeddedConfig,
  file: string,
  options: { force: boolean },
): Promise<BackupManifest & { secretsChecked: number }> {
  assertEmbedded(config, 'restore');
  const zip = await openZip(file).catch((error: Error) => {
    throw new BackupError(`${file} is not a readable zip archive: ${error.message}`);
  });
  await mkdir(config.dataDir, { recursive: true });
  const unlock = lockDataDir(config.dataDir);
  const staging = join(config.dataDir, `.restore-${process.pid}`);
  try {
    const present = (await readdir(config.dataDir)).filter((name) => name !== 'lectern.lock');
    if (present.length && !options.force)
      throw new BackupError(
        `${resolve(config.dataDir)} is not empty (${present.join(', ')}): restore into an empty folder, or give ` +
          '--force to replace its database, uploaded files and server key',
      );
    const migrations = (await readdir(migrationsDir, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    await rm(staging, { recursive: true, force: true });
    await mkdir(join(staging, 'files'), { recursive: true });

    let manifest: BackupManifest | null = null;
    let database: Buffer | null = null;
    let key: Buffer | null = null;
    for await (const { entry, open } of zipEntries(zip)) {
      if (!manifest) {
        if (entry.fileName !== manifestName) throw new BackupError(`${file} does not begin with a Lectern manifest`);
        manifest = parseManifest(await readAll(await open()), migrations);
      } else if (entry.fileName === databaseName) database = await readAll(await open());
      else if (entry.fileName === keyName) key = await readAll(await open());
      else if (entry.fileName.startsWith(filesFolder) && storageKey.test(entry.fileName.slice(filesFolder.length))) {
        await pipeline(await open(), createWriteStream(join(staging, entry.fileName)));
      } else throw new BackupError(`${file} holds ${entry.fileName}, which a Lectern backup does not`);
    }
    if (!manifest) throw new BackupError(`${file} is empty`);
    if (!database) throw new BackupError(`${file} holds no ${databaseName}`);
    if (manifest.serverKey === 'included' && !key) throw new BackupError(`${file} holds no ${keyName}`);
    if (manifest.serverKey === 'SECRET_KEY' && !config.secretKey)
      throw new BackupError(
        'The backup was made with SECRET_KEY, which it does not hold: set the same SECRET_KEY to restore it',
      );
    const restoredFiles = (await readdir(join(staging, 'files'))).length;
    if (restoredFiles !== manifest.files.count)
      throw new BackupError(`${file} holds ${restoredFiles} uploaded files; its manifest says ${manifest.files.count}`);

    // A key in the backup is the one its secrets were sealed with, even when SECRET_KEY is also set now: the server
    // reads SECRET_KEY first, so a mismatch between the two is reported by the check below.
    const serverKey = config.secretKey ? deriveKey(config.secretKey) : deriveKey(key!.toString('utf8').trim());
    const pglite = await PGlite.create({
      dataDir: join(staging, 'pglite'),
      loadDataDir: new Blob([new Uint8Array(database)]),
    });
    let secrets: { owner: string; box: string }[];
    try {
      secrets = (await pglite.query<{ owner: string; box: string }>(storedSecretsSql)).rows;
    } finally {
      await pglite.close();
    }
    const failing = secretsNotDecrypting(secrets, serverKey);
    if (failing.length)
      throw new BackupError(
        `The server key does not decrypt ${failing.length} of the ${secrets.length} secrets the backup's database ` +
          `holds (${failing.slice(0, 3).join(', ')}${failing.length > 3 ? ', …' : ''}): ` +
          (config.secretKey
            ? 'SECRET_KEY is not the key the backup was made with'
            : 'the backup is inconsistent (was its secret.key replaced?)'),
      );
    if (key) await writeFile(join(staging, keyName), key, { mode: 0o600 });

    for (const part of restoredParts) await rm(join(config.dataDir, part), { recursive: true, force: true });
    for (const part of restoredParts) {
      if (existsSync(join(staging, part))) await rename(join(staging, part), join(config.dataDir, part));
    }
    return { ...manifest, secretsChecked: secrets.length };
  } finally {
    zip.close();
    await rm(staging, { recursive: true, force: true });
    unlock();
  }
}
