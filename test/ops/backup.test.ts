import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yauzl from 'yauzl';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createBackup, restoreBackup } from '../../src/ops/backup';
import {
  cleanEnvironment,
  migratedDataDir,
  processTestTimeoutMs,
  projectRoot,
  type ServerProcess,
  startServerProcess,
  waitUntilReady,
} from '../support/process';
import { md5, plainBytes } from '../support/uploads';
import { buildZip } from '../support/zips';

// Two server starts and two CLI runs on embedded databases: tens of seconds when other files share the two cores.
vi.setConfig({ testTimeout: processTestTimeoutMs });

// A server writes an embedded database (an API client, a calendar event, an uploaded file); `lectern backup` copies
// it once the server has stopped, `lectern restore` unpacks it into a fresh folder, and a server started there serves
// the same event and the same bytes to the same credential. The refusals run in this process: they need no server.

const consumer = { key: 'backup-key', secret: 'backup-secret' };
const tempDir = mkdtempSync(join(tmpdir(), 'lectern-backup-'));
const original = migratedDataDir(join(tempDir, 'original'));
const restored = join(tempDir, 'restored');
const archive = join(tempDir, 'backup.zip');
afterAll(() => rmSync(tempDir, { recursive: true, force: true }));

const embedded = (dataDir: string) => ({ databaseUrl: null, dataDir, secretKey: null, s3: null });

function lectern(args: string[], dataDir: string) {
  const child = spawn(process.execPath, ['bin/lectern.mjs', ...args], {
    cwd: projectRoot,
    env: cleanEnvironment({ DATA_DIR: dataDir }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function startServer(dataDir: string, bootstrap: boolean) {
  const server = await startServerProcess({
    DATA_DIR: dataDir,
    SEED_DEMO: 'off',
    LOG_LEVEL: 'warn',
    ...(bootstrap ? { BOOTSTRAP_CONSUMER_KEY: consumer.key, BOOTSTRAP_CONSUMER_SECRET: consumer.secret } : {}),
  });
  await waitUntilReady(server);
  return server;
}

async function stop(server: ServerProcess) {
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
}

/** A /v1 request signed with PLAINTEXT: the server decrypts the consumer secret with its key to check it. */
async function call(server: ServerProcess, method: string, path: string, body?: unknown) {
  const authorization =
    `OAuth realm="Schoology API", oauth_consumer_key="${consumer.key}", oauth_token="", ` +
    `oauth_nonce="${randomUUID()}", oauth_timestamp="${Math.floor(Date.now() / 1000)}", ` +
    `oauth_signature_method="PLAINTEXT", oauth_version="1.0", oauth_signature="${consumer.secret}%26"`;
  const binary = Buffer.isBuffer(body);
  const response = await fetch(`${server.base}/v1${path}`, {
    method,
    redirect: 'manual',
    headers: {
      authorization,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': binary ? 'application/octet-stream' : 'application/json' }),
    },
    body: body === undefined ? undefined : binary ? new Uint8Array(body) : JSON.stringify(body),
  });
  const text = await response.text();
  const json = response.headers.get('content-type')?.includes('json') && text ? JSON.parse(text) : undefined;
  return { status: response.status, text, json };
}

function zipEntryNames(file: string): Promise<string[]> {
  return new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: false }, (error, zip) => {
      if (error) return reject(error);
      const names: string[] = [];
      zip.on('entry', (entry: yauzl.Entry) => names.push(entry.fileName));
      zip.once('end', () => resolve(names));
      zip.once('error', reject);
    }),
  );
}

const bytes = plainBytes(70_000);
let eventPath: string;
let fileId: number;

describe('backup and restore of the embedded database', () => {
  it('refuses to back up while the server runs, naming its process; backs up once it has stopped', async () => {
    const server = await startServer(original, true);
    try {
      const schools = await call(server, 'GET', '/schools');
      expect(schools.status, schools.text).toBe(200);
      const schoolId = schools.json.school[0].id;
      const announced = await call(server, 'POST', '/upload', {
        filename: 'minutes.txt',
        filesize: bytes.length,
        md5_checksum: md5(bytes),
      });
      expect(announced.status, announced.text).toBe(201);
      fileId = announced.json.id;
      const put = await call(server, 'PUT', `/upload/${fileId}`, bytes);
      expect(put.status, put.text).toBe(200);
      const event = await call(server, 'POST', `/schools/${schoolId}/events`, {
        title: 'Board meeting',
        start: '2026-12-01 18:00:00',
        'file-attachment': { id: [fileId] },
      });
      expect(event.status, event.text).toBe(201);
      eventPath = `/schools/${schoolId}/events/${event.json.id}`;

      // In this process rather than a CLI run: the lock is the same either way.
      await expect(createBackup(embedded(original), archive, { force: false })).rejects.toThrow(
        `is in use by process ${server.child.pid} (a running server?): stop it first`,
      );
      expect(existsSync(archive)).toBe(false);
    } finally {
      await stop(server);
    }

    const backup = await lectern(['backup', archive], original);
    expect(backup, backup.stderr).toMatchObject({ code: 0 });
    expect(backup.stdout).toMatch(/^Backed up the embedded database \(migration \d{14}_\w+\), 1 uploaded files/);
    const names = await zipEntryNames(archive);
    expect(names.slice(0, 2)).toEqual(['manifest.json', 'database.tar.gz']);
    expect(names).toContain('secret.key');
    expect(names.filter((name) => name.startsWith('files/'))).toHaveLength(1);
  });

  it('restores into a fresh folder, and the server there serves the same event, file and credential', async () => {
    const restore = await lectern(['restore', archive], restored);
    expect(restore, restore.stderr).toMatchObject({ code: 0 });
    expect(restore.stdout).toMatch(/the server key decrypts its 1 stored secrets/);
    expect(readFileSync(join(restored, 'secret.key'))).toEqual(readFileSync(join(original, 'secret.key')));

    const checked = await lectern(['check-key'], restored);
    expect(checked, checked.stderr).toMatchObject({ code: 0 });
    expect(checked.stdout).toBe(`The server key in ${restored} decrypts all 1 secrets the database holds.\n`);

    const server = await startServer(restored, false);
    try {
      const event = await call(server, 'GET', eventPath);
      expect(event.status, event.text).toBe(200);
      expect(event.json.title).toBe('Board meeting');
      const file = await call(server, 'GET', `${eventPath}/attachments/${fileId}`);
      expect(file.status).toBe(200);
      expect(file.text).toBe(bytes.toString());
    } finally {
      await stop(server);
    }
  });

  it('refuses a folder that is not empty unless forced, and replaces it when forced', async () => {
    await expect(restoreBackup(embedded(restored), archive, { force: false })).rejects.toThrow(
      /is not empty \(files, pglite, secret.key\): restore into an empty folder, or give --force/,
    );
    const marker = join(restored, 'files', 'stray-file');
    writeFileSync(marker, 'not in the backup');
    const forced = await restoreBackup(embedded(restored), archive, { force: true });
    expect(forced).toMatchObject({ formatVersion: 1, serverKey: 'included', files: { count: 1, bytes: 70_000 } });
    expect(existsSync(marker)).toBe(false);
    // Nothing left behind but what a data folder holds.
    expect(readdirSync(restored).sort()).toEqual(['files', 'pglite', 'secret.key']);
  });

  it('refuses a SECRET_KEY that does not decrypt the backup, leaving the target untouched', async () => {
    const target = join(tempDir, 'wrong-key');
    await expect(
      restoreBackup({ ...embedded(target), secretKey: 'not the key the secrets were sealed with' }, archive, {
        force: false,
      }),
    ).rejects.toThrow(
      /does not decrypt 1 of the 1 secrets .*\(API client \d+\): SECRET_KEY is not the key the backup was made with/,
    );
    expect(readdirSync(target)).toEqual([]);
  });

  it('refuses on PostgreSQL, saying what to back up there instead', async () => {
    const postgres = { ...embedded(join(tempDir, 'unused')), databaseUrl: 'postgresql://lectern@db/lectern' };
    for (const attempt of [
      createBackup(postgres, join(tempDir, 'never.zip'), { force: false }),
      restoreBackup(postgres, archive, { force: false }),
    ]) {
      await expect(attempt).rejects.toThrow(
        /is for the embedded database \(DATA_DIR\); with DATABASE_URL .*pg_dump .*`lectern check-key`/,
      );
    }
    expect(existsSync(join(tempDir, 'never.zip'))).toBe(false);
    expect(existsSync(join(tempDir, 'unused'))).toBe(false);
  });

  it('checks the manifest: a newer format, an unknown migration, something else entirely', async () => {
    const manifest = JSON.parse(
      await new Promise<string>((resolve, reject) =>
        yauzl.open(archive, { lazyEntries: true }, (error, zip) => {
          if (error) return reject(error);
          zip.once('entry', (entry) =>
            zip.openReadStream(entry, async (failure, stream) => {
              if (failure) return reject(failure);
              let text = '';
              for await (const chunk of stream) text += chunk;
              zip.close();
              resolve(text);
            }),
          );
          zip.readEntry();
        }),
      ),
    );
    const cases: [string, Buffer, RegExp][] = [
      [
        'newer.zip',
        await buildZip([{ name: 'manifest.json', data: JSON.stringify({ ...manifest, formatVersion: 2 }) }]),
        /The backup's format is version 2; this Lectern reads version 1/,
      ],
      [
        'future.zip',
        await buildZip([
          { name: 'manifest.json', data: JSON.stringify({ ...manifest, migration: '29991231000000_future' }) },
        ]),
        /at migration 29991231000000_future, which this Lectern \(.*\) does not have/,
      ],
      ['other.zip', await buildZip([{ name: 'notes.txt', data: 'hello' }]), /does not begin with a Lectern manifest/],
      ['notzip.zip', Buffer.from('plain text'), /is not a readable zip archive/],
    ];
    for (const [name, data, message] of cases) {
      const file = join(tempDir, name);
      writeFileSync(file, data);
      const target = join(tempDir, `target-${name}`);
      mkdirSync(target);
      await expect(restoreBackup(embedded(target), file, { force: false })).rejects.toThrow(message);
      expect(readdirSync(target)).toEqual([]);
    }
  });
});
