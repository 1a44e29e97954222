import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  freePort,
  migratedDataDir,
  processTestTimeoutMs,
  startServerProcess,
  waitUntilReady,
} from '../support/process';

vi.setConfig({ testTimeout: processTestTimeoutMs });

const dataDir = migratedDataDir(mkdtempSync(join(tmpdir(), 'lectern-metrics-')));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('METRICS_PORT', () => {
  it('serves /metrics on a listener of its own, not on the main port, and closes it on SIGTERM', async () => {
    const metricsPort = await freePort();
    const server = await startServerProcess({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      SEED_DEMO: 'off',
      METRICS_PORT: String(metricsPort),
      METRICS_HOST: '127.0.0.1',
    });
    await waitUntilReady(server);
    const metrics = `http://127.0.0.1:${metricsPort}/metrics`;

    expect((await fetch(`${server.base}/v1/users/me`)).status).toBe(401);
    expect((await fetch(`${server.base}/metrics`)).status).toBe(404);
    const scraped = await fetch(metrics);
    expect(scraped.status).toBe(200);
    const text = await scraped.text();
    expect(text).toContain('lectern_database_up 1');
    expect(text).toMatch(
      /^lectern_http_request_duration_seconds_count\{[^}]*route="GET \/v1\/users\/me"[^}]*status_class="4xx"[^}]*\} 1$/m,
    );
    expect(text).toMatch(/^process_cpu_seconds_total \d/m);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('metrics at /metrics');
    await expect(fetch(metrics)).rejects.toThrow();
  });
});
