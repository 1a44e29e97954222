import { randomUUID } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import pino, { type Logger } from 'pino';
import type { Config } from '../config';

export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  // JSON lines for log collectors; readable lines when a person watches a terminal.
  const pretty = process.stdout.isTTY && config.logLevel !== 'silent';
  return pino({
    level: config.logLevel,
    ...(pretty
      ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } }
      : {}),
  });
}

const requestIds = new WeakMap<Request, string>();

/** The id that ties a request's log lines and its 500 body together; a proxy's X-Request-Id is kept. */
export function requestIdOf(request: Request): string {
  let id = requestIds.get(request);
  if (!id) {
    const sent = request.headers.get('x-request-id');
    id = sent && /^[\w.-]{1,128}$/.test(sent) ? sent : randomUUID();
    requestIds.set(request, id);
  }
  return id;
}

/**
 * Paths that carry a credential, which calendar apps and browsers send in place of any other: a calendar feed's token
 * (`/calendar/{token}.ics`, src/modules/calendar-feeds/calendar-feed.http.ts) and a web package's launch grant
 * (`/web-packages/{id}/{grant}/...`, src/modules/web-packages/web-package.http.ts), and a sign-in link. The log shows them with the
 * credential replaced, valid or not, so that reading the log opens neither the feed nor the package's site.
 */
const credentialsInPaths: [RegExp, string][] = [
  [/^\/calendar\/[^/]+?(\.ics)?(?=\/|$)/, '/calendar/[token]$1'],
  [/^\/web-packages\/([^/]+)\/[^/]+/, '/web-packages/$1/[grant]'],
  // A sign-in link sets the password of whoever opens it first (src/signin/sign-in.http.ts).
  [/^\/sign-in\/link\/[^/]+/, '/sign-in/link/[token]'],
];

/** The path as the request log writes it. */
export const loggedPath = (pathname: string) =>
  credentialsInPaths.reduce((path, [credential, redacted]) => path.replace(credential, redacted), pathname);

/** One log line per request, with its id, status and duration; the id is echoed in the response. */
export function useRequestLogging(logger: Logger): Plugin {
  const startedAt = new WeakMap<Request, number>();
  return {
    onRequest({ request }) {
      requestIdOf(request);
      startedAt.set(request, performance.now());
    },
    onResponse({ request, response }) {
      const requestId = requestIdOf(request);
      response.headers.set('x-request-id', requestId);
      const url = new URL(request.url);
      if (url.pathname === '/healthz' || url.pathname === '/readyz') return;
      const started = startedAt.get(request);
      const durationMs = started === undefined ? undefined : Math.round((performance.now() - started) * 10) / 10;
      logger.info(
        { requestId, method: request.method, path: loggedPath(url.pathname), status: response.status, durationMs },
        'request',
      );
    },
  };
}

type YogaLogLevel = 'debug' | 'info' | 'warn' | 'error';

/**
 * Yoga's logger on pino: an Error argument (yoga logs each error it masks) becomes `err`, so its message and stack are
 * serialised, and other arguments become the message. Errors `reportedElsewhere` selects (the app logs them itself,
 * at their own level) go to debug.
 */
export function yogaLogger(
  logger: Logger,
  reportedElsewhere: (error: Error) => boolean = () => false,
): Record<YogaLogLevel, (...args: unknown[]) => void> {
  const write =
    (level: YogaLogLevel) =>
    (...args: unknown[]) => {
      const error = args.find((arg): arg is Error => arg instanceof Error);
      const at = error && reportedElsewhere(error) ? 'debug' : level;
      const text = args
        .filter((arg) => arg !== error)
        .map((arg) => (typeof arg === 'string' ? arg : JSON.stringify(arg)))
        .join(' ');
      if (error) logger[at]({ err: error }, text || error.message);
      else logger[at](text);
    };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}
