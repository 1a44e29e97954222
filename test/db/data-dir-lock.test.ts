import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, lockDataDir } from '../../src/db/data-dir-lock';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the embedded database lock', () => {
  it('is taken and released by one process', () => {
    dir = mkdtempSync(join(tmpdir(), 'lectern-lock-'));
    const release = lockDataDir(dir);
    expect(readFileSync(join(dir, 'lectern.lock'), 'utf8').trim()).toBe(String(process.pid));
    release();
    expect(existsSync(join(dir, 'lectern.lock'))).toBe(false);
  });

  it('refuses a second process while the first one runs, naming it', async () => {
    dir = mkdtempSync(join(tmpdir(), 'lectern-lock-'));
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      writeFileSync(join(dir, 'lectern.lock'), `${holder.pid}\n`);
      expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
      expect(() => lockDataDir(dir)).toThrow(`in use by process ${holder.pid}`);
    } finally {
      holder.kill();
    }
  });

  it('takes over a lock left by a process that died', () => {
    dir = mkdtempSync(join(tmpdir(), 'lectern-lock-'));
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    writeFileSync(join(dir, 'lectern.lock'), `${gone}\n`);
    const release = lockDataDir(dir);
    expect(readFileSync(join(dir, 'lectern.lock'), 'utf8').trim()).toBe(String(process.pid));
    release();
  });
});
