import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { issueAccessToken } from '../../src/modules/access/access.service';
import { fileStore } from '../../src/modules/uploads/file-store';
import { createDistrict, createSchool, createUser } from '../support/factories';
import { sendInChunks } from '../support/chunks';
import { listenOnLoopback, useTestServer } from '../support/harness';

// Uploads over a real socket, as clients send them: the body streams to storage as it arrives, and a refusal while
// the client is still sending reaches it.

const server = useTestServer({ UPLOAD_LIMIT: '64mb' });
let port: number;
let close: () => Promise<void>;
let token: string;
let userId: number;

beforeAll(async () => {
  ({ port, close } = await listenOnLoopback(server));
  const school = await createSchool((await createDistrict()).id);
  userId = (await createUser(school.id, 'TEACHER')).id;
  token = (await issueAccessToken({ userId, name: 'socket' })).token;
});

afterAll(() => close?.());

const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');

async function announce(size: number, checksum: string): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}/v1/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ filename: 'big.bin', filesize: size, md5_checksum: checksum }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: number }).id;
}

/** PUTs `chunks` one after another, each once the previous one is written, until the server answers. */
const putInChunks = (id: number, chunks: Buffer[], headers: Record<string, string> = {}) =>
  sendInChunks({
    port,
    method: 'PUT',
    path: `/v1/upload/${id}`,
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/json',
      'content-type': 'application/octet-stream',
      ...headers,
    },
    chunks,
  });

describe('PUT /v1/upload/{id} over a socket', () => {
  it('stores 24 MB sent in 64 KB chunks, checked against its size and checksum', async () => {
    const chunks = Array.from({ length: 384 }, () => randomBytes(64 * 1024));
    const whole = Buffer.concat(chunks);
    const id = await announce(whole.length, md5(whole));
    const answer = await putInChunks(id, chunks, { 'content-length': String(whole.length) });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ id, status: 'stored', filesize: whole.length });
    const { storageKey } = await db().upload.findUniqueOrThrow({ where: { id } });
    expect(await fileStore().size(storageKey)).toBe(whole.length);
  });

  it('answers 400 to a chunked body longer than announced while the client is still sending, keeping nothing', async () => {
    const announced = randomBytes(100_000);
    const id = await announce(announced.length, md5(announced));
    const chunks = Array.from({ length: 512 }, () => randomBytes(64 * 1024));
    const answer = await putInChunks(id, chunks, { 'transfer-encoding': 'chunked' });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).issues).toEqual([
      { field: 'filesize', message: 'the file is longer than the announced 100000 bytes' },
    ]);
    // Refused long before the 32 MB were sent.
    expect(answer.sent).toBeLessThan(16 * 1024 * 1024);
    const row = await db().upload.findUniqueOrThrow({ where: { id } });
    expect(row.status).toBe('PENDING');
    expect(await fileStore().size(row.storageKey)).toBeNull();
  });

  it("answers 404 for someone else's upload without reading the body, and the client gets the answer", async () => {
    const other = await db().upload.create({
      data: {
        ownerId: userId + 100_000,
        filename: 'x',
        filesize: 10,
        md5Checksum: md5(Buffer.from('x')),
        storageKey: `f-${randomBytes(16).toString('hex')}`,
      },
    });
    const answer = await putInChunks(
      other.id,
      Array.from({ length: 64 }, () => randomBytes(64 * 1024)),
      { 'transfer-encoding': 'chunked' },
    );
    expect(answer.status).toBe(404);
  });
});
