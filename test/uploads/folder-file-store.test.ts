import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFolderFileStore, createTemporaryFileStore } from '../../src/modules/uploads/folder-file-store';
import { fileStoreContract } from './file-store.contract';

const folders: string[] = [];
afterAll(() => Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))));

async function freshFolder() {
  const folder = await mkdtemp(join(tmpdir(), 'lectern-store-test-'));
  folders.push(folder);
  return folder;
}

fileStoreContract('folder store', async () => createFolderFileStore(await freshFolder()));

describe('folder store', () => {
  it('leaves no partial file behind a failed write', async () => {
    const folder = await freshFolder();
    const store = await createFolderFileStore(folder);
    async function* broken() {
      yield Buffer.alloc(10_000);
      throw new Error('cut');
    }
    await expect(store.write('f-abc', broken())).rejects.toThrow('cut');
    expect(await readdir(folder)).toEqual([]);
  });

  it('a temporary store removes its folder on close', async () => {
    const store = await createTemporaryFileStore();
    await store.write('f-1', [Buffer.from('x')]);
    await store.close();
    await expect(store.write('f-2', [Buffer.from('x')])).rejects.toThrow();
  });
});
