import type { Redis, RedisOptions } from 'ioredis';

/**
 * How long a request waits for one Redis command. Redis answers in well under a millisecond when it is well; a frozen
 * or partitioned Redis keeps its TCP connection "ready" for minutes, so the wait is the only sign of it.
 */
export const redisBudgetMs = 250;
/** While Redis counts as down, a PING is sent this often; the first one answered within the budget brings it back. */
const probeEveryMs = 500;

/**
 * Options of the connection requests use: a command is written at once or refused at once (no offline queue that
 * would send a backlog on reconnection), and one still unanswered when its connection dropped is not sent again on
 * the next (its request was answered without it long before).
 */
export const requestConnectionOptions = {
  enableOfflineQueue: false,
  autoResendUnfulfilledCommands: false,
} as const satisfies RedisOptions;

/** A command not run because Redis counts as down (`sent` false), or sent and not answered within the budget. */
export class RedisUnavailableError extends Error {
  constructor(readonly sent: boolean) {
    super(sent ? `Redis did not answer within ${redisBudgetMs} ms` : 'Redis counts as down');
    this.name = 'RedisUnavailableError';
  }
}

/**
 * One connection's circuit breaker. Redis counts as down while the connection is not ready, and from a command that
 * did not answer within the budget until a PING answers within it again, so that only the first request of an outage
 * waits, and for the budget at most.
 */
export interface RedisBreaker {
  /** Whether commands are sent. */
  available(): boolean;
  /** Runs `command` within the budget; rejects with RedisUnavailableError while down or when it does not answer in time. */
  call<T>(command: (client: Redis) => Promise<T>): Promise<T>;
  /** Whether a PING answers within the budget (what /readyz reports); an answer brings Redis back. */
  ping(): Promise<boolean>;
  /** Calls `listener` whenever `available()` changes. */
  onChange(listener: (available: boolean) => void): void;
}

const breakers = new WeakMap<Redis, RedisBreaker>();

/** The breaker of a connection: one per connection, shared by everything that uses it. */
export function breakerOf(client: Redis): RedisBreaker {
  let breaker = breakers.get(client);
  if (!breaker) breakers.set(client, (breaker = createBreaker(client)));
  return breaker;
}

function createBreaker(client: Redis): RedisBreaker {
  let stalled = false;
  let probe: NodeJS.Timeout | undefined;
  let pinging: Promise<boolean> | null = null;
  const listeners: ((available: boolean) => void)[] = [];
  const available = () => client.status === 'ready' && !stalled;
  let reported = available();
  const report = () => {
    if (available() === reported) return;
    reported = !reported;
    for (const listener of listeners) listener(reported);
  };
  const setStalled = (value: boolean) => {
    stalled = value;
    clearInterval(probe);
    probe = value ? setInterval(() => void self.ping(), probeEveryMs).unref() : undefined;
    report();
  };
  // A new connection carries nothing of the stalled one (autoResendUnfulfilledCommands is off).
  client.on('ready', () => (stalled ? setStalled(false) : report()));
  // A dropped connection; not a deliberate disconnect at shutdown, which is no outage to report.
  client.on('reconnecting', report);

  function withinBudget<T>(command: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      // The deadline is judged after the event loop has read what arrived: an answer that came while the loop was
      // busy elsewhere (an embedded database query, a collection) is not taken for a frozen Redis.
      const timer = setTimeout(
        () =>
          setImmediate(() => {
            if (settled) return;
            settled = true;
            if (!stalled) setStalled(true);
            reject(new RedisUnavailableError(true));
          }),
        redisBudgetMs,
      );
      command.then(
        (value) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }

  const self: RedisBreaker = {
    available,
    call(command) {
      if (!available()) return Promise.reject(new RedisUnavailableError(false));
      return withinBudget(command(client));
    },
    ping() {
      if (client.status !== 'ready') return Promise.resolve(false);
      // The probe and /readyz share a PING in flight.
      pinging ??= withinBudget(client.ping())
        .then(
          () => {
            if (stalled) setStalled(false);
            return true;
          },
          () => false,
        )
        .finally(() => (pinging = null));
      return pinging;
    },
    onChange(listener) {
      listeners.push(listener);
    },
  };
  return self;
}
