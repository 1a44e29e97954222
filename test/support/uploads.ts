import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import type { RestClient } from './client';

export const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');

/** The two steps of an upload (announce, then PUT the bytes) as a client does them: the stored file's id. */
export async function uploadFile(client: RestClient, bytes: Buffer, filename = 'file.bin'): Promise<number> {
  const created = await client.post('/upload', { filename, filesize: bytes.length, md5_checksum: md5(bytes) });
  expect(created.status).toBe(201);
  expect((await client.put(`/upload/${created.json.id}`, bytes)).status).toBe(200);
  return created.json.id;
}
