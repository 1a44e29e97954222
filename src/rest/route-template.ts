import type { RealmType } from '../generated/prisma/enums';
import type { RestRoute } from './route';
import { realmPrefixes } from './router';

/**
 * The route each /v1 request matched, noted by the facade, for what names a request by its route rather than its path
 * (trace spans): a bounded name with no id in it.
 */
const matched = new WeakMap<Request, { route: RestRoute; realm: RealmType | null }>();

export function noteMatchedRoute(request: Request, route: RestRoute, realm: RealmType | null): void {
  matched.set(request, { route, realm });
}

const prefixOf = Object.fromEntries(Object.entries(realmPrefixes).map(([prefix, type]) => [type, prefix]));
const templates = new Map<RestRoute, Map<RealmType | null, string>>();

/**
 * `GET /v1/groups/{id}`, or `GET /v1/groups/{group_id}/posts/{id}` for a realm route under a group: the path as the
 * OpenAPI document writes it (src/rest/openapi.ts), after the route's method. Undefined for a request that matched no
 * route.
 */
export function routeTemplateOf(request: Request): string | undefined {
  const found = matched.get(request);
  if (!found) return undefined;
  let byRealm = templates.get(found.route);
  if (!byRealm) templates.set(found.route, (byRealm = new Map()));
  let template = byRealm.get(found.realm);
  if (template === undefined) {
    let path = found.route.path.replace(/:word\}/g, '}');
    if (found.realm) {
      const prefix = prefixOf[found.realm];
      path = path.replace('[realm]', `${prefix}/{${prefix.replace(/s$/, '')}_id}`);
    }
    byRealm.set(found.realm, (template = `${found.route.method} /v1${path}`));
  }
  return template;
}
