import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { transform, version as esbuildVersion } from 'esbuild';
import { type Plugin, shouldRenderGraphiQL } from 'graphql-yoga';

const require = createRequire(import.meta.url);
const compressBrotli = promisify(brotliCompress);
const compressGzip = promisify(gzip);

/** Where the assets are served; the page links them relative to itself, so a path prefix (behind a proxy) works. */
const assetsPath = '/graphiql/assets/';

interface AssetSource {
  name: string;
  /** The installed package, and the file within it (these builds are not in the packages' `exports`). */
  package: string;
  file: string;
  /** graphiql's "min" build is webpack's readable bundle: minified here once, at less than half its size. */
  minify?: boolean;
}

/**
 * Browser builds from the installed packages: React 18's, GraphiQL 3.8's (which bundles the graphql-ws client its
 * fetcher uses for subscriptions) and explorer plugin 3.2.5's, which uses the React and GraphiQL globals and was built
 * against the same @graphiql/react (0.28); GraphiQL 5 ships no browser build. Nothing comes from a CDN: school
 * networks filter outside hosts.
 */
const sources: AssetSource[] = [
  { name: 'react.js', package: 'react', file: 'umd/react.production.min.js' },
  { name: 'react-dom.js', package: 'react-dom', file: 'umd/react-dom.production.min.js' },
  { name: 'graphiql.js', package: 'graphiql', file: 'graphiql.min.js', minify: true },
  { name: 'graphiql.css', package: 'graphiql', file: 'graphiql.min.css' },
  { name: 'plugin-explorer.js', package: '@graphiql/plugin-explorer', file: 'dist/index.umd.js' },
  { name: 'plugin-explorer.css', package: '@graphiql/plugin-explorer', file: 'dist/style.css' },
];

/** Starts GraphiQL on the page's own URL, over HTTP and graphql-ws (which carries the headers tab as connection params). */
const startScript = `(function () {
  var url = location.origin + location.pathname;
  var fetcher = GraphiQL.createFetcher({ url: url, subscriptionUrl: url.replace(/^http/, 'ws') });
  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  root.render(React.createElement(GraphiQL, {
    fetcher: fetcher,
    plugins: [GraphiQLPluginExplorer.explorerPlugin()],
    defaultEditorToolsVisibility: 'headers',
    shouldPersistHeaders: true,
  }));
})();
`;

const pageStyle = 'html,body,#graphiql{height:100%;margin:0}';

/** An installed package's folder: the nearest one above its entry point whose package.json has its name. */
async function packageDirectory(name: string): Promise<string> {
  let directory = dirname(require.resolve(name));
  while (directory !== dirname(directory)) {
    const manifest = await readFile(join(directory, 'package.json'), 'utf8').catch(() => null);
    if (manifest && (JSON.parse(manifest) as { name?: string }).name === name) return directory;
    directory = dirname(directory);
  }
  throw new Error(`Cannot find the folder of the package ${name}`);
}

interface Encoded {
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
  etag: string;
}

async function encode(body: Buffer): Promise<Encoded> {
  const [gzipped, brotli] = await Promise.all([
    compressGzip(body, { level: 9 }),
    compressBrotli(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  ]);
  return {
    identity: body,
    gzip: gzipped,
    br: brotli,
    etag: `"${createHash('sha256').update(body).digest('base64url')}"`,
  };
}

const contentTypes: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' };

interface Served extends Encoded {
  contentType: string;
}

interface Prepared {
  page: Served;
  /**
   * By path under `assetsPath`, each named with a hash of its source (and of esbuild's version for a minified one), so
   * that a new build is a new URL; an asset is minified and compressed when first asked for.
   */
  assets: Map<string, () => Promise<Served>>;
}

/** `make`'s promise, made on the first call and shared; made again after a failure. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | null = null;
  return () =>
    (made ??= make().catch((error: unknown) => {
      made = null;
      throw error;
    }));
}

/** Names the assets and writes the page at once: the slow part (minifying, brotli) waits for each asset's first request. */
async function prepare(title: string): Promise<Prepared> {
  const assets = new Map<string, () => Promise<Served>>();
  const links: string[] = [];
  const add = (name: string, text: Buffer, minify = false) => {
    const [base, extension] = name.split(/\.(?=[^.]+$)/);
    const hash = createHash('sha256')
      .update(text)
      .update(minify ? `esbuild ${esbuildVersion}` : '')
      .digest('hex')
      .slice(0, 12);
    const path = `${base}-${hash}.${extension}`;
    assets.set(
      path,
      once(async () => {
        const body = minify
          ? Buffer.from((await transform(text.toString('utf8'), { minify: true, loader: 'js' })).code)
          : text;
        return { ...(await encode(body)), contentType: contentTypes[extension] };
      }),
    );
    links.push(path);
  };
  for (const source of sources) {
    add(source.name, await readFile(join(await packageDirectory(source.package), source.file)), source.minify);
  }
  add('start.js', Buffer.from(startScript));
  const href = (path: string) => `graphiql/assets/${path}`;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
${links
  .filter((path) => path.endsWith('.css'))
  .map((path) => `<link rel="stylesheet" href="${href(path)}">`)
  .join('\n')}
<style>${pageStyle}</style>
</head>
<body>
<div id="graphiql">Loading…</div>
${links
  .filter((path) => path.endsWith('.js'))
  .map((path) => `<script src="${href(path)}"></script>`)
  .join('\n')}
</body>
</html>
`;
  return { page: { ...(await encode(Buffer.from(html))), contentType: 'text/html; charset=utf-8' }, assets };
}

/** The encoding to answer with: br, then gzip, when the client accepts it (a q=0 refuses it). */
function encodingFor(acceptEncoding: string | null): 'br' | 'gzip' | 'identity' {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) =>
        part
          .trim()
          .toLowerCase()
          .split(/\s*;\s*/),
      )
      .filter(([, quality]) => !quality || !/^q=0(\.0*)?$/.test(quality))
      .map(([coding]) => coding),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return 'identity';
}

function respond(request: Request, served: Served, cacheControl: string): Response {
  const headers = new Headers({
    'content-type': served.contentType,
    'cache-control': cacheControl,
    etag: served.etag,
    vary: 'accept-encoding',
    'x-content-type-options': 'nosniff',
  });
  if (
    request.headers
      .get('if-none-match')
      ?.split(',')
      .some((tag) => tag.trim().replace(/^W\//, '') === served.etag)
  ) {
    return new Response(null, { status: 304, headers });
  }
  const encoding = encodingFor(request.headers.get('accept-encoding'));
  const body = served[encoding];
  if (encoding !== 'identity') headers.set('content-encoding', encoding);
  headers.set('content-length', String(body.length));
  return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { headers });
}

/** Versioned assets never change under their URL. */
export const immutable = 'public, max-age=31536000, immutable';
/** The page names the assets' current versions, so a browser revalidates it (a 304 when unchanged). */
export const revalidate = 'no-cache';

/**
 * GraphiQL on GET `graphqlEndpoint` for browsers (Accept: text/html): a small page plus its assets, each compressed
 * once (brotli and gzip, prepared on the first visit) and answered in the encoding the browser accepts, with the
 * explorer plugin. Replaces yoga's own GraphiQL, which inlines 9 MB of HTML into every answer.
 */
export function useGraphiQLPage(options: { graphqlEndpoint: string; title: string }): Plugin {
  const ready = once(() => prepare(options.title));
  // Answers of this plugin, whose Vary must keep naming the encoding.
  const answers = new WeakSet<Response>();
  const answer = (response: Response) => {
    answers.add(response);
    return response;
  };
  return {
    async onRequest({ request, url, endResponse }) {
      if (url.pathname === options.graphqlEndpoint && shouldRenderGraphiQL(request)) {
        const { page, assets } = await ready();
        // The browser asks for the assets next: they are prepared meanwhile (errors reach their own requests).
        for (const asset of assets.values()) asset().catch(() => {});
        return endResponse(answer(respond(request, page, revalidate)));
      }
      if ((request.method !== 'GET' && request.method !== 'HEAD') || !url.pathname.startsWith(assetsPath)) return;
      const asset = (await ready()).assets.get(url.pathname.slice(assetsPath.length));
      endResponse(
        asset
          ? answer(respond(request, await asset(), immutable))
          : new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } }),
      );
    },
    // Yoga's CORS answer replaces Vary with its own (Origin) on any request with an Origin: the encoding is put back.
    onResponse({ response }) {
      if (!answers.has(response)) return;
      const vary = response.headers.get('vary');
      if (vary && !/accept-encoding/i.test(vary)) response.headers.set('vary', `${vary}, accept-encoding`);
    },
  };
}
