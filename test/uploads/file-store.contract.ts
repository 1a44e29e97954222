import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileStore } from '../../src/modules/uploads/file-store';

async function bytesOf(stream: Readable | null): Promise<Buffer | null> {
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

async function* failingAfter(bytes: Buffer): AsyncGenerator<Uint8Array> {
  yield bytes;
  throw new Error('client went away');
}

const key = () => `f-${randomBytes(8).toString('hex')}`;

/**
 * What every FileStore implementation must do: the folder store runs it here, and an S3 store runs the same
 * function against its bucket.
 */
export function fileStoreContract(name: string, open: () => Promise<FileStore>) {
  describe(`${name} (FileStore contract)`, () => {
    let store: FileStore;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(() => store.close());

    it('writes chunks and reads them back whole, with their size', async () => {
      const k = key();
      const parts = [randomBytes(70_000), randomBytes(3), randomBytes(100_001)];
      await store.write(k, parts);
      expect(await store.size(k)).toBe(170_004);
      expect((await bytesOf(await store.read(k)))!.equals(Buffer.concat(parts))).toBe(true);
    });

    it('writes a file of several multipart parts (12 MB in 64 KB chunks)', async () => {
      const k = key();
      const chunks = Array.from({ length: 192 }, () => randomBytes(64 * 1024));
      await store.write(k, chunks);
      expect(await store.size(k)).toBe(12 * 1024 * 1024);
      const read = await bytesOf(await store.read(k, { start: 5 * 1024 * 1024 - 2, end: 5 * 1024 * 1024 + 1 }));
      expect(read!.equals(Buffer.concat(chunks).subarray(5 * 1024 * 1024 - 2, 5 * 1024 * 1024 + 2))).toBe(true);
    });

    it('reads a byte range, both ends included', async () => {
      const k = key();
      const bytes = randomBytes(1000);
      await store.write(k, [bytes]);
      expect((await bytesOf(await store.read(k, { start: 10, end: 19 })))!.equals(bytes.subarray(10, 20))).toBe(true);
      expect((await bytesOf(await store.read(k, { start: 999, end: 999 })))!.equals(bytes.subarray(999))).toBe(true);
    });

    it('stores an empty file', async () => {
      const k = key();
      await store.write(k, []);
      expect(await store.size(k)).toBe(0);
      expect((await bytesOf(await store.read(k)))!.length).toBe(0);
    });

    it('answers null for a key it does not hold', async () => {
      const k = key();
      expect(await store.read(k)).toBeNull();
      expect(await store.size(k)).toBeNull();
    });

    it('keeps nothing when the source fails midway', async () => {
      const k = key();
      await expect(store.write(k, failingAfter(randomBytes(50_000)))).rejects.toThrow('client went away');
      expect(await store.size(k)).toBeNull();
      expect(await store.read(k)).toBeNull();
    });

    it('removes a file, and removing a missing key does nothing', async () => {
      const k = key();
      await store.write(k, [Buffer.from('gone soon')]);
      await store.remove(k);
      expect(await store.size(k)).toBeNull();
      await expect(store.remove(k)).resolves.toBeUndefined();
    });

    it('refuses a key that could name a path outside the store', async () => {
      for (const bad of ['../escape', 'a/b', '', '.hidden', 'UPPER', 'x'.repeat(200)]) {
        await expect(store.write(bad, [Buffer.from('x')])).rejects.toThrow('invalid storage key');
        await expect(store.read(bad)).rejects.toThrow('invalid storage key');
      }
    });
  });
}
