import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OAuth from 'oauth-1.0a';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  cleanEnvironment,
  processTestTimeoutMs,
  projectRoot,
  startServerProcess,
  waitUntilReady,
} from '../support/process';

// Each test starts the server or the CLI as a child process (PGlite, migrations): tens of seconds when another
// test file shares the machine's two cores.
vi.setConfig({ testTimeout: processTestTimeoutMs });

// The command-line tool as a person runs it: `node bin/lectern.mjs <command>` (what `npx lectern` runs), each command
// its own process on one embedded database. PGlite allows one process per data folder, so the steps run in order and
// share what earlier ones printed; the server is started once, to check every credential the commands issued.

const tempDir = mkdtempSync(join(tmpdir(), 'lectern-cli-'));
const dataDir = join(tempDir, 'data');
afterAll(() => rmSync(tempDir, { recursive: true, force: true }));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(file: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  const child = spawn(file, args, {
    cwd: projectRoot,
    env: cleanEnvironment({ DATA_DIR: dataDir, ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const lectern = (args: string[], env?: Record<string, string>) =>
  run(process.execPath, ['bin/lectern.mjs', ...args], env);

function printed(output: string, label: string): string {
  const match = new RegExp(`${label}:\\s+(\\S+)`).exec(output);
  if (!match) throw new Error(`no "${label}" in:\n${output}`);
  return match[1];
}

async function startServer() {
  const server = await startServerProcess({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
  await waitUntilReady(server);
  return server;
}

/** GET signed with two-legged OAuth 1.0a, HMAC-SHA1, as platform client libraries send it. */
async function signedGet(base: string, credential: { key: string; secret: string }, path: string) {
  const oauth = new OAuth({
    consumer: credential,
    signature_method: 'HMAC-SHA1',
    hash_function: (text, key) => createHmac('sha1', key).update(text).digest('base64'),
    realm: 'Schoology API',
  });
  const url = `${base}/v1${path}`;
  const headers = { ...oauth.toHeader(oauth.authorize({ method: 'GET', url })), accept: 'application/json' };
  const response = await fetch(url, { headers, redirect: 'manual' });
  const text = await response.text();
  const json = response.headers.get('content-type')?.includes('json') && text ? JSON.parse(text) : undefined;
  return { status: response.status, location: response.headers.get('location'), text, json };
}

// What earlier steps printed, for later ones.
let demo: { key: string; secret: string; token: string; districtId: string; userId: string };
let issued: { key: string; secret: string };
let bearerToken: string;

describe('the lectern command line', () => {
  it('migrate creates the embedded database, and a second run, through npm, finds nothing to do', async () => {
    const first = await lectern(['migrate']);
    expect(first, first.stderr).toMatchObject({ code: 0 });
    expect(first.stdout.trim()).toBe('Database is up to date.');
    expect(existsSync(join(dataDir, 'pglite'))).toBe(true);

    // The second run goes through npm, as a checkout runs it: one process checks both, and each takes seconds.
    const second = await run('npm', ['run', '--silent', 'lectern', '--', 'migrate']);
    expect(second, second.stderr).toMatchObject({ code: 0 });
    expect(second.stdout.trim()).toBe('Database is up to date.');
    // Closed cleanly: the lock is released, or the next command would find the database in use.
    expect(existsSync(join(dataDir, 'lectern.lock'))).toBe(false);
  });

  it('seed-demo prints the district administrator, their API credentials and a bearer token', async () => {
    const result = await lectern(['seed-demo']);
    expect(result, result.stderr).toMatchObject({ code: 0 });
    demo = {
      key: printed(result.stdout, 'consumer key'),
      secret: printed(result.stdout, 'consumer secret'),
      token: printed(result.stdout, 'bearer token'),
      districtId: /^Try: .*\/v1\/districts\/(\d+)\/posts/m.exec(result.stdout)![1],
      userId: /\(user (\d+)\)/.exec(result.stdout)![1],
    };
    expect(demo.key).toMatch(/^[\w-]{16,}$/);
    expect(demo.secret).toMatch(/^[\w-]{24,}$/);
    // Ready curl lines for both APIs, aimed at where the server will listen.
    expect(result.stdout).toMatch(
      new RegExp(`^  curl -s http://127\\.0\\.0\\.1:4000/graphql -H 'Authorization: Bearer ${demo.token}'`, 'm'),
    );
    expect(result.stdout).toMatch(
      new RegExp(`^  curl -s http://127\\.0\\.0\\.1:4000/v1/users/${demo.userId} -H "Authorization: OAuth `, 'm'),
    );
  });

  it('create-api-client and create-access-token issue credentials for a user', async () => {
    const client = await lectern(['create-api-client', '--user', demo.userId, '--name', 'cli test']);
    expect(client, client.stderr).toMatchObject({ code: 0 });
    issued = { key: printed(client.stdout, 'consumer key'), secret: printed(client.stdout, 'consumer secret') };
    expect(issued.key).not.toBe(demo.key);

    const token = await lectern(['create-access-token', '--user', demo.userId, '--days', '7']);
    expect(token, token.stderr).toMatchObject({ code: 0 });
    const match = /^bearer token: (\S+) \(expires (\S+)\)$/m.exec(token.stdout);
    expect(match, token.stdout).not.toBeNull();
    bearerToken = match![1];
    const expiresInDays = (Date.parse(match![2]) - Date.now()) / 86_400_000;
    expect(expiresInDays).toBeGreaterThan(6.99);
    expect(expiresInDays).toBeLessThanOrEqual(7);
  });

  it(
    'the server accepts every printed credential and serves the demo district; commands refuse to run beside it',
    async () => {
      const server = await startServer();
      try {
        const { base } = server;
        const me = await signedGet(base, demo, '/users/me');
        expect(me.status, me.text).toBe(303);
        expect(me.location).toBe(`${base}/v1/users/${demo.userId}`);

        const groups = await signedGet(base, demo, '/groups');
        expect(groups.status, groups.text).toBe(200);
        expect(groups.json.total).toBeGreaterThanOrEqual(2);
        expect(groups.json.group.map((group: { title: string }) => group.title)).toEqual(
          expect.arrayContaining(['Chess Club', 'Annex Robotics']),
        );

        const posts = await signedGet(base, demo, `/districts/${demo.districtId}/posts`);
        expect(posts.status, posts.text).toBe(200);
        expect(posts.json.post).toEqual(expect.arrayContaining([expect.objectContaining({ title: 'Welcome back' })]));

        const schools = await signedGet(base, demo, '/schools');
        expect(schools.status, schools.text).toBe(200);
        const high = schools.json.school.find((school: { title: string }) => school.title === 'Lakeside High School');
        expect(high, schools.text).toBeDefined();
        const buildings = await signedGet(base, demo, `/schools/${high.id}/buildings`);
        expect(buildings.status, buildings.text).toBe(200);
        expect(buildings.json.building.map((building: { title: string }) => building.title)).toEqual([
          'Lakeside High – North Annex',
        ]);

        const issuedMe = await signedGet(base, issued, '/users/me');
        expect(issuedMe.status, issuedMe.text).toBe(303);
        expect(issuedMe.location).toBe(`${base}/v1/users/${demo.userId}`);
        const forged = await signedGet(base, { key: issued.key, secret: `${issued.secret}x` }, '/users/me');
        expect(forged.status).toBe(401);

        const graphql = await fetch(`${base}/graphql`, {
          method: 'POST',
          headers: { authorization: `Bearer ${bearerToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ viewer { id: databaseId } }' }),
        });
        expect(await graphql.json()).toEqual({ data: { viewer: { id: demo.userId } } });
        const demoToken = await fetch(`${base}/graphql`, {
          method: 'POST',
          headers: { authorization: `Bearer ${demo.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ viewer { id: databaseId } }' }),
        });
        expect(await demoToken.json()).toEqual({ data: { viewer: { id: demo.userId } } });

        // A second process on the folder would write where the server neither reads nor keeps: refused, untouched.
        const beside = await lectern(['seed-demo']);
        expect(beside.code).toBe(2);
        expect(beside.stderr).toContain(`is in use by process ${server.child.pid} (a running server?): stop it first`);
        expect(beside.stdout).toBe('');
      } finally {
        server.child.kill('SIGTERM');
        expect(await server.exited).toBe(0);
      }
    },
    processTestTimeoutMs,
  );

  it('reports an unknown user', async () => {
    const result = await lectern(['create-api-client', '--user', '999999']);
    expect(result.code).not.toBe(0);
    expect(result.stderr.trim()).toBe('User 999999 was not found');
    expect(result.stdout).toBe('');
  });

  it('rejects bad arguments with exit 2 and a clear message, before touching the database', async () => {
    const untouched = join(tempDir, 'untouched');
    const cases: [string[], RegExp][] = [
      [['create-api-client'], /--user <id> is required and must be a numeric user id/],
      [['create-api-client', '--user', 'abc'], /--user <id> is required and must be a numeric user id/],
      [['create-access-token', '--user'], /Option '--user <value>' argument missing/],
      [['create-access-token', '--user', demo.userId, '--days', '0'], /--days must be a positive whole number/],
      [['create-api-client', '--usr', '3'], /Unknown option '--usr'/],
    ];
    // None of these opens the database, so they may run side by side.
    const results = await Promise.all(cases.map(([args]) => lectern(args, { DATA_DIR: untouched })));
    for (const [index, result] of results.entries()) {
      expect({ args: cases[index][0], code: result.code, stdout: result.stdout }).toEqual({
        args: cases[index][0],
        code: 2,
        stdout: '',
      });
      expect(result.stderr).toMatch(cases[index][1]);
      expect(result.stderr).not.toMatch(/\bat .*\.ts:\d+/); // a message, not a stack trace
    }
    expect(existsSync(untouched)).toBe(false);
  });

  it('explains its usage: exit 2 for an unknown command, exit 0 for --help', async () => {
    const [unknown, help] = await Promise.all([lectern(['frobnicate']), lectern(['--help'])]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^Unknown command: frobnicate\n/);
    expect(unknown.stderr).toContain('Usage: lectern <command>');

    expect(help, help.stderr).toMatchObject({ code: 0 });
    expect(help.stdout).toContain('Usage: lectern <command>');
    for (const command of [
      'migrate',
      'seed-demo',
      'create-api-client --user <id>',
      'create-access-token --user <id>',
    ]) {
      expect(help.stdout).toContain(`  ${command}`);
    }
  });

  it('names a bad environment variable and exits 2', async () => {
    const result = await lectern(['migrate'], { RATE_LIMIT: 'lots' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Invalid configuration');
    expect(result.stderr).toMatch(/RATE_LIMIT: must look like 15\/5s/);
    expect(result.stdout).toBe('');
  });
});
