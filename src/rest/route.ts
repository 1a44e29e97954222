import type { RealmType } from '../generated/prisma/enums';
import type { WireBody } from './wire-body';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Page {
  start: number;
  limit: number;
}

/** What a route's variable mapper sees of one REST request. */
export interface RestRequest {
  /** The request path under /v1, such as `/groups/5`. */
  path: string;
  /** Path parameters, such as `id`. */
  params: Record<string, string>;
  /** The realm prefix, for routes under `[realm]`. */
  realm: { type: RealmType; id: string } | null;
  query: URLSearchParams;
  /** Decoded GraphQL input from the body, for routes that declare one. */
  input: Record<string, unknown>;
  page: Page;
}

/** Builds absolute URLs for links, from PUBLIC_URL or the request's own origin. */
export interface LinkBuilder {
  /** `/groups/5` -> `https://host/v1/groups/5`. */
  (path: string): string;
}

export interface RestOutcome {
  status: number;
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
}

export interface RestRoute {
  method: Method;
  /** Path under /v1; `{name}` matches a numeric id, `[realm]` one of the realm prefixes. */
  path: string;
  /** Realm types a `[realm]` route supports; a request under another realm type is refused with 403. */
  realms?: readonly RealmType[];
  /** The GraphQL operation the route runs, with exactly one root field. */
  document: string;
  /** Wire body members the route reads, and the GraphQL input members they become. */
  body?: WireBody;
  /** Wire members a create must carry (the spec's "required" column). */
  requiredFields?: readonly string[];
  /** Body elements that are lists even when XML repeats them once. */
  listFields?: readonly string[];
  variables(request: RestRequest): Record<string, unknown>;
  /** Renders the operation's root field in the platform's wire shape. */
  respond(result: unknown, request: RestRequest, link: LinkBuilder): RestOutcome;
}

/** A typed error a mutation returned (ValidationError, NotFoundError, ...), raised to become the REST status. */
export class PayloadError extends Error {
  constructor(readonly typename: string, message: string, readonly issues: { field: string; message: string }[] = []) {
    super(message);
  }
}

/** An object query answered null: unknown id, or not visible to the viewer. */
export class MissingObjectError extends Error {}

interface Payload {
  __typename: string;
  message?: string;
  issues?: { field: string; message: string }[];
}

/** Mutation results are unions of a success wrapper and typed errors; selections must include `__typename`. */
function unwrapPayload<T>(result: unknown): T {
  const payload = result as Payload;
  if (payload.__typename.endsWith('Error')) {
    throw new PayloadError(payload.__typename, payload.message ?? payload.__typename, payload.issues);
  }
  return payload as T;
}

type Shape<T> = (node: T, link: LinkBuilder) => Record<string, unknown>;

interface RouteBase {
  path: string;
  realms?: readonly RealmType[];
  document: string;
}

export function viewRoute<T>(
  options: RouteBase & { variables: (request: RestRequest) => Record<string, unknown>; shape: Shape<T> },
): RestRoute {
  return {
    method: 'GET',
    ...options,
    respond(result, _request, link) {
      if (result === null) throw new MissingObjectError();
      return { status: 200, body: options.shape(result as T, link) };
    },
  };
}

/** A paged list: `{<item>: [...], total, links: {self, next?}}`. */
export function listRoute<T>(
  options: RouteBase & {
    item: string;
    variables: (request: RestRequest) => Record<string, unknown>;
    shape: Shape<T>;
  },
): RestRoute {
  return {
    method: 'GET',
    ...options,
    variables: (request) => ({ ...options.variables(request), start: request.page.start, limit: request.page.limit }),
    respond(result, request, link) {
      if (result === null) throw new MissingObjectError();
      const { items, total } = result as { items: T[]; total: number };
      return { status: 200, body: pagedEnvelope(options.item, items.map((item) => options.shape(item, link)), total, request, link) };
    },
  };
}

function pageLink(request: RestRequest, link: LinkBuilder, start: number): string {
  const query = new URLSearchParams(request.query);
  query.set('start', String(start));
  query.set('limit', String(request.page.limit));
  return `${link(request.path)}?${query}`;
}

function pagedEnvelope(
  item: string,
  items: Record<string, unknown>[],
  total: number,
  request: RestRequest,
  link: LinkBuilder,
): Record<string, unknown> {
  const { start, limit } = request.page;
  const links: Record<string, string> = { self: pageLink(request, link, start) };
  if (start + limit < total) links.next = pageLink(request, link, start + limit);
  return { [item]: items, total, links };
}

/** POST: 201 with the created object. */
export function createRoute<T>(
  options: RouteBase & {
    body: WireBody;
    requiredFields?: readonly string[];
    listFields?: readonly string[];
    variables: (request: RestRequest) => Record<string, unknown>;
    shape: Shape<T>;
  },
): RestRoute {
  return {
    method: 'POST',
    ...options,
    respond: (result, _request, link) => ({ status: 201, body: options.shape(unwrapPayload<T>(result), link) }),
  };
}

/** PUT: 204, no body. */
export function updateRoute(
  options: RouteBase & { body: WireBody; variables: (request: RestRequest) => Record<string, unknown> },
): RestRoute {
  return {
    method: 'PUT',
    ...options,
    respond(result) {
      unwrapPayload(result);
      return { status: 204 };
    },
  };
}

/** DELETE: 204, no body. */
export function deleteRoute(
  options: RouteBase & { variables: (request: RestRequest) => Record<string, unknown> },
): RestRoute {
  return {
    method: 'DELETE',
    ...options,
    respond(result) {
      unwrapPayload(result);
      return { status: 204 };
    },
  };
}


/** The selection of a mutation's result union: `__typename`, the typed errors, and with `fragment` the changed object. */
export function payloadSelection(field: string, args: string, fragment?: string): string {
  return `${field}(${args}) {
    __typename
    ... on Error { message }
    ... on ValidationError { issues { field message } }
    ${fragment ? `...${fragment}` : ''}
  }`;
}
