import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolderFileStore, createTemporaryFileStore } from '../../src/modules/uploads/folder-file-store';
import { type SmallDisk, openSmallDisk } from '../support/small-disk';
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

// The file system's own refusals: on a 1 MB tmpfs only (test/uploads/full-disk.test.ts covers the injected ones too).
describe('folder store on a small disk', () => {
  let disk: SmallDisk;
  beforeAll(async () => {
    disk = await openSmallDisk();
  });
  afterAll(() => disk?.close());

  it('reports a full file system as StorageUnavailableError (full), keeping no partial file; so does its probe', async (context) => {
    if (disk.kind !== 'tmpfs') context.skip();
    const refused = disk.store.write('f-big', [randomBytes(2 * 1024 * 1024)]);
    await expect(refused).rejects.toMatchObject({
      name: 'StorageUnavailableError',
      condition: 'full',
      cause: { code: 'ENOSPC' },
    });
    expect(await readdir(disk.folder)).toEqual([]);
    await expect(disk.store.probe!()).resolves.toBeUndefined();
    await disk.leaveRoom(0);
    await expect(disk.store.probe!()).rejects.toMatchObject({ name: 'StorageUnavailableError', condition: 'full' });
    expect(await readdir(disk.folder)).toEqual([]);
    await disk.leaveRoom(Infinity);
  });

  it('reports a read-only file system as StorageUnavailableError (read-only) for writes, removals and its probe, and reads on', async (context) => {
    if (disk.kind !== 'tmpfs') context.skip();
    await disk.store.write('f-kept', [Buffer.from('kept')]);
    await disk.readOnly(true);
    try {
      const readOnly = { name: 'StorageUnavailableError', condition: 'read-only', cause: { code: 'EROFS' } };
      await expect(disk.store.write('f-new', [Buffer.from('new')])).rejects.toMatchObject(readOnly);
      await expect(disk.store.remove('f-kept')).rejects.toMatchObject(readOnly);
      await expect(disk.store.probe!()).rejects.toMatchObject(readOnly);
      expect(await disk.store.size('f-kept')).toBe(4);
    } finally {
      await disk.readOnly(false);
    }
  });
});
