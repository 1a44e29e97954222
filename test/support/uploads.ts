import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { RestClient } from './client';

/**
 * Random bytes that no file signature matches (hex text), for a plain file: raw random bytes sniff as audio
 * now and then (an MP3 frame header is eleven set bits), which made "is a plain file" tests flaky.
 */
export const plainBytes = (length: number) =>
  Buffer.from(
    randomBytes(Math.ceil(length / 2))
      .toString('hex')
      .slice(0, length),
  );

export const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');

/** The two steps of an upload (announce, then PUT the bytes) as a client does them: the stored file's id. */
export async function uploadFile(client: RestClient, bytes: Buffer, filename = 'file.bin'): Promise<number> {
  const created = await client.post('/upload', { filename, filesize: bytes.length, md5_checksum: md5(bytes) });
  expect(created.status).toBe(201);
  expect((await client.put(`/upload/${created.json.id}`, bytes)).status).toBe(200);
  return created.json.id;
}
