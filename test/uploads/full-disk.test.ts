/**
 * Issue 43 §4: file storage that is full or read-only, over real sockets. DATA_DIR's files sit on a 1 MB tmpfs (or,
 * where the test may not mount one, a folder whose writes fail as on such a disk): a file that does not fit is a 507
 * naming the condition, an image whose thumbnail does not fit is still an image (its thumbnail written once there is
 * room), /readyz reports the storage, and the log has warnings, not unexpected errors.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { Writable } from 'node:stream';
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { db } from '../../src/db/database';
import { issueAccessToken } from '../../src/modules/access/access.service';
import { type FileStore, fileStore, useFileStore } from '../../src/modules/uploads/file-store';
import { writePendingThumbnails } from '../../src/modules/uploads/upload.service';
import { sendInChunks } from '../support/chunks';
import { createAlbum, createGroup, createSection, createWorld } from '../support/factories';
import { listenOnLoopback, useTestServer } from '../support/harness';
import { type SmallDisk, openSmallDisk, page } from '../support/small-disk';
import { plainBytes } from '../support/uploads';
import { xmlHead } from '../support/wire';
import { buildZip } from '../support/zips';

const server = useTestServer();
const lines: { level: number; msg: string; requestId?: string }[] = [];
// A refused mutation answers 200 with its field null (partial data): `storageRefusalsIn200` counts those refused for
// want of storage, which the log warns of as it does of each 507.
const tally = { requests: 0, lost: 0, statuses: new Map<number, number>(), storageRefusalsIn200: 0 };
let disk: SmallDisk;
let harnessStore: FileStore;
let base: string;
let close: () => Promise<void>;
let token: string;
let teacherId: number;
let albumId: number;
let sectionId: number;

beforeAll(async () => {
  disk = await openSmallDisk();
  harnessStore = fileStore();
  useFileStore(disk.store);
  const sink = new Writable({
    write: (chunk, _encoding, done) => {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const app = createApp({
    config: server.config,
    database: server.database,
    serverKey: server.serverKey,
    logger: pino({ level: 'info' }, sink),
  });
  const listening = await listenOnLoopback({ ...server, app });
  base = `http://127.0.0.1:${listening.port}`;
  close = listening.close;
  const world = await createWorld();
  teacherId = world.teacher.id;
  token = (await issueAccessToken({ userId: teacherId, name: 'disk' })).token;
  const group = await createGroup(world.school.id, { admins: [teacherId] });
  albumId = (await createAlbum({ type: 'GROUP', id: group.id })).id;
  sectionId = (await createSection(world.school.id, [{ userId: teacherId, admin: true }])).id;
});

afterAll(async () => {
  await close?.();
  useFileStore(harnessStore);
  await disk?.close();
  const count = (test: (status: number) => boolean) =>
    [...tally.statuses].filter(([status]) => test(status)).reduce((sum, [, n]) => sum + n, 0);
  console.log(
    `full-disk run (${disk?.kind}): ${tally.requests} requests, ${tally.lost} lost answers, ${count((status) => status >= 500)} 5xx ` +
      `(${count((status) => status === 507)} 507, ${count((status) => status === 500)} 500)`,
  );
});

function counted(status: number) {
  tally.requests++;
  tally.statuses.set(status, (tally.statuses.get(status) ?? 0) + 1);
}

/** A request over the socket with the teacher's bearer token; an answer that never comes is counted as lost. */
async function send(path: string, init: RequestInit = {}): Promise<Response> {
  try {
    const response = await fetch(`${base}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, ...init.headers },
    });
    counted(response.status);
    return response;
  } catch (error) {
    tally.requests++;
    tally.lost++;
    throw error;
  }
}

const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');

async function announce(bytes: Buffer, filename = 'file.bin'): Promise<number> {
  const response = await send('/v1/upload', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ filename, filesize: bytes.length, md5_checksum: md5(bytes) }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: number }).id;
}

/** PUTs the bytes in 64 KB chunks as a client streams them, until the server answers. */
async function put(id: number, bytes: Buffer, accept = 'application/json') {
  const chunks = Array.from({ length: Math.ceil(bytes.length / 65_536) }, (_, index) =>
    bytes.subarray(index * 65_536, (index + 1) * 65_536),
  );
  try {
    const answer = await sendInChunks({
      port: Number(new URL(base).port),
      method: 'PUT',
      path: `/v1/upload/${id}`,
      headers: {
        authorization: `Bearer ${token}`,
        accept,
        'content-type': 'application/octet-stream',
        'content-length': String(bytes.length),
      },
      chunks,
    });
    counted(answer.status);
    return answer;
  } catch (error) {
    tally.requests++;
    tally.lost++;
    throw error;
  }
}

const readiness = async () => (await send('/readyz')).json();

const graphql = async (query: string, variables: Record<string, unknown>) => {
  const response = await send('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.clone().json()) as { errors?: { extensions?: { code?: string } }[] };
  if (response.status === 200 && body.errors?.some((error) => error.extensions?.code === 'INSUFFICIENT_STORAGE'))
    tally.storageRefusalsIn200++;
  return response;
};

/** An upload stored meanwhile, attached as an item of the album: its item id. */
async function attach(uploadId: number): Promise<number> {
  await db().upload.update({ where: { id: uploadId }, data: { attachedAt: new Date() } });
  return (await db().albumContent.create({ data: { albumId, uploadId, creatorId: teacherId } })).id;
}

/** The disk's size: leaving this much room leaves all there is. */
const diskSize = 1024 * 1024;

const full = "The server's file storage is full: nothing was stored; retry once space has been freed";
const readOnly = "The server's file storage is read-only: nothing was stored";

/** An image of noise, which compresses badly: its thumbnail needs pages of its own. */
const noiseImage = () =>
  sharp(randomBytes(160 * 120 * 3), { raw: { width: 160, height: 120, channels: 3 } })
    .png()
    .toBuffer();

describe('file storage that is full', () => {
  it('answers a PUT that does not fit with 507 naming the cause, in JSON and XML, and keeps nothing', async () => {
    await disk.leaveRoom(diskSize);
    const big = randomBytes(2 * diskSize);
    const id = await announce(big);
    const json = await put(id, big);
    expect([json.status, JSON.parse(json.body)]).toEqual([507, { error: full }]);
    const xml = await put(id, big, 'text/xml');
    expect([xml.status, xml.body]).toEqual([507, `${xmlHead}<result><error>${full}</error></result>`]);
    expect(await db().upload.findUniqueOrThrow({ where: { id }, select: { status: true } })).toEqual({
      status: 'PENDING',
    });
    expect(await readdir(disk.folder)).toEqual([]);
  });

  it("answers GraphQL's receiveUploadContent with its field null and the code INSUFFICIENT_STORAGE", async () => {
    await disk.leaveRoom(0);
    const bytes = plainBytes(10_000);
    const created = await graphql(
      'mutation($input: CreateUploadInput!) { createUpload(input: $input) { upload { id } } }',
      {
        input: { filename: 'g.bin', filesize: bytes.length, md5Checksum: md5(bytes) },
      },
    );
    const { id } = ((await created.json()) as { data: { createUpload: { upload: { id: string } } } }).data.createUpload
      .upload;
    const answer = await graphql(
      'mutation($input: ReceiveUploadContentInput!) { receiveUploadContent(input: $input) { upload { id } } }',
      { input: { id, contentBase64: bytes.toString('base64') } },
    );
    // A refused mutation is partial data: 200, its field null, the error's code unchanged.
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as {
      data: unknown;
      errors: { message: string; extensions: Record<string, unknown> }[];
    };
    expect(body.data).toEqual({ receiveUploadContent: null });
    expect(body.errors).toMatchObject([{ message: full, extensions: { code: 'INSUFFICIENT_STORAGE' } }]);
  });

  it('answers a web package whose files do not fit with INSUFFICIENT_STORAGE, keeping none of them', async () => {
    await disk.leaveRoom(diskSize);
    const zip = await buildZip([
      { name: 'index.html', data: '<!doctype html><title>Lab</title>' },
      { name: 'noise.bin', data: randomBytes(300_000) },
    ]);
    const uploadId = await announce(zip, 'site.zip');
    expect((await put(uploadId, zip)).status).toBe(200);
    // Room for the page, not for the noise.
    await disk.leaveRoom(2 * page);
    const before = await readdir(disk.folder);
    const answer = await graphql(
      'mutation($input: CreateWebPackageInput!) { createWebPackage(input: $input) { userErrors { code } } }',
      { input: { sectionId: String(sectionId), title: 'Lab', uploadId: String(uploadId) } },
    );
    // A refused mutation is partial data: 200, its field null, the error's code unchanged.
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { data: unknown; errors: unknown[] };
    expect(body.data).toEqual({ createWebPackage: null });
    expect(body.errors).toMatchObject([{ message: full, extensions: { code: 'INSUFFICIENT_STORAGE' } }]);
    expect((await readdir(disk.folder)).sort()).toEqual(before.sort());
    expect(await db().webPackage.count({ where: { uploadId } })).toBe(0);
  });

  it('reports it on /readyz (200, degraded), until there is room again', async () => {
    await disk.leaveRoom(0);
    await expect.poll(readiness, { timeout: 30_000, interval: 500 }).toEqual({ status: 'degraded', storage: 'full' });
    await disk.leaveRoom(Infinity);
    await expect.poll(readiness, { timeout: 30_000, interval: 500 }).toEqual({ status: 'ready' });
  });

  it('keeps an image whose thumbnail does not fit as an image, and writes the thumbnail on its first read with room', async () => {
    const png = await noiseImage();
    const id = await announce(png, 'noise.png');
    await disk.leaveRoom(Math.ceil(png.length / page) * page);
    const stored = await put(id, png);
    expect(stored.status).toBe(200);
    expect(JSON.parse(stored.body)).toMatchObject({
      status: 'stored',
      type: 'image',
      mime_type: 'image/png',
      content_dimensions: '160x120',
    });
    const row = await db().upload.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({
      kind: 'IMAGE',
      width: 160,
      height: 120,
      thumbnailWidth: 160,
      thumbnailHeight: 120,
      thumbnailPending: true,
    });
    expect(await disk.store.size(row.thumbnailKey!)).toBeNull();

    const item = await attach(id);
    const thumbnailPath = `/v1/album/${albumId}/content/${item}/thumbnail`;
    const refused = await send(thumbnailPath);
    expect([refused.status, await refused.json()]).toEqual([507, { error: full }]);
    // The original is served all the while.
    const original = await send(`/v1/album/${albumId}/content/${item}/file`);
    expect(Buffer.from(await original.arrayBuffer()).equals(png)).toBe(true);

    await disk.leaveRoom(Infinity);
    const thumbnail = await send(thumbnailPath);
    expect([thumbnail.status, thumbnail.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    expect(await sharp(Buffer.from(await thumbnail.arrayBuffer())).metadata()).toMatchObject({
      format: 'jpeg',
      width: 160,
      height: 120,
    });
    expect(await db().upload.findUniqueOrThrow({ where: { id }, select: { thumbnailPending: true } })).toEqual({
      thumbnailPending: false,
    });
  });

  it('has the sweep write pending thumbnails once there is room, and leaves them pending while there is none', async () => {
    const png = await noiseImage();
    const id = await announce(png, 'swept.png');
    await disk.leaveRoom(Math.ceil(png.length / page) * page);
    expect((await put(id, png)).status).toBe(200);
    expect(await writePendingThumbnails()).toBe(0);
    expect(await db().upload.findUniqueOrThrow({ where: { id }, select: { thumbnailPending: true } })).toEqual({
      thumbnailPending: true,
    });
    await disk.leaveRoom(Infinity);
    expect(await writePendingThumbnails()).toBe(1);
    const row = await db().upload.findUniqueOrThrow({ where: { id } });
    expect(row.thumbnailPending).toBe(false);
    expect(await disk.store.size(row.thumbnailKey!)).toBeGreaterThan(0);
  });

  it('answers a burst of uploads filling the disk with 200 or 507 only, every answer reaching its client, no file left over', async () => {
    await disk.leaveRoom(diskSize);
    const before = await readdir(disk.folder);
    const files = Array.from({ length: 24 }, () => plainBytes(100_000));
    const ids = await Promise.all(files.map((bytes) => announce(bytes)));
    const answers = await Promise.all(ids.map((id, index) => put(id, files[index]!)));
    const statuses = answers.map((answer) => answer.status);
    expect(new Set(statuses)).toEqual(new Set([200, 507]));
    const stored = await db().upload.findMany({
      where: { id: { in: ids }, status: 'STORED' },
      select: { storageKey: true },
    });
    expect(stored).toHaveLength(statuses.filter((status) => status === 200).length);
    expect((await readdir(disk.folder)).sort()).toEqual(
      [...before, ...stored.map((upload) => upload.storageKey)].sort(),
    );
  });
});

describe('file storage that is read-only', () => {
  it('answers a PUT with 507 naming it, serves what is stored, and /readyz reports it', async () => {
    await disk.leaveRoom(Infinity);
    const kept = plainBytes(5_000);
    const keptId = await announce(kept);
    expect((await put(keptId, kept)).status).toBe(200);
    const item = await attach(keptId);
    const bytes = plainBytes(5_000);
    const id = await announce(bytes);
    await disk.readOnly(true);
    try {
      const refused = await put(id, bytes);
      expect([refused.status, JSON.parse(refused.body)]).toEqual([507, { error: readOnly }]);
      const served = await send(`/v1/album/${albumId}/content/${item}/file`);
      expect([served.status, Buffer.from(await served.arrayBuffer()).equals(kept)]).toEqual([200, true]);
      await expect
        .poll(readiness, { timeout: 30_000, interval: 500 })
        .toEqual({ status: 'degraded', storage: 'read-only' });
    } finally {
      await disk.readOnly(false);
    }
    expect((await put(id, bytes)).status).toBe(200);
  });
});

describe('the log', () => {
  it('has a warning naming the condition for each refusal for want of storage, and no error', () => {
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    const warnings = lines.filter((line) => line.level === 40).map((line) => line.msg);
    const answered = [...tally.statuses].find(([status]) => status === 507)?.[1] ?? 0;
    expect(
      warnings.filter(
        (msg) =>
          msg === 'file storage full: refused with INSUFFICIENT_STORAGE' ||
          msg === 'file storage read-only: refused with INSUFFICIENT_STORAGE',
      ),
    ).toHaveLength(answered + tally.storageRefusalsIn200);
    expect(warnings).toContain('file storage read-only: refused with INSUFFICIENT_STORAGE');
  });
});
