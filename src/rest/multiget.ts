/**
 * `POST /v1/multiget`: up to 50 GETs in one call, as the platform's multiget does. Each path is answered as its own GET
 * would be, through the same route table, credential, limits and rate limit (the facade runs each one, see
 * `multigetItems` in facade.ts); this module reads the call, checks each path against the platform's list of paths a
 * multiget may name, and assembles the answers in order. Decisions are in docs/rest/multiget.md.
 */
import { z } from 'zod';
import type { RestOutcome } from './route';
import { realmPrefixes } from './router';
import { WireInputError } from './wire-body';

export const multigetPath = '/multiget';
export const multigetAllow = 'POST, OPTIONS';
/** `<requests><request>…</request></requests>`: a single `<request>` is a list of one too. */
export const multigetListPaths: ReadonlySet<string> = new Set(['request']);
/** The platform's limit: more paths than this answer the whole call 400. */
export const maxMultigetPaths = 50;
/** Longer than any path and query a client builds; a longer item is that item's 400, not work for the router. */
const maxItemLength = 2_048;

/**
 * The GETs the platform lets a multiget make (its API documentation's list); any other path is that item's 400. A path
 * on the list that this server has no route for answers 404, as its GET does.
 */
export const multigetPaths = [
  '/groups/{id}',
  '/courses/{id}',
  '/courses/{id}/sections',
  '/sections/{id}',
  '/sections/{id}/assignments',
  '/sections/{id}/enrollments',
  '/sections/{id}/grade_items',
  '/sections/{id}/grades',
  '/sections/ext/{code}',
  '/users/{id}',
  '/users/{id}/sections',
  '/users/{id}/groups',
  '/users/ext/{code}',
  '/[realm]/updates',
  '/[realm]/discussions',
  '/[realm]/events',
] as const;

const allowedPattern = new RegExp(
  `^(?:${multigetPaths
    .map((template) =>
      template
        .replace('[realm]', `(?:${Object.keys(realmPrefixes).join('|')})/{id}`)
        .replaceAll('{id}', '\\d+')
        .replaceAll('{code}', '[^/]+'),
    )
    .join('|')})$`,
);

/** Runs one path as its GET, failures answered as that GET would answer them (a 401 ends the whole call instead). */
export type MultigetItems = (path: string, query: URLSearchParams) => Promise<RestOutcome>;

export const multigetRequestWire = z.object({
  request: z
    .array(z.string())
    .min(1)
    .max(maxMultigetPaths)
    .describe(
      'Paths to GET, in order: `/v1/users/5`, `/users/5` or an absolute URL such as a `links.next`, each with its query string.',
    ),
});

const multigetItemWire = z.object({
  location: z.string().describe('The path as the request named it.'),
  response_code: z.int().describe('The status its GET answers.'),
  headers: z
    .record(z.string(), z.string())
    .optional()
    .describe(
      'Headers its GET answers with that a client acts on: `location` (303), `allow` (405), `retry-after` (429).',
    ),
  body: z
    .unknown()
    .describe(
      "What its GET answers, in the call's format: the object or page, `{error, issues}`, or null for no body.",
    ),
});

export const multigetResponseWire = z.object({ response: z.array(multigetItemWire) });

/** Where a relative item path is resolved, so that `..` and escapes normalize as in a request line. */
const base = 'http://multiget.invalid';

/** The path under /v1 and the query an item names, or why it names none. */
function targetOf(item: unknown): { path: string; query: URLSearchParams } | { malformed: string } {
  if (typeof item !== 'string') return { malformed: 'Each request must be a path, such as /v1/users/5' };
  const text = item.trim();
  if (text === '') return { malformed: 'The path is empty' };
  if (text.length > maxItemLength) return { malformed: `The path is longer than ${maxItemLength} characters` };
  const absolute = /^https?:\/\//i.test(text);
  // `//host/...` would name a host rather than a path.
  if (!absolute && text.startsWith('//')) return { malformed: `'${text}' is not a path` };
  const relative = text.startsWith('/') ? text : `/${text}`;
  if (!URL.canParse(absolute ? text : relative, base)) return { malformed: `'${text}' is not a path` };
  // The host of an absolute URL (a `links.next` as this server gave it) is not looked at: nothing is fetched from it.
  const url = new URL(absolute ? text : relative, base);
  let path = url.pathname;
  if (path === '/v1' || path.startsWith('/v1/')) path = path.slice('/v1'.length);
  return { path: path.replace(/\/+$/, '') || '/', query: url.searchParams };
}

function paths(body: Record<string, unknown>): unknown[] {
  const { request } = body;
  // A JSON client may send one path as a string; XML's lone <request> is a list already.
  const items = typeof request === 'string' ? [request] : request;
  if (!Array.isArray(items) || items.length === 0) {
    throw new WireInputError('request', 'must list the paths to GET, such as ["/v1/users/5"]');
  }
  if (items.length > maxMultigetPaths) {
    throw new WireInputError('request', `lists ${items.length} paths; a multiget takes at most ${maxMultigetPaths}`);
  }
  return items;
}

const itemError = (status: number, error: string): RestOutcome => ({ status, body: { error } });

/**
 * Answers a multiget: 207 with `{response: [{location, response_code, body}]}` in the order asked, each item as its
 * GET answers. Paths run one after another, so that one call holds at most one operation at a time like a client's
 * GETs in a row, and each is charged to the rate limit as it runs: once one is refused with 429, the paths after it are
 * answered with that refusal without running.
 */
export async function runMultiget(
  body: Record<string, unknown>,
  signal: AbortSignal,
  answer: MultigetItems,
): Promise<RestOutcome> {
  const response: z.input<typeof multigetItemWire>[] = [];
  let refused: RestOutcome | null = null;
  for (const item of paths(body)) {
    // A client that hung up reads none of the answers.
    signal.throwIfAborted();
    const location = typeof item === 'string' ? item : JSON.stringify(item);
    const target = targetOf(item);
    let outcome: RestOutcome;
    if ('malformed' in target) outcome = itemError(400, target.malformed);
    else if (!allowedPattern.test(target.path))
      outcome = itemError(400, `GET /v1${target.path} cannot be part of a multiget`);
    else outcome = refused ?? (await answer(target.path, target.query));
    if (outcome.status === 429) refused = outcome;
    const headers = outcome.headers && Object.keys(outcome.headers).length ? { headers: outcome.headers } : {};
    response.push({ location, response_code: outcome.status, ...headers, body: outcome.body ?? null });
  }
  return { status: 207, body: { response } };
}
