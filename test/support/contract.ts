import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { XMLParser } from 'fast-xml-parser';
import { z } from 'zod';
import type { RestRoute } from '../../src/rest/route';
import { createRouter } from '../../src/rest/router';
import { restRoutes } from '../../src/rest/routes';

/**
 * Every /v1 response a test produces is checked here against the wire contract its route declares, in JSON and in
 * XML, so that the declared schemas (and the OpenAPI document made from them) cannot drift from what is served; and
 * what a contract declares HTML must carry no markup the sanitizer removes.
 */

type JsonSchema = { [key: string]: unknown };

const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
const match = createRouter(restRoutes);

const errorBody = z
  .object({
    error: z.string(),
    issues: z.array(z.object({ field: z.string(), message: z.string() }).strict()).optional(),
  })
  .strict();

const compiled = new Map<z.ZodType, { schema: JsonSchema; validate: ValidateFunction }>();
function contractOf(schema: z.ZodType) {
  let entry = compiled.get(schema);
  if (!entry) {
    const json = z.toJSONSchema(schema, { target: 'draft-2020-12' }) as JsonSchema;
    entry = { schema: json, validate: ajv.compile(json) };
    compiled.set(schema, entry);
  }
  return entry;
}

const xmlParser = new XMLParser({ ignoreDeclaration: true, parseTagValue: false, trimValues: false });

function resolve(schema: JsonSchema, root: JsonSchema): JsonSchema {
  const ref = schema.$ref as string | undefined;
  return ref ? resolve((root.$defs as Record<string, JsonSchema>)[ref.replace('#/$defs/', '')]!, root) : schema;
}

function typeOf(schema: JsonSchema, root: JsonSchema): string | undefined {
  const resolved = resolve(schema, root);
  if (typeof resolved.type === 'string') return resolved.type;
  if (Array.isArray(resolved.type)) return resolved.type.find((type) => type !== 'null');
  const options = (resolved.anyOf ?? resolved.oneOf) as JsonSchema[] | undefined;
  return options?.map((option) => typeOf(option, root)).find(Boolean);
}

function allowsNull(schema: JsonSchema, root: JsonSchema): boolean {
  if (Array.isArray(schema.type)) return schema.type.includes('null');
  const options = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  return options?.some((option) => typeOf(option, root) === 'null') ?? false;
}

/** XML carries every value as text and a one-item list as one element: read it back with the schema's types. */
function fromXml(value: unknown, schema: JsonSchema, root: JsonSchema): unknown {
  const resolved = resolve(schema, root);
  switch (typeOf(resolved, root)) {
    case 'array': {
      if (value === '') return [];
      const items = Array.isArray(value) ? value : [value];
      return items.map((item) => fromXml(item, resolved.items as JsonSchema, root));
    }
    case 'object': {
      if (value === '') return {};
      const properties = (resolved.properties ?? {}) as Record<string, JsonSchema>;
      return Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([key, child]) => [
          key,
          properties[key] ? fromXml(child, properties[key], root) : child,
        ]),
      );
    }
    case 'integer':
    case 'number':
      // An empty element is null where the number is nullable (a grade not yet given).
      return value === '' ? (allowsNull(resolved, root) ? null : value) : Number(value);
    case 'null':
      // Null renders as an empty element, as an empty string does.
      return value === '' ? null : value;
    default:
      // Likewise for nullable text, which may be an enumeration without the empty text (a failed item's "0" or "1").
      return value === '' && allowsNull(resolved, root) ? null : value;
  }
}

function fail(request: Request, status: number, problem: string, text: string): never {
  throw new Error(
    `${request.method} ${new URL(request.url).pathname} answered ${status} outside its wire contract: ${problem}\n${text.slice(0, 2000)}`,
  );
}

function bodyOf(request: Request, response: Response, text: string): unknown {
  const type = response.headers.get('content-type') ?? '';
  if (type.startsWith('application/json')) return JSON.parse(text);
  if (type.startsWith('text/xml')) {
    if (!text.startsWith('<?xml version="1.0" encoding="utf-8" ?><result'))
      fail(request, response.status, 'not an XML result document', text);
    return (xmlParser.parse(text) as { result: unknown }).result;
  }
  return fail(request, response.status, `content type ${type}`, text);
}

/**
 * Markup that a member declared HTML (`contentMediaType: text/html`, the sanitized members) must never carry: a
 * script, style, frame, form or SVG element, an event handler attribute, or a script or data URL. Sanitized HTML
 * escapes `<` in text and `>` in attribute values, so every tag in it is a real one.
 */
function unsafeMarkup(html: string): string | null {
  for (const [tag, name, attributes] of html.matchAll(/<\/?([a-zA-Z][\w-]*)([^>]*)>/g)) {
    if (/^(?:script|style|iframe|frame|object|embed|form|input|svg|math|link|meta|base)$/i.test(name!)) return tag;
    if (/(?:^|\s)on[a-z]+\s*=|=\s*["']?\s*(?:javascript|vbscript|data):/i.test(attributes!)) return tag;
  }
  return null;
}

/** The first unsafe markup in a member the contract declares HTML, with the member's path. */
function unsafeHtml(value: unknown, schema: JsonSchema, root: JsonSchema, path: string): string | null {
  const resolved = resolve(schema, root);
  const options = (resolved.anyOf ?? resolved.oneOf) as JsonSchema[] | undefined;
  if (options) return options.map((option) => unsafeHtml(value, option, root, path)).find(Boolean) ?? null;
  if (typeof value === 'string') {
    const found = resolved.contentMediaType === 'text/html' ? unsafeMarkup(value) : null;
    return found && `${path} carries ${found}`;
  }
  if (Array.isArray(value))
    return (
      value
        .map((item, index) => unsafeHtml(item, (resolved.items ?? {}) as JsonSchema, root, `${path}/${index}`))
        .find(Boolean) ?? null
    );
  if (value === null || typeof value !== 'object') return null;
  const properties = (resolved.properties ?? {}) as Record<string, JsonSchema>;
  return (
    Object.entries(value)
      .map(([key, child]) => properties[key] && unsafeHtml(child, properties[key], root, `${path}/${key}`))
      .find(Boolean) ?? null
  );
}

function checkAgainst(schema: z.ZodType, request: Request, response: Response, text: string) {
  const { schema: json, validate } = contractOf(schema);
  const raw = bodyOf(request, response, text);
  const body = response.headers.get('content-type')?.startsWith('text/xml') ? fromXml(raw, json, json) : raw;
  if (!validate(body)) fail(request, response.status, ajv.errorsText(validate.errors), text);
  const unsafe = unsafeHtml(body, json, json, 'data');
  if (unsafe) fail(request, response.status, `unsafe markup in sanitized HTML: ${unsafe}`, text);
}

/** The body as text, decoded from the content coding it was sent in (src/http/compression.ts). */
async function bodyText(response: Response): Promise<string> {
  const sent = Buffer.from(await response.clone().arrayBuffer());
  const coding = response.headers.get('content-encoding');
  return (coding === 'br' ? brotliDecompressSync(sent) : coding === 'gzip' ? gunzipSync(sent) : sent).toString('utf8');
}

/** The schema a multiget item's body is held to: the error shape, or what the route of the GET it names declares. */
function itemContract(location: string, code: number): z.ZodType | null | string {
  if (code >= 400) return errorBody;
  const url = new URL(
    /^https?:/i.test(location) ? location : `/${location.replace(/^\/+/, '')}`,
    'http://multiget.test',
  );
  const path = url.pathname.replace(/^\/v1(?=\/|$)/, '').replace(/\/+$/, '') || '/';
  const found = match('GET', path);
  if (found.kind !== 'route') return `answered ${code} for a path with no GET route`;
  if (!(code in found.route.responses))
    return `answered ${code}, where its route declares ${Object.keys(found.route.responses).join(', ')}`;
  return found.route.responses[code] ?? null;
}

/** A multiget's 207 (in JSON): each path's body held to the contract of the GET it names, as if that GET was sent. */
function checkMultiget(request: Request, response: Response, text: string) {
  if (!response.headers.get('content-type')?.startsWith('application/json')) return;
  const items = (JSON.parse(text) as { response: { location: string; response_code: number; body: unknown }[] })
    .response;
  for (const { location, response_code: code, body } of items) {
    const contract = itemContract(location, code);
    if (typeof contract === 'string') fail(request, 207, `${location} ${contract}`, text);
    if (contract === null) {
      if (body !== null) fail(request, 207, `${location} answered a body where its route declares none`, text);
      continue;
    }
    const { validate } = contractOf(contract);
    if (!validate(body)) fail(request, 207, `${location}: ${ajv.errorsText(validate.errors)}`, text);
  }
}

/** Checks one /v1 exchange: success bodies against the route's declared response, failures against the error shape. */
export async function assertWireContract(request: Request, response: Response): Promise<void> {
  const url = new URL(request.url);
  const path = url.pathname.slice('/v1'.length).replace(/\/+$/, '') || '/';
  const { status } = response;
  if (request.method === 'OPTIONS' || request.method === 'HEAD') return;
  const text = await bodyText(response);
  if (status === 401) {
    if (!response.headers.get('content-type')?.startsWith('text/plain'))
      fail(request, status, 'a 401 is plain text', text);
    return;
  }
  if (status >= 400) return checkAgainst(errorBody, request, response, text);
  if (status === 304) {
    if (request.method !== 'GET' || text !== '' || !response.headers.get('etag'))
      fail(request, status, 'a 304 answers a GET, with its ETag and no body', text);
    return;
  }
  if (request.method === 'POST' && path === '/multiget' && status === 207)
    return checkMultiget(request, response, text);
  const found = match(request.method, path);
  // Paths outside the route table (the API document and its reference page) have their own tests.
  if (found.kind !== 'route') return;
  const route: RestRoute = found.route;
  if (!(status in route.responses))
    fail(request, status, `the route declares ${Object.keys(route.responses).join(', ')}`, text);
  if (route.servesFile) {
    // A file's bytes: what the contract can hold them to is their declared length.
    const length = (await response.clone().arrayBuffer()).byteLength;
    if (response.headers.get('content-length') !== String(length))
      fail(request, status, `Content-Length is not the ${length} bytes sent`, '');
    return;
  }
  const declared = route.responses[status];
  if (declared === null) {
    if (text !== '') fail(request, status, 'the route declares an empty body', text);
    return;
  }
  checkAgainst(declared!, request, response, text);
}
