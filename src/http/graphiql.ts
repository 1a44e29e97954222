import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform, version as esbuildVersion } from 'esbuild';
import { type Plugin, shouldRenderGraphiQL } from 'graphql-yoga';
import { compress, encodedEntityTag, negotiateEncoding, varyOnEncoding } from './compression';
import { matchingTag } from './etag';
import { startScript } from './graphiql-start';

const require = createRequire(import.meta.url);

/** Where the assets are served; the page links them relative to itself, so a path prefix (behind a proxy) works. */
const assetsPath = '/graphiql/assets/';

/**
 * Where `npm run build` (scripts/build.mjs) writes the minified and compressed assets, one folder per build key, from
 * this file's place: src/http/ when run from source, dist/src/ when compiled, both two folders below the checkout.
 */
export const builtAssetsFolder = fileURLToPath(new URL('../../dist/graphiql/', import.meta.url));

interface AssetSource {
  name: string;
  /** The installed package, and the file within it (these builds are not in the packages' `exports`). */
  package: string;
  file: string;
  /** graphiql's "min" build is webpack's readable bundle: minified ahead, at less than half its size. */
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

const pageStyle =
  'html,body,#graphiql{height:100%;margin:0}.lectern-account{display:flex;align-items:center;gap:.5em;margin-left:1em;font-size:.8em}';

/** An installed package's folder: the nearest one above its entry point whose package.json has its name. */
async function packageDirectory(name: string): Promise<{ directory: string; version: string }> {
  let directory = dirname(require.resolve(name));
  while (directory !== dirname(directory)) {
    const manifest = await readFile(join(directory, 'package.json'), 'utf8').catch(() => null);
    const parsed = manifest ? (JSON.parse(manifest) as { name?: string; version?: string }) : null;
    if (parsed?.name === name) return { directory, version: parsed.version ?? '' };
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

const entityTagOf = (body: Buffer) => `"${createHash('sha256').update(body).digest('base64url')}"`;

/** Fixed content, compressed once at the slowest levels: what a browser downloads is the smallest either gives. */
const fixedLevels = { brotliQuality: 11, gzipLevel: 9 };

async function encode(body: Buffer): Promise<Encoded> {
  const [gzipped, brotli] = await Promise.all([compress(body, 'gzip', fixedLevels), compress(body, 'br', fixedLevels)]);
  return { identity: body, gzip: gzipped, br: brotli, etag: entityTagOf(body) };
}

const contentTypes: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' };
const contentTypeOf = (path: string) => contentTypes[path.slice(path.lastIndexOf('.') + 1)]!;

interface Served extends Encoded {
  contentType: string;
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

interface Located extends AssetSource {
  path: string;
  version: string;
  size: number;
}

/**
 * The sources where they are installed, and the key of a build of them: their packages' versions and sizes, the start
 * script and esbuild's version (which minifies), so that a build is found again without reading the sources.
 */
async function locateSources(): Promise<{ key: string; located: Located[] }> {
  const located: Located[] = [];
  for (const source of sources) {
    const { directory, version } = await packageDirectory(source.package);
    const path = join(directory, source.file);
    located.push({ ...source, path, version, size: (await stat(path)).size });
  }
  const key = createHash('sha256')
    .update(JSON.stringify([located.map(({ name, version, size }) => [name, version, size]), esbuildVersion]))
    .update(startScript)
    .digest('hex')
    .slice(0, 16);
  return { key, located };
}

/** What a build folder lists: each asset's path under `assetsPath`, named with a hash of its minified content. */
interface BuildManifest {
  assets: string[];
}

const manifestName = 'manifest.json';

/** Minifies and compresses every asset: seconds of CPU, which `npm run build` spends rather than a visitor. */
async function buildAssets(located: Located[]): Promise<Map<string, Served>> {
  const assets = new Map<string, Served>();
  const entries: [string, Buffer][] = [
    ...(await Promise.all(
      located.map(async (source): Promise<[string, Buffer]> => {
        const text = await readFile(source.path);
        const body = source.minify
          ? Buffer.from((await transform(text.toString('utf8'), { minify: true, loader: 'js' })).code)
          : text;
        return [source.name, body];
      }),
    )),
    ['start.js', Buffer.from(startScript)],
  ];
  for (const [name, body] of entries) {
    const [base, extension] = name.split(/\.(?=[^.]+$)/);
    const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
    const path = `${base}-${hash}.${extension}`;
    assets.set(path, { ...(await encode(body)), contentType: contentTypeOf(path) });
  }
  return assets;
}

/**
 * Writes a build into its key's folder under `builtAssetsFolder`: each asset as is, `.gz` and `.br`, then the manifest.
 * Written beside and renamed into place, so that a server starting meanwhile finds a whole build or none.
 */
async function writeBuild(key: string, assets: Map<string, Served>): Promise<void> {
  await mkdir(builtAssetsFolder, { recursive: true });
  const partial = await mkdtemp(join(builtAssetsFolder, `.${key}-`));
  for (const [path, served] of assets) {
    await writeFile(join(partial, path), served.identity);
    await writeFile(join(partial, `${path}.gz`), served.gzip);
    await writeFile(join(partial, `${path}.br`), served.br);
  }
  const manifest: BuildManifest = { assets: [...assets.keys()] };
  await writeFile(join(partial, manifestName), JSON.stringify(manifest));
  try {
    await rename(partial, join(builtAssetsFolder, key));
  } catch {
    // Another process wrote the same build first.
    await rm(partial, { recursive: true, force: true });
  }
}

/** A build's assets, each read from its folder when first asked for; null when the folder holds no whole build. */
async function readBuild(key: string): Promise<Map<string, () => Promise<Served>> | null> {
  const folder = join(builtAssetsFolder, key);
  const manifest = await readFile(join(folder, manifestName), 'utf8').catch(() => null);
  if (!manifest) return null;
  const assets = new Map<string, () => Promise<Served>>();
  for (const path of (JSON.parse(manifest) as BuildManifest).assets) {
    assets.set(
      path,
      once(async () => {
        const [identity, gzipped, brotli] = await Promise.all(
          ['', '.gz', '.br'].map((suffix) => readFile(join(folder, `${path}${suffix}`))),
        );
        return { identity, gzip: gzipped, br: brotli, etag: entityTagOf(identity), contentType: contentTypeOf(path) };
      }),
    );
  }
  return assets;
}

/**
 * Builds GraphiQL's assets into `builtAssetsFolder` unless this build is there already, and removes other builds:
 * `npm run build` (scripts/build.mjs) calls it, so that a server's first visitor never waits for minifying and brotli.
 */
export async function buildGraphiQLAssets(): Promise<{ folder: string; built: boolean }> {
  const { key, located } = await locateSources();
  const built = !(await readBuild(key));
  if (built) await writeBuild(key, await buildAssets(located));
  for (const entry of await readdir(builtAssetsFolder)) {
    if (entry !== key) await rm(join(builtAssetsFolder, entry), { recursive: true, force: true });
  }
  return { folder: join(builtAssetsFolder, key), built };
}

interface Prepared {
  page: Served;
  /** By path under `assetsPath`, each named with a hash of its content, so that a new build is a new URL. */
  assets: Map<string, () => Promise<Served>>;
}

/**
 * The page and its assets: from the build `npm run build` wrote, or, run from source without one (tests, `tsx`),
 * built now and written for the next start.
 */
async function prepare(title: string): Promise<Prepared> {
  const { key, located } = await locateSources();
  let assets = await readBuild(key);
  if (!assets) {
    const built = await buildAssets(located);
    await writeBuild(key, built).catch(() => {});
    assets = new Map([...built].map(([path, served]) => [path, async () => served]));
  }
  const links = [...assets.keys()];
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

function respond(request: Request, served: Served, cacheControl: string): Response {
  // Brotli and gzip were made ahead at their slowest levels, so any size is sent in the coding the browser prefers.
  const { coding } = negotiateEncoding(request.headers.get('accept-encoding'));
  const headers = new Headers({
    'content-type': served.contentType,
    'cache-control': cacheControl,
    etag: encodedEntityTag(served.etag, coding),
    vary: 'accept-encoding',
    'x-content-type-options': 'nosniff',
  });
  const held = matchingTag(request.headers.get('if-none-match'), served.etag);
  if (held) {
    headers.set('etag', held);
    return new Response(null, { status: 304, headers });
  }
  const body = served[coding];
  if (coding !== 'identity') headers.set('content-encoding', coding);
  headers.set('content-length', String(body.length));
  return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { headers });
}

/** Versioned assets never change under their URL. */
export const immutable = 'public, max-age=31536000, immutable';
/** The page names the assets' current versions, so a browser revalidates it (a 304 when unchanged). */
export const revalidate = 'no-cache';

/**
 * GraphiQL on GET `graphqlEndpoint` for browsers (Accept: text/html): a small page plus its assets, minified and
 * compressed ahead (brotli and gzip, by `npm run build`, or when the app starts without that build) and answered in the
 * encoding the browser accepts, with the explorer plugin. Replaces yoga's own GraphiQL, which inlines 9 MB of HTML
 * into every answer.
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
    // Prepared as the app starts, so that the first visit does not wait for it; a failure is tried again on a visit.
    onYogaInit() {
      ready().catch(() => {});
    },
    async onRequest({ request, url, endResponse }) {
      if (url.pathname === options.graphqlEndpoint && shouldRenderGraphiQL(request)) {
        const { page, assets } = await ready();
        // The browser asks for the assets next: they are read meanwhile (errors reach their own requests).
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
      if (answers.has(response)) varyOnEncoding(response.headers);
    },
  };
}
