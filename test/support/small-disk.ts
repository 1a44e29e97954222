import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, statfs, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FileStore, StorageUnavailableError } from '../../src/modules/uploads/file-store';
import { createFolderFileStore } from '../../src/modules/uploads/folder-file-store';

/** A file system's page: the unit room is counted in. */
export const page = 4096;

/** File storage on a small disk that a test fills up and turns read-only. */
export interface SmallDisk {
  /** A 1 MB tmpfs, or a folder whose store refuses writes as such a disk would (where mount(8) is not allowed). */
  kind: 'tmpfs' | 'injected';
  /** The folder store on it. */
  store: FileStore;
  /** The store's folder, to look for files left behind. */
  folder: string;
  /** Fills the disk but for `bytes` (a multiple of `page`); `leaveRoom(Infinity)` empties it again. */
  leaveRoom(bytes: number): Promise<void>;
  readOnly(on: boolean): Promise<void>;
  /** Unmounts and removes it; fails when a file on it is still open (after detaching it all the same). */
  close(): Promise<void>;
}

const errno = (code: string, message: string) => Object.assign(new Error(`${code}: ${message}`), { code });

/** A 1 MB tmpfs on a fresh folder; null where it cannot be mounted (not root, or no mount(8)). */
async function mountTmpfs(): Promise<SmallDisk | null> {
  const mountPoint = await mkdtemp(join(tmpdir(), 'lectern-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mountPoint], { stdio: 'ignore' });
  } catch {
    await rm(mountPoint, { recursive: true, force: true });
    return null;
  }
  const folder = join(mountPoint, 'files');
  const filler = join(mountPoint, 'filler');
  await mkdir(folder);
  return {
    kind: 'tmpfs',
    store: await createFolderFileStore(folder),
    folder,
    async leaveRoom(bytes) {
      await rm(filler, { force: true });
      if (bytes === Infinity) return;
      const { bavail, bsize } = await statfs(mountPoint);
      await writeFile(filler, Buffer.alloc(Math.max(0, bavail * bsize - bytes)));
    },
    async readOnly(on) {
      execFileSync('mount', ['-o', `remount,${on ? 'ro' : 'rw'}`, mountPoint], { stdio: 'ignore' });
    },
    async close() {
      try {
        execFileSync('umount', [mountPoint], { stdio: 'ignore' });
      } catch {
        // Detached all the same, so nothing outlives the test; the failure is the test's finding.
        execFileSync('umount', ['-l', mountPoint], { stdio: 'ignore' });
        throw new Error('the small disk was still in use at the end: a file on it was left open');
      } finally {
        await rm(mountPoint, { recursive: true, force: true });
      }
    },
  };
}

/**
 * A folder store whose writes fail as those on a full or read-only disk do: the file system's error (ENOSPC, EROFS)
 * comes out of the bytes written, so the store's own handling (cleanup, the typed error) is what runs.
 */
async function injectedDisk(): Promise<SmallDisk> {
  const folder = await mkdtemp(join(tmpdir(), 'lectern-small-disk-'));
  const inner = await createFolderFileStore(folder);
  let room = Infinity;
  let readOnly = false;
  async function* refused(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>) {
    if (readOnly) throw errno('EROFS', 'read-only file system, open');
    let used = 0;
    for await (const chunk of source) {
      used += chunk.byteLength;
      if (Math.ceil(used / page) * page > room) throw errno('ENOSPC', 'no space left on device, write');
      yield chunk;
    }
    room -= Math.ceil(used / page) * page;
  }
  return {
    kind: 'injected',
    store: {
      ...inner,
      write: (key, source) => inner.write(key, refused(source)),
      async remove(key) {
        if (readOnly) throw new StorageUnavailableError('read-only', errno('EROFS', 'read-only file system, unlink'));
        room += Math.ceil(((await inner.size(key)) ?? 0) / page) * page;
        await inner.remove(key);
      },
      async probe() {
        if (readOnly) throw new StorageUnavailableError('read-only', errno('EROFS', 'read-only file system, open'));
        if (room < page) throw new StorageUnavailableError('full', errno('ENOSPC', 'no space left on device, write'));
      },
    },
    folder,
    async leaveRoom(bytes) {
      room = bytes;
    },
    async readOnly(on) {
      readOnly = on;
    },
    close: () => rm(folder, { recursive: true, force: true }),
  };
}

/** A small disk: a real tmpfs where the test may mount one (root, as in CI here), else the injected failures. */
export async function openSmallDisk(): Promise<SmallDisk> {
  return (await mountTmpfs()) ?? injectedDisk();
}
