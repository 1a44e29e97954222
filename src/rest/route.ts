import type { ResultOf, TadaDocumentNode, VariablesOf } from '../graphql/typed-document';
import { z } from 'zod';
import type { RealmType } from '../generated/prisma/enums';
import type { WireBody } from './wire-body';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Page {
  start: number;
  limit: number;
}

/** The values of each `{name:word}` path segment, such as the realm of an invite list. */
export type PathWords = Readonly<Record<string, { values: readonly string[]; description: string }>>;

/** What a route's variable mapper sees of one REST request. */
export interface RestRequest {
  /** The request path under /v1, such as `/groups/5`. */
  path: string;
  /** Path parameters, such as `id`. */
  params: Record<string, string>;
  /** The realm prefix, for routes under `[realm]`. */
  realm: { type: RealmType; id: string } | null;
  query: URLSearchParams;
  /** Query parameters the route declares, decoded like the body (and as loosely typed). */
  // biome-ignore lint/suspicious/noExplicitAny: query parameters are decoded loosely; each route reads its own
  filters: any;
  /**
   * GraphQL input decoded from the body, for routes that declare one. Its members are checked at run time, by the
   * wire declaration and then by GraphQL's variable coercion, not by the compiler.
   */
  // biome-ignore lint/suspicious/noExplicitAny: checked at run time, as said above
  input: any;
  page: Page;
}

/** Builds absolute URLs for links, from PUBLIC_URL or the request's own origin. */
/** `/groups/5` -> `https://host/v1/groups/5`. */
export type LinkBuilder = (path: string) => string;

export interface RestOutcome {
  status: number;
  body?: object;
  headers?: Record<string, string>;
  /** A stored file to stream instead of a JSON or XML body. */
  file?: ServedFile;
}

/** A stored file a route answers with: its opaque storage key, type, name, and whether browsers may show it inline. */
export interface ServedFile {
  key: string;
  contentType: string;
  filename: string;
  inline: boolean;
}

/** One /v1 operation: its path, the GraphQL operation it runs, and its wire contract. */
export interface RestRoute {
  method: Method;
  /**
   * Path under /v1; `{name}` matches a numeric id, `[realm]` one of the realm prefixes, `{name:word}` one of the
   * values `words` gives for it (any other is a 400 naming the segment).
   */
  path: string;
  words?: PathWords;
  /** Realm types a `[realm]` route supports; a request under another realm type is refused with 403. */
  realms?: readonly RealmType[];
  /** One line for the API reference. */
  summary: string;
  /** The GraphQL operation the route runs, with exactly one root field. */
  document: TadaDocumentNode<unknown, Record<string, unknown>>;
  /** The wire request body. */
  body?: WireBody;
  /**
   * The body is raw bytes (an uploaded file), not JSON or XML: it is not decoded or size-limited by BODY_LIMIT but
   * streamed to the operation, which finds it in its context as `rawBody`.
   */
  rawBody?: boolean;
  /** The answer is a stored file's bytes (200, or 206 for a `Range`), not a JSON or XML body. */
  servesFile?: boolean;
  /** Query parameters besides paging, decoded like a body (all optional). */
  filters?: WireBody;
  /** Whether `start` and `limit` page the answer. */
  paged?: boolean;
  /**
   * `start` that is not an integer is the route's first-day filter (declared in `filters`), not the paging offset:
   * attendance's `start=2026-01-05`, as on the platform.
   */
  dayStart?: boolean;
  /** The wire response of each success status; null for an empty body. */
  responses: Readonly<Record<number, z.ZodType | null>>;
  variables(request: RestRequest): Record<string, unknown>;
  /** Renders the operation's root field in the platform's wire shape. */
  respond(result: unknown, request: RestRequest, link: LinkBuilder): RestOutcome;
}

/** A typed error a mutation returned (ValidationError, NotFoundError, ...), raised to become the REST status. */
export class PayloadError extends Error {
  constructor(
    readonly typename: string,
    message: string,
    readonly issues: { field: string; message: string }[] = [],
  ) {
    super(message);
  }
}

/** An object query answered null: unknown id, or not visible to the viewer. */
export class MissingObjectError extends Error {}

/** `links.self` of an object. */
export const selfLink = z.object({ self: z.url() });
/** A `{0,1}` flag as the platform answers it. */
export const wireBit = z.union([z.literal(0), z.literal(1)]);
/** A member front ends render as HTML (one of `htmlFields`, src/core/html.ts): sanitized on write, and typed so. */
export const htmlWire = z.string().meta({ contentMediaType: 'text/html', description: 'HTML, sanitized on write.' });

/** The paging envelope: `{<item>: [...], total, links: {self, next?}}`. */
export const pagedEnvelope = (item: string, wire: z.ZodType) =>
  z.object({
    [item]: z.array(wire),
    total: z.int().min(0),
    links: z.object({ self: z.url(), next: z.url().optional().describe('Present while a further page exists.') }),
  });

// biome-ignore lint/suspicious/noExplicitAny: the bound of every document, whatever its result and variables
type AnyDocument = TadaDocumentNode<any, any>;
/** The value of a document's single root field. */
type Root<Doc extends AnyDocument> = ResultOf<Doc>[keyof ResultOf<Doc>];
type ItemOf<T> = T extends { items: readonly (infer Item)[] } ? Item : never;
type Variables<Doc extends AnyDocument> = (request: RestRequest) => VariablesOf<Doc>;
type Shape<Node, Wire extends z.ZodObject> = (node: Node, link: LinkBuilder, request: RestRequest) => z.input<Wire>;

interface RouteBase<Doc extends AnyDocument> {
  path: string;
  words?: PathWords;
  realms?: readonly RealmType[];
  summary: string;
  document: Doc;
}

interface Payload {
  userErrors: readonly { field: readonly string[] | null; code: string; message: string }[];
}

/** The typed error (and so the REST status) of the userError codes that are not about an input member's value. */
const errorOfCode: Record<string, string> = { NOT_FOUND: 'NotFoundError', CONFLICT: 'ConflictError' };

/**
 * A mutation's payload, raised as a PayloadError when it wrote nothing: when its `userErrors` (selected with
 * `userErrors { ...UserErrors }`) are not empty.
 */
function unwrapPayload(result: unknown): Record<string, unknown> {
  const payload = result as Payload;
  const [first] = payload.userErrors;
  if (first) {
    const typename = errorOfCode[first.code];
    if (typename) throw new PayloadError(typename, first.message);
    // Field paths start with the argument (`input`); the facade names the members as the wire does.
    const issues = payload.userErrors.map((error) => ({
      field: error.field?.slice(1).join('.') ?? '',
      message: error.message,
    }));
    throw new PayloadError('ValidationError', first.message, issues);
  }
  return result as Record<string, unknown>;
}

/**
 * The route table holds routes of many documents: each helper checks its own document's types, then hands over the
 * route with them erased.
 */
function route<Doc extends AnyDocument>(
  method: Method,
  options: RouteBase<Doc> & Partial<Pick<RestRoute, 'body' | 'filters'>> & { variables: RestRoute['variables'] },
  responses: RestRoute['responses'],
  respond: RestRoute['respond'],
): RestRoute {
  return { ...options, method, document: options.document as RestRoute['document'], responses, respond };
}

/**
 * GET of one object: 200 with it, 404 when the query answers null. `paged` declares `start` and `limit` for an object
 * that pages a list inside it (the grades of a section), which its shape renders with `pageLinks`.
 */
export function viewRoute<Doc extends AnyDocument, Wire extends z.ZodObject>(
  options: RouteBase<Doc> & {
    wire: Wire;
    filters?: WireBody;
    paged?: boolean;
    variables: Variables<Doc>;
    shape: Shape<NonNullable<Root<Doc>>, Wire>;
  },
): RestRoute {
  const view = route('GET', options, { 200: options.wire }, (result, request, link) => {
    if (result === null) throw new MissingObjectError();
    return { status: 200, body: options.shape(result as NonNullable<Root<Doc>>, link, request) };
  });
  return options.paged ? { ...view, paged: true } : view;
}

/** A paged list: `{<item>: [...], total, links: {self, next?}}`. */
export function listRoute<Doc extends AnyDocument, Wire extends z.ZodObject>(
  options: RouteBase<Doc> & {
    item: string;
    wire: Wire;
    filters?: WireBody;
    variables: (request: RestRequest) => Omit<VariablesOf<Doc>, 'start' | 'limit'>;
    shape: Shape<ItemOf<NonNullable<Root<Doc>>>, Wire>;
  },
): RestRoute {
  // The page first, the route's own variables spread after it (docs/adding-a-resource.md: young garbage).
  const variables = (request: RestRequest) => ({
    start: request.page.start,
    limit: request.page.limit,
    ...options.variables(request),
  });
  const paged = route(
    'GET',
    { ...options, variables },
    { 200: pagedEnvelope(options.item, options.wire) },
    (result, request, link) => {
      if (result === null) throw new MissingObjectError();
      const { items, total } = result as { items: ItemOf<NonNullable<Root<Doc>>>[]; total: number };
      const body = {
        [options.item]: items.map((item) => options.shape(item, link, request)),
        total,
        links: pageLinks(total, request, link),
      };
      return { status: 200, body };
    },
  );
  return { ...paged, paged: true };
}

/**
 * GET of one object answered in the list envelope, `{<item>: [one], total: 1, links: {self}}`, as the platform answers
 * a view of an album or of album content.
 */
export function viewInListRoute<Doc extends AnyDocument, Wire extends z.ZodObject>(
  options: RouteBase<Doc> & {
    item: string;
    wire: Wire;
    variables: Variables<Doc>;
    shape: Shape<NonNullable<Root<Doc>>, Wire>;
  },
): RestRoute {
  const envelope = z.object({ [options.item]: z.array(options.wire).length(1), total: z.literal(1), links: selfLink });
  return route('GET', options, { 200: envelope }, (result, request, link) => {
    if (result === null) throw new MissingObjectError();
    const body = {
      [options.item]: [options.shape(result as NonNullable<Root<Doc>>, link, request)],
      total: 1,
      links: { self: link(request.path) },
    };
    return { status: 200, body };
  });
}

/**
 * GET of a stored file (an album item's bytes or thumbnail): the query finds the file the viewer may read, and the
 * facade streams it, with `Range` support; 404 when the query answers null or the object has no such file.
 */
export function fileRoute<Doc extends AnyDocument>(
  options: RouteBase<Doc> & { variables: Variables<Doc>; file: (node: NonNullable<Root<Doc>>) => ServedFile | null },
): RestRoute {
  const get = route('GET', options, { 200: null, 206: null }, (result) => {
    const file = result === null ? null : options.file(result as NonNullable<Root<Doc>>);
    if (!file) throw new MissingObjectError();
    return { status: 200, file };
  });
  return { ...get, servesFile: true };
}

/**
 * The same operation under a second path, such as the platform's legacy `/album/{id}` beside `/[realm]/albums/{id}`:
 * one declaration, two entries in the route table. The legacy path names no realm (`request.realm` is null).
 */
export function alsoAt(path: string, ...routes: RestRoute[]): RestRoute[] {
  return routes.flatMap((primary) => [
    primary,
    { ...primary, path, realms: undefined, summary: `${primary.summary} (legacy path)` },
  ]);
}

function pageLink(request: RestRequest, link: LinkBuilder, start: number): string {
  const query = new URLSearchParams(request.query);
  query.set('start', String(start));
  query.set('limit', String(request.page.limit));
  return `${link(request.path)}?${query}`;
}

/** `self` always shows the effective start and limit; `next` only while a further page exists. */
export function pageLinks(total: number, request: RestRequest, link: LinkBuilder) {
  const { start, limit } = request.page;
  return {
    self: pageLink(request, link, start),
    ...(start + limit < total ? { next: pageLink(request, link, start + limit) } : {}),
  };
}

/** The member of a mutation payload that holds its object, such as `group` in `CreateGroupPayload`. */
type PayloadMember<Doc extends AnyDocument> = keyof NonNullable<Root<Doc>> & string;

/** What a write's shape renders: the payload's `payload` member when the route names one, else the whole payload. */
type Written<Doc extends AnyDocument, Member> = [Member] extends [never]
  ? NonNullable<Root<Doc>>
  : NonNullable<NonNullable<Root<Doc>>[Member & keyof NonNullable<Root<Doc>>]>;

/** The written object of a mutation's answer (see `Written`), once its userErrors are known to be empty. */
function writtenObject(result: unknown, member: string | undefined) {
  const payload = unwrapPayload(result) as Record<string, unknown>;
  return member ? payload[member] : payload;
}

/** POST: 201 with the created object. */
export function createRoute<
  Doc extends AnyDocument,
  Wire extends z.ZodObject,
  Member extends PayloadMember<Doc> = never,
>(
  options: RouteBase<Doc> & {
    body: WireBody;
    wire: Wire;
    variables: Variables<Doc>;
    payload?: Member;
    shape: Shape<Written<Doc, Member>, Wire>;
  },
): RestRoute {
  return route('POST', options, { 201: options.wire }, (result, request, link) => ({
    status: 201,
    body: options.shape(writtenObject(result, options.payload) as Written<Doc, Member>, link, request),
  }));
}

/**
 * PUT of raw bytes (`PUT /upload/{id}`): the request body streams to the operation through its context instead of
 * being decoded; 200 with the object the operation answers.
 */
export function rawBodyRoute<
  Doc extends AnyDocument,
  Wire extends z.ZodObject,
  Member extends PayloadMember<Doc> = never,
>(
  options: RouteBase<Doc> & {
    wire: Wire;
    variables: Variables<Doc>;
    payload?: Member;
    shape: Shape<Written<Doc, Member>, Wire>;
  },
): RestRoute {
  const put = route('PUT', options, { 200: options.wire }, (result, request, link) => ({
    status: 200,
    body: options.shape(writtenObject(result, options.payload) as Written<Doc, Member>, link, request),
  }));
  return { ...put, rawBody: true };
}

/** PUT or DELETE: 204, no body. */
function emptyAnswerRoute<Doc extends AnyDocument>(
  method: 'PUT' | 'DELETE',
  options: RouteBase<Doc> & { body?: WireBody; filters?: WireBody; variables: Variables<Doc> },
): RestRoute {
  return route(method, options, { 204: null }, (result) => {
    unwrapPayload(result as Payload);
    return { status: 204 };
  });
}

export const updateRoute = <Doc extends AnyDocument>(
  options: RouteBase<Doc> & { body: WireBody; variables: Variables<Doc> },
) => emptyAnswerRoute('PUT', options);

/** DELETE: 204, no body; `filters` declares the query parameters it reads (or reads and ignores, as documented). */
export const deleteRoute = <Doc extends AnyDocument>(
  options: RouteBase<Doc> & { filters?: WireBody; variables: Variables<Doc> },
) => emptyAnswerRoute('DELETE', options);

/** A GET answered with a redirect, such as `/users/me`. */
export function redirectRoute<Doc extends AnyDocument>(
  options: RouteBase<Doc> & { variables: Variables<Doc>; location: (node: NonNullable<Root<Doc>>) => string },
): RestRoute {
  return route('GET', options, { 303: null }, (result, _request, link) => ({
    status: 303,
    headers: { location: link(options.location(result as NonNullable<Root<Doc>>)) },
  }));
}

/**
 * A write of many items at once (PUT or POST, or a DELETE of the ids its `filters` read), answered with a result per
 * item: one bad item fails only itself. The answer is 200 while every item has the same code, 207 Multi-Status when
 * they differ (`codes` reads them), or always 207 where the platform answers so whatever the codes (`multiStatus`).
 */
export function bulkRoute<Doc extends AnyDocument, Wire extends z.ZodObject, Member extends PayloadMember<Doc> = never>(
  method: 'PUT' | 'POST' | 'DELETE',
  options: RouteBase<Doc> & {
    body?: WireBody;
    filters?: WireBody;
    wire: Wire;
    variables: Variables<Doc>;
    payload?: Member;
    shape: Shape<Written<Doc, Member>, Wire>;
    codes?: (node: Written<Doc, Member>) => number[];
    multiStatus?: 'always';
  },
): RestRoute {
  const responses: RestRoute['responses'] = options.multiStatus
    ? { 207: options.wire }
    : options.codes
      ? { 200: options.wire, 207: options.wire }
      : { 200: options.wire };
  return route(method, options, responses, (result, request, link) => {
    const node = writtenObject(result, options.payload) as Written<Doc, Member>;
    const codes = new Set(options.codes?.(node) ?? []);
    return { status: options.multiStatus || codes.size > 1 ? 207 : 200, body: options.shape(node, link, request) };
  });
}
