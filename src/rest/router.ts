import type { RealmType } from '../generated/prisma/enums';
import type { Method, RestRoute } from './route';

/** The /v1 realm prefixes and the realm types they name. */
export const realmPrefixes: Record<string, RealmType> = {
  districts: 'DISTRICT',
  schools: 'SCHOOL',
  users: 'USER',
  sections: 'SECTION',
  groups: 'GROUP',
};

const prefixOf = Object.fromEntries(Object.entries(realmPrefixes).map(([prefix, type]) => [type, prefix]));

/** `/groups/5` for a realm, the path its realm-owned resources hang under. */
export const realmPath = (type: RealmType, id: string | number) => `/${prefixOf[type]}/${id}`;

interface CompiledRoute {
  route: RestRoute;
  pattern: RegExp;
  paramNames: string[];
  /** How many segments a path it matches has (`[realm]` is two). */
  segments: number;
}

export type RouteMatch =
  | { kind: 'route'; route: RestRoute; params: Record<string, string>; realm: { type: RealmType; id: string } | null }
  | { kind: 'method-not-allowed'; allow: string[] }
  | { kind: 'realm-not-supported'; realm: RealmType }
  | { kind: 'options'; allow: string[] }
  | { kind: 'not-found' };

/** `{id}` matches a numeric id; `{realm:word}` any one segment, which the route's variables mapper checks. */
export const pathParameter = /^\{(\w+)(?::(word))?\}$/;

function compile(route: RestRoute): CompiledRoute {
  const paramNames: string[] = [];
  const source = route.path
    .split('/')
    .map((segment) => {
      if (segment === '[realm]') {
        paramNames.push('realmPrefix', 'realmId');
        return `(${Object.keys(realmPrefixes).join('|')})/(\\d+)`;
      }
      const param = pathParameter.exec(segment);
      if (param) {
        paramNames.push(param[1]);
        return param[2] === 'word' ? '([^/]+)' : '(\\d+)';
      }
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  const segments = segmentsOf(route.path) + (route.path.split('/').includes('[realm]') ? 1 : 0);
  return { route, pattern: new RegExp(`^${source}/?$`), paramNames, segments };
}

/** The segments of a path, a trailing slash not counted (the patterns allow one). */
const segmentsOf = (path: string) => path.split('/').length - (path.length > 1 && path.endsWith('/') ? 1 : 0);

/** A malformed escape is kept as sent: the mapper that checks the segment names it. */
function decodeSegment(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export function createRouter(routes: readonly RestRoute[]) {
  // Only the routes of the path's length are tried: a request would otherwise run every route's pattern.
  const bySegments = new Map<number, CompiledRoute[]>();
  for (const entry of routes.map(compile)) {
    const alike = bySegments.get(entry.segments);
    if (alike) alike.push(entry);
    else bySegments.set(entry.segments, [entry]);
  }

  return function match(method: string, path: string): RouteMatch {
    const candidates: { entry: CompiledRoute; values: string[] }[] = [];
    for (const entry of bySegments.get(segmentsOf(path)) ?? []) {
      const result = entry.pattern.exec(path);
      if (result) candidates.push({ entry, values: result.slice(1) });
    }
    if (candidates.length === 0) return { kind: 'not-found' };

    const allow: string[] = [...new Set(candidates.map(({ entry }) => entry.route.method))];
    allow.push('OPTIONS');
    if (method === 'OPTIONS') return { kind: 'options', allow };
    const chosen = candidates.find(
      ({ entry }) => entry.route.method === (method === 'HEAD' ? 'GET' : (method as Method)),
    );
    if (!chosen) return { kind: 'method-not-allowed', allow };

    const params: Record<string, string> = {};
    for (const [index, name] of chosen.entry.paramNames.entries()) params[name] = decodeSegment(chosen.values[index]);
    const { realmPrefix, realmId, ...pathParams } = params;
    if (!realmPrefix) return { kind: 'route', route: chosen.entry.route, params: pathParams, realm: null };
    const realmType = realmPrefixes[realmPrefix];
    if (chosen.entry.route.realms && !chosen.entry.route.realms.includes(realmType)) {
      return { kind: 'realm-not-supported', realm: realmType };
    }
    return { kind: 'route', route: chosen.entry.route, params: pathParams, realm: { type: realmType, id: realmId } };
  };
}
