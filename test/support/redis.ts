import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { freePort } from './process';

export interface PrivateRedis {
  url: string;
  /** Stops the server process (SIGSTOP): connections stay open, the kernel still accepts bytes, nothing answers. */
  freeze(): void;
  /** Lets it go on (SIGCONT): it then runs everything it was sent meanwhile. */
  resume(): void;
  stop(): Promise<void>;
}

/**
 * A Redis server of the test's own on a free port, without persistence, for tests that freeze it: never the machine's
 * shared Redis (TEST_REDIS_URL), which other test files use at the same time.
 */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const exited = once(child, 'exit');
  const url = `redis://127.0.0.1:${port}`;
  // Until it listens: each attempt is a connection of its own that does not retry.
  for (let attempt = 0; ; attempt++) {
    const probe = new Redis(url, { lazyConnect: true, retryStrategy: () => null });
    probe.on('error', () => {});
    try {
      await probe.connect();
      break;
    } catch (error) {
      if (attempt === 200 || child.exitCode !== null) {
        throw new Error(`redis-server did not start on port ${port}: ${(error as Error).message}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      probe.disconnect();
    }
  }
  return {
    url,
    freeze: () => void child.kill('SIGSTOP'),
    resume: () => void child.kill('SIGCONT'),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGCONT');
      child.kill('SIGKILL');
      await exited;
    },
  };
}
