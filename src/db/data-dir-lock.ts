import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The embedded database already has a process; a second one would neither see nor keep the first one's writes. */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${resolve(dataDir)} is in use by process ${pid} (a running server?): stop it first. ` +
        'The embedded database serves one process at a time; several processes can share a PostgreSQL database (DATABASE_URL).',
    );
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the data folder for this process, or throws DataDirInUseError. A lock left by a process that has died is taken
 * over. Returns the function that releases it.
 */
export function lockDataDir(dataDir: string): () => void {
  const file = join(dataDir, 'lectern.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number.parseInt(readFileSync(file, 'utf8'), 10);
    if (holder && holder !== process.pid && isRunning(holder)) throw new DataDirInUseError(dataDir, holder);
    rmSync(file, { force: true });
  }
  throw new Error(`Could not lock ${resolve(dataDir)}: another process keeps taking it`);
}
