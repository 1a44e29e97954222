import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { fileStore } from '../../src/modules/uploads/file-store';
import { clientsFor } from '../support/client';
import { createAlbum, createDistrict, createGroup, createSchool, createUser } from '../support/factories';
import { useTestServer } from '../support/harness';

// The whole path with S3_* set: uploads stream into a bucket (a local s3rver), album items are served from it, and
// deleting an item removes its objects.

let s3: S3rver;
let folder: string;
const env: Record<string, string> = {};

// Registered before the test server's own hook, which reads `env` when it runs.
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'lectern-s3rver-'));
  s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: folder,
    configureBuckets: [{ name: 'school-files', configs: [] }],
  });
  const { port } = await s3.run();
  Object.assign(env, {
    S3_BUCKET: 'school-files',
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_PREFIX: 'uploads/',
  });
});

const server = useTestServer(env);
const clients = clientsFor(server);

afterAll(async () => {
  await s3?.close();
  await rm(folder, { recursive: true, force: true });
});

const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');

describe('uploads in an S3 bucket', () => {
  it('stores, examines, serves with ranges, and removes the objects of a deleted item', async () => {
    const school = await createSchool((await createDistrict()).id);
    const teacher = await createUser(school.id, 'TEACHER');
    const group = await createGroup(school.id, { admins: [teacher.id] });
    const album = await createAlbum({ type: 'GROUP', id: group.id });
    const client = await clients.rest(teacher);
    const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();

    const announced = await client.post('/upload', {
      filename: 'chart.png',
      filesize: png.length,
      md5_checksum: md5(png),
    });
    const stored = await client.put(`/upload/${announced.json.id}`, png);
    expect(stored.status).toBe(200);
    expect(stored.json).toMatchObject({ type: 'image', content_dimensions: '300x200' });
    const row = await db().upload.findUniqueOrThrow({ where: { id: announced.json.id } });
    expect(await fileStore().size(row.storageKey)).toBe(png.length);

    const [item] = (
      await client.post(`/groups/${group.id}/albums/${album.id}/content`, { 'file-attachment': { id: [row.id] } })
    ).json.content;
    const served = await server.app.fetch(
      new Request(item.content_url, {
        headers: { authorization: client.authorization('GET', item.content_url), range: 'bytes=0-7' },
      }),
    );
    expect(served.status).toBe(206);
    expect(Buffer.from(await served.arrayBuffer()).equals(png.subarray(0, 8))).toBe(true);
    const thumbnail = await server.app.fetch(
      new Request(item.thumbnail_url, { headers: { authorization: client.authorization('GET', item.thumbnail_url) } }),
    );
    expect(await sharp(Buffer.from(await thumbnail.arrayBuffer())).metadata()).toMatchObject({
      width: 240,
      height: 160,
    });

    expect((await client.delete(`/album/${album.id}/content/${item.id}`)).status).toBe(204);
    expect(await fileStore().size(row.storageKey)).toBeNull();
    expect(await fileStore().size(row.thumbnailKey!)).toBeNull();
  });
});
