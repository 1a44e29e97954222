import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

export const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * How long a test of processes (or a hook that starts them) may take before it fails. A bound for a hung child, not a
 * measure: a first start on an embedded database takes seconds on a calm machine and minutes at load average 10, and
 * a test killed halfway would leave its child holding the data folder the file's next test needs.
 */
export const processTestTimeoutMs = 600_000;

/** Settings of the developer's shell must not leak into processes a test starts. */
const configVariables = [
  'HOST',
  'PORT',
  'PUBLIC_URL',
  'DATA_DIR',
  'DATABASE_URL',
  'SECRET_KEY',
  'REDIS_URL',
  'RATE_LIMIT',
  'BODY_LIMIT',
  'QUERY_TIMEOUT',
  'SUBSCRIPTIONS_PER_CREDENTIAL',
  'ALLOWED_HOSTS',
  'TRUST_PROXY',
  'AUTH_FAILURES_PER_ADDRESS',
  'AUTH_FAILURES_PER_CONSUMER_KEY',
  'ANONYMOUS_REQUESTS_PER_ADDRESS',
  'OAUTH_TIMESTAMP_SKEW',
  'BOOTSTRAP_CONSUMER_KEY',
  'BOOTSTRAP_CONSUMER_SECRET',
  'SEED_DEMO',
  'LOG_LEVEL',
  'WEBHOOK_ALLOW_HOSTS',
  'WEBHOOK_ALLOW_HTTP',
  'WEBHOOK_LOG_RETENTION_DAYS',
  'WEBHOOK_TIMEOUT',
  'METRICS_PORT',
  'METRICS_HOST',
  'METRICS_TOKEN',
];

export function cleanEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of configVariables) delete env[name];
  return { ...env, ...extra };
}

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * Fills `dataDir` (made if missing) with a copy of the migrated embedded database test/support/global-setup.ts made
 * for the run, and returns it. For tests of what a server or a command does with a database rather than of its first
 * start (test/ops/first-start.test.ts, server-process.test.ts and the CLI's `migrate` start from nothing): a process
 * on an empty folder spends seconds on initdb, the migrations and opening the database again after them.
 */
export function migratedDataDir(dataDir: string): string {
  cpSync(inject('dataDirTemplate'), dataDir, { recursive: true });
  return dataDir;
}

export interface ServerProcess {
  base: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  output(): string;
}

/** The server's command line after node, as `npm start` runs it once scripts/build.mjs has compiled it. */
export const compiledServer = ['--enable-source-maps', 'dist/src/main.mjs'];

/** Compiles the server and the CLI of a checkout (this one by default) into its dist/ with `npm start`'s build step. */
export function buildServer(cwd = projectRoot) {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd, stdio: 'inherit' });
}

/**
 * Starts the server as `npm start` runs it, from what test/support/global-setup.ts compiled for the run (or with
 * `command`), as its own process on a free port (unless `env` names one).
 */
export async function startServerProcess(
  env: Record<string, string>,
  command = [process.execPath, ...compiledServer],
): Promise<ServerProcess> {
  const port = env.PORT ?? String(await freePort());
  const child = spawn(command[0]!, command.slice(1), {
    // A process group of its own, as a terminal runs a command, so that Ctrl-C can be sent to all of it.
    detached: true,
    cwd: projectRoot,
    env: cleanEnvironment({ NODE_ENV: 'production', ...env, PORT: port }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  // 'close', not 'exit': the exit can come before the last of the output is read from the pipes.
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  return { base: `http://127.0.0.1:${port}`, child, exited, output: () => output };
}

/** Waits for /readyz; fails with the server's output when it exits or is not ready well within the test's bound. */
export async function waitUntilReady(server: ServerProcess): Promise<void> {
  const giveUpAt = Date.now() + processTestTimeoutMs * 0.9;
  while (Date.now() < giveUpAt && server.child.exitCode === null) {
    try {
      if ((await fetch(`${server.base}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  server.child.kill('SIGKILL');
  throw new Error(`server did not become ready:\n${server.output()}`);
}

/** Resolves with the first match of `pattern` in the server's output; fails with the output when the server exits. */
export function waitForOutput(server: ServerProcess, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = pattern.exec(server.output());
      if (!match) return;
      stopWatching();
      resolve(match);
    };
    const exited = (code: number | null) => {
      stopWatching();
      reject(new Error(`server exited (${code}) before printing ${pattern}:\n${server.output()}`));
    };
    const stopWatching = () => {
      server.child.stdout!.off('data', onData);
      server.child.stderr!.off('data', onData);
      server.child.off('close', exited);
    };
    // Registered after the harness's own listeners, which have appended the chunk to output() by now.
    const onData = () => check();
    server.child.stdout!.on('data', onData);
    server.child.stderr!.on('data', onData);
    server.child.once('close', exited);
    check();
  });
}
