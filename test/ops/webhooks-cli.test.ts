import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { newSigningSecret } from '../../src/webhooks/signing';
import {
  cleanEnvironment,
  migratedDataDir,
  processTestTimeoutMs,
  projectRoot,
  startServerProcess,
  waitUntilReady,
} from '../support/process';

// Each test starts the server or the CLI as a child process (PGlite): tens of seconds when another
// test file shares the machine's two cores.
vi.setConfig({ testTimeout: processTestTimeoutMs });

// `lectern webhooks ...` as a receiver developer runs them: each its own process. The listener runs on a free port
// (--port 0), ready once it prints where it listens; it opens no database. send-sample runs on an embedded database
// made by the other commands and a server (PGlite allows one process per data folder, so those steps run in order).

const tempDir = mkdtempSync(join(tmpdir(), 'lectern-webhooks-cli-'));
const dataDir = migratedDataDir(join(tempDir, 'data'));
afterAll(() => rmSync(tempDir, { recursive: true, force: true }));

interface Listener {
  child: ChildProcess;
  base: string;
  /** Everything printed so far. */
  output(): string;
  /** Resolves once the output holds `text` (fails with the output when the process ends first). */
  printed(text: string): Promise<void>;
  exited: Promise<number | null>;
}

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

function run(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['bin/lectern.mjs', 'webhooks', ...args], {
    cwd: projectRoot,
    env: cleanEnvironment(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let stdout = '';
  let stderr = '';
  const waiting = new Set<() => void>();
  child.stdout!.on('data', (chunk) => {
    stdout += chunk;
    for (const check of waiting) check();
  });
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  const printed = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!stdout.includes(text)) return;
        waiting.delete(check);
        resolve();
      };
      waiting.add(check);
      check();
      exited.then(() => reject(new Error(`exited before printing "${text}":\n${stdout}\n${stderr}`)));
    });
  return { child, exited, printed, stdout: () => stdout, stderr: () => stderr };
}

async function listen(args: string[], env: Record<string, string> = {}): Promise<Listener> {
  const process = run(['listen', '--port', '0', ...args], env);
  await process.printed('Ctrl-C stops.');
  const base = /Listening for webhooks on (http:\/\/127\.0\.0\.1:\d+)\//.exec(process.stdout())![1];
  return { ...process, base, output: process.stdout };
}

/** A POST signed as deliveries are (the same package, the same headers). */
function signed(secret: string, body: string, id = 'evt_41', at = new Date()) {
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, at, body),
  };
}

const event = {
  uid: 7,
  timestamp: 1_764_000_000,
  type: 'group.update',
  data: [{ realm: 'group', group_id: 12, realm_id: 12 }],
};

describe('lectern webhooks listen', () => {
  it('prints each signed event as JSON, answers 401 with a clear line for a bad or missing signature, and stops on SIGINT', async () => {
    const secret = newSigningSecret();
    const listener = await listen(['--secret', secret]);
    expect(listener.output()).toContain('(signatures checked)');
    const body = JSON.stringify(event);

    const good = await fetch(`${listener.base}/hooks`, { method: 'POST', headers: signed(secret, body), body });
    expect(good.status).toBe(204);
    await listener.printed('✓ POST /hooks group.update webhook-id evt_41, signature verified');
    expect(listener.output()).toContain(JSON.stringify(event, null, 2));

    const forged = await fetch(`${listener.base}/hooks`, {
      method: 'POST',
      headers: signed(newSigningSecret(), body, 'evt_42'),
      body,
    });
    expect(forged.status).toBe(401);
    expect(await forged.text()).toBe(
      '✗ POST /hooks webhook-id evt_42: bad signature: No matching signature found (401)',
    );
    await listener.printed('✗ POST /hooks webhook-id evt_42: bad signature: No matching signature found (401)');

    const tampered = await fetch(`${listener.base}/hooks`, {
      method: 'POST',
      headers: signed(secret, body, 'evt_43'),
      body: body.replace('12', '13'),
    });
    expect(tampered.status).toBe(401);
    await listener.printed('webhook-id evt_43: bad signature: No matching signature found (401)');

    const stale = await fetch(`${listener.base}/hooks`, {
      method: 'POST',
      headers: signed(secret, body, 'evt_44', new Date(Date.now() - 3_600_000)),
      body,
    });
    expect(stale.status).toBe(401);
    await listener.printed('webhook-id evt_44: bad signature: Message timestamp too old (401)');

    const unsigned = await fetch(`${listener.base}/hooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(unsigned.status).toBe(401);
    await listener.printed('✗ POST /hooks webhook-id -: bad signature: no webhook-signature header (401)');
    // Refused events are not printed as events.
    expect(listener.output().split(JSON.stringify(event, null, 2))).toHaveLength(2);

    // A sender's keep-alive connection does not hold the stop.
    listener.child.kill('SIGINT');
    expect(await listener.exited).toBe(0);
    expect(listener.output().trimEnd().endsWith('Stopped.')).toBe(true);
  });

  it('without a secret says it checks nothing and prints every event; refuses what is not a JSON POST; stops on SIGTERM', async () => {
    const listener = await listen([]);
    expect(listener.output()).toContain('signatures NOT checked: give --secret');
    const body = JSON.stringify(event);

    const plain = await fetch(`${listener.base}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(plain.status).toBe(204);
    await listener.printed('✓ POST / group.update webhook-id -, not checked (no --secret)');

    const notJson = await fetch(`${listener.base}/`, { method: 'POST', body: 'uid=7' });
    expect(notJson.status).toBe(400);
    await listener.printed('✗ POST / webhook-id -: body is not JSON (400)');
    const get = await fetch(`${listener.base}/`);
    expect(get.status).toBe(405);
    await listener.printed('✗ GET /: only POST is accepted (405)');

    listener.child.kill('SIGTERM');
    expect(await listener.exited).toBe(0);
    expect(listener.output()).toContain('Stopped.');
  });

  it('takes the secret from LECTERN_WEBHOOK_SECRET, so it need not show in the process list', async () => {
    const secret = newSigningSecret();
    const listener = await listen([], { LECTERN_WEBHOOK_SECRET: secret });
    const body = JSON.stringify(event);
    expect((await fetch(`${listener.base}/`, { method: 'POST', headers: signed(secret, body), body })).status).toBe(
      204,
    );
    expect(
      (await fetch(`${listener.base}/`, { method: 'POST', headers: signed(newSigningSecret(), body), body })).status,
    ).toBe(401);
    listener.child.kill('SIGTERM');
    expect(await listener.exited).toBe(0);
  });

  it('rejects a bad port or secret with exit 2 and a message, and names a port in use', async () => {
    const cases: [string[], string][] = [
      [['listen', '--port', 'http'], '--port must be a port number (0 picks a free one)'],
      [['listen', '--port', '70000'], '--port must be a port number (0 picks a free one)'],
      [
        ['listen', '--secret', 'hunter2'],
        '--secret must be a signing secret as the target shows it (whsec_ and base64)',
      ],
      [['listne'], 'Unknown command: webhooks listne'],
    ];
    const results = await Promise.all(
      cases.map(async ([args]) => {
        const process = run(args);
        return { code: await process.exited, stdout: process.stdout(), stderr: process.stderr() };
      }),
    );
    for (const [index, result] of results.entries()) {
      expect(result).toMatchObject({ code: 2, stdout: '' });
      expect(result.stderr).toContain(cases[index]![1]);
    }

    const first = await listen([]);
    const port = new URL(first.base).port;
    const second = run(['listen', '--port', port]);
    expect(await second.exited).toBe(2);
    expect(second.stderr()).toContain(`Cannot listen on 127.0.0.1:${port}: listen EADDRINUSE`);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
  });
});

describe('lectern webhooks send-sample', () => {
  // A target of the demo district administrator's school (they administer triggers), made through GraphQL.
  async function demoTarget(url: string): Promise<{ id: string; secret: string }> {
    const seed = spawn(process.execPath, ['bin/lectern.mjs', 'seed-demo'], {
      cwd: projectRoot,
      env: cleanEnvironment({ DATA_DIR: dataDir }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let printed = '';
    seed.stdout.on('data', (chunk) => (printed += chunk));
    expect(await new Promise((resolve) => seed.once('close', resolve))).toBe(0);
    const token = /bearer token:\s+(\S+)/.exec(printed)![1];
    const server = await startServerProcess({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
      WEBHOOK_ALLOW_HTTP: 'on',
    });
    try {
      await waitUntilReady(server);
      const response = await fetch(`${server.base}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          query: `mutation($url: String!) { createTriggerTarget(input: { url: $url }) { triggerTarget { id: databaseId secret } } }`,
          variables: { url },
        }),
      });
      type Created = { data: { createTriggerTarget: { triggerTarget: { id: string; secret: string } } } };
      return ((await response.json()) as Created).data.createTriggerTarget.triggerTarget;
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
  }

  const sendSample = async (args: string[], env: Record<string, string> = {}) => {
    const process = run(['send-sample', ...args], {
      DATA_DIR: dataDir,
      WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
      WEBHOOK_ALLOW_HTTP: 'on',
      ...env,
    });
    return { code: await process.exited, stdout: process.stdout(), stderr: process.stderr() };
  };

  it(
    'sends a target a signed sample that the listener verifies, and reports the status and latency; exit 1 when refused',
    async () => {
      const listener = await listen([]);
      const target = await demoTarget(`${listener.base}/hooks`);
      listener.child.kill('SIGTERM');
      await listener.exited;
      // Now listening with the target's secret, where the target points.
      const checking = await listen(['--secret', target.secret]);
      expect(checking.base).not.toBe(listener.base);
      const moved = await sendSample(['--target', target.id, '--trigger', 'group']);
      expect(moved.code).toBe(1);
      expect(moved.stdout).toMatch(
        new RegExp(
          `^POST ${listener.base}/hooks group\\.create \\(webhook-id sample_[0-9a-f-]+\\): no answer after \\d+ ms: .*ECONNREFUSED`,
        ),
      );
      checking.child.kill('SIGTERM');
      await checking.exited;

      const port = new URL(listener.base).port;
      const receiving = await listen(['--port', port, '--secret', target.secret]);
      const sent = await sendSample(['--target', target.id, '--trigger', 'blog_post', '--operation', 'delete']);
      expect(sent, sent.stderr).toMatchObject({ code: 0, stderr: '' });
      const webhookId = new RegExp(
        `^POST ${receiving.base}/hooks blog_post\\.delete \\(webhook-id (sample_[0-9a-f-]+)\\): 204 in \\d+ ms$`,
      ).exec(sent.stdout.trim())?.[1];
      expect(webhookId, sent.stdout).toBeDefined();
      await receiving.printed(`✓ POST /hooks blog_post.delete webhook-id ${webhookId}, signature verified`);
      expect(receiving.output()).toContain('"type": "blog_post.delete"');
      receiving.child.kill('SIGTERM');
      await receiving.exited;

      // A listener checking another secret refuses the sample: the command says so and exits 1.
      const strict = await listen(['--port', port, '--secret', newSigningSecret()]);
      const refused = await sendSample(['--target', target.id, '--trigger', 'group']);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toMatch(
        /: 401 in \d+ ms\n✗ POST \/hooks webhook-id sample_[0-9a-f-]+: bad signature: No matching signature found \(401\)/,
      );
      strict.child.kill('SIGTERM');
      await strict.exited;

      // The server's address guard applies: plain http to 127.0.0.1 is refused unless the configuration opens it.
      const guarded = await sendSample(['--target', target.id, '--trigger', 'group'], {
        WEBHOOK_ALLOW_HOSTS: '',
        WEBHOOK_ALLOW_HTTP: '',
      });
      expect(guarded.code).toBe(1);
      expect(guarded.stdout).toMatch(/no answer after \d+ ms: target is not https$/m);

      // Unknown trigger, operation or target: a message and exit 2.
      const mistakes: [string[], string][] = [
        [['--target', target.id, '--trigger', 'report_card'], 'The trigger with name report_card does not exist'],
        [
          ['--target', target.id, '--trigger', 'grades', '--operation', 'delete'],
          "operation: must be one of the trigger's operations: update",
        ],
        [['--target', '999999', '--trigger', 'group'], 'TriggerTarget 999999 was not found'],
      ];
      for (const [args, message] of mistakes) {
        const result = await sendSample(args);
        expect(result).toMatchObject({ code: 2, stdout: '' });
        expect(result.stderr.trim()).toBe(message);
      }
    },
    processTestTimeoutMs,
  );

  it('checks its arguments before opening a database', async () => {
    const untouched = join(tempDir, 'untouched');
    const cases: [string[], string][] = [
      [['--trigger', 'group'], '--target <id> is required and must be a numeric target id'],
      [['--target', 'x', '--trigger', 'group'], '--target <id> is required and must be a numeric target id'],
      [['--target', '3'], '--trigger <name> is required (the triggers GraphQL lists)'],
    ];
    const results = await Promise.all(cases.map(([args]) => sendSample(args, { DATA_DIR: untouched })));
    for (const [index, result] of results.entries()) {
      expect(result).toMatchObject({ code: 2, stdout: '' });
      expect(result.stderr).toContain(cases[index]![1]);
    }
    expect(existsSync(untouched)).toBe(false);
  });
});
