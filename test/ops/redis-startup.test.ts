import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { migratedDataDir, processTestTimeoutMs, startServerProcess } from '../support/process';

// Each test starts the server as a child process (PGlite): tens of seconds when another test file
// shares the machine's two cores.
vi.setConfig({ testTimeout: processTestTimeoutMs });

const dataDir = migratedDataDir(mkdtempSync(join(tmpdir(), 'lectern-redis-startup-')));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('Redis unreachable at start', () => {
  it('is one fatal log line naming the server, and exit code 1', async () => {
    // Port 1 has nothing listening; the password must not reach the log.
    const server = await startServerProcess({
      DATA_DIR: dataDir,
      SEED_DEMO: 'off',
      LOG_LEVEL: 'info',
      REDIS_URL: 'redis://:hunter2@127.0.0.1:1',
    });
    expect(await server.exited).toBe(1);
    const output = server.output();
    const lines = output.trim().split('\n');
    // Structured only: every line is JSON, none is a stack trace or ioredis' "Unhandled error event".
    const entries = lines.map((line) => JSON.parse(line));
    const fatal = entries.filter((entry) => entry.level === 60);
    expect(fatal).toHaveLength(1);
    expect(fatal[0]).toMatchObject({ msg: 'Redis is unreachable at start (REDIS_URL)', redis: '127.0.0.1:1' });
    expect(fatal[0].reason).toContain('ECONNREFUSED');
    expect(output).not.toContain('hunter2');
    expect(output).not.toMatch(/\n\s+at /);
  });
});
