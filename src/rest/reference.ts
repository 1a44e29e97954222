/**
 * The /v1 API reference: `GET /v1/openapi.json` (the generated OpenAPI document) and `GET /v1/docs` (Scalar rendering
 * it). Both are public, and the page loads nothing from outside this server, for school networks that filter outside
 * hosts: Scalar's browser bundle is served from node_modules, without its default fonts, telemetry or agent.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Plugin } from 'graphql-yoga';
import { contentTypes, responseFormat } from './negotiation';
import type { LinkOrigin } from './link-origin';
import { apiTitle, openApiDocument } from './openapi';
import type { RestRoute } from './route';
import { renderXml } from './xml';

export interface RestReferenceOptions {
  routes: readonly RestRoute[];
  publicUrl: URL | null;
  linkOrigin: LinkOrigin;
}

const paths = { document: '/v1/openapi.json', page: '/v1/docs', script: '/v1/docs/scalar.js' };
const allow = 'GET, HEAD, OPTIONS';

const scalarPackage = createRequire(import.meta.url).resolve('@scalar/api-reference');
const scalarScript = join(dirname(scalarPackage), 'browser', 'standalone.js');
const scalarVersion: string = createRequire(import.meta.url)(
  join(dirname(scalarPackage), '..', 'package.json'),
).version;

/** Which of the reference's resources a path names; `/v1/docs/` is the page too. */
function resourceOf(pathname: string): keyof typeof paths | null {
  if (pathname === paths.document) return 'document';
  if (pathname === paths.page || pathname === `${paths.page}/`) return 'page';
  if (pathname === paths.script) return 'script';
  return null;
}

const escapeAttribute = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Paths are absolute under PUBLIC_URL's path prefix, so the page works at `/v1/docs` and `/v1/docs/` alike. */
function page(prefix: string): string {
  // Read from the element's data attributes, so the page needs no inline script and a strict CSP holds.
  const configuration = {
    url: `${prefix}${paths.document}`,
    withDefaultFonts: false,
    telemetry: false,
    // The agent, MCP generation and developer tools (shown on localhost by default) upload the document to Scalar.
    agent: { disabled: true },
    mcp: { disabled: true },
    hideClientButton: true,
    showDeveloperTools: 'never',
    metaData: { title: apiTitle },
  };
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${apiTitle}</title>
  </head>
  <body>
    <script id="api-reference" data-configuration="${escapeAttribute(JSON.stringify(configuration))}"></script>
    <script src="${prefix}${paths.script}?v=${scalarVersion}"></script>
  </body>
</html>
`;
}

/** Keeps the browser from reaching any other host, whatever the bundle might try; requests from its client go to /v1. */
const contentSecurityPolicy = (serverOrigin: string) =>
  [
    "default-src 'none'",
    "script-src 'self'",
    // Scalar injects its styles at run time.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self' ${serverOrigin}`,
    "worker-src 'self' blob:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'self'",
  ].join('; ');

function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | null = null;
  return () => {
    loaded ??= load().catch((error: unknown) => {
      loaded = null;
      throw error;
    });
    return loaded;
  };
}

const script = once(() => readFile(scalarScript));
// About a quarter of the 4 MB; compressed once per process.
const gzippedScript = once(async () => promisify(gzip)(await script(), { level: 9 }));

/** Serves the reference's paths before the REST facade, which would answer them with 404. */
export function useRestReference(options: RestReferenceOptions): Plugin {
  const prefix = options.publicUrl ? options.publicUrl.pathname.replace(/\/$/, '') : '';
  // The document is computed once per origin: a few without PUBLIC_URL (allowed hosts, listening addresses).
  const documents = new Map<string, string>();
  const documentFor = (origin: string) => {
    let text = documents.get(origin);
    if (text === undefined) {
      if (documents.size >= 16) documents.delete(documents.keys().next().value!);
      text = JSON.stringify(openApiDocument(options.routes, { serverUrl: `${origin}/v1` }));
      documents.set(origin, text);
    }
    return text;
  };

  async function answer(
    request: Request,
    serverContext: Record<string, unknown>,
    resource: keyof typeof paths,
  ): Promise<Response> {
    // The same base URL the facade builds links from.
    const origin = options.linkOrigin(request, serverContext);
    switch (resource) {
      case 'document':
        return new Response(documentFor(origin), {
          headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache' },
        });
      case 'page':
        return new Response(page(prefix), {
          headers: {
            'content-type': 'text/html; charset=utf-8',
            'cache-control': 'no-cache',
            'content-security-policy': contentSecurityPolicy(new URL(origin).origin),
            'x-content-type-options': 'nosniff',
          },
        });
      case 'script': {
        const gzipped = /\bgzip\b/i.test(request.headers.get('accept-encoding') ?? '');
        const body = gzipped ? await gzippedScript() : await script();
        return new Response(new Uint8Array(body), {
          headers: {
            'content-type': 'text/javascript; charset=utf-8',
            // The page asks for it with Scalar's version in the query, so a new version is a new URL.
            'cache-control': 'public, max-age=31536000, immutable',
            'x-content-type-options': 'nosniff',
            vary: 'accept-encoding',
            ...(gzipped ? { 'content-encoding': 'gzip' } : {}),
          },
        });
      }
    }
  }

  return {
    async onRequest({ request, url, endResponse, serverContext }) {
      const resource = resourceOf(url.pathname);
      if (!resource) return;
      const context = serverContext as Record<string, unknown>;
      if (request.method === 'GET') return endResponse(await answer(request, context, resource));
      if (request.method === 'HEAD') {
        const { status, headers } = await answer(request, context, resource);
        return endResponse(new Response(null, { status, headers }));
      }
      // OPTIONS is answered by yoga's CORS plugin before this one, and then by useRestReferencePreflight.
      const body = { error: `${request.method} is not allowed here` };
      const format = responseFormat(request.headers.get('accept'));
      endResponse(
        new Response(format === 'xml' ? renderXml(body) : JSON.stringify(body), {
          status: 405,
          headers: { allow, 'content-type': contentTypes[format] },
        }),
      );
    },
  };
}

/**
 * Yoga's CORS plugin answers every OPTIONS request, and the REST facade then replaces that answer for every /v1 path
 * with its router's (404 for these paths). Registered after the facade, this restores the reference's Allow answer,
 * keeping the CORS headers.
 */
export function useRestReferencePreflight(): Plugin {
  return {
    onResponse({ request, response, setResponse }) {
      if (request.method !== 'OPTIONS' || !resourceOf(new URL(request.url).pathname)) return;
      const headers = new Headers(response.headers);
      headers.delete('content-type');
      headers.delete('content-length');
      headers.set('allow', allow);
      setResponse(new Response(null, { status: 204, headers }));
    },
  };
}
