import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildGraphiQLAssets } from '../../src/http/graphiql';
import { useTestServer } from '../support/harness';

const server = useTestServer();

const page = (headers: Record<string, string> = {}) =>
  server.fetch('/graphql', { headers: { accept: 'text/html', ...headers } });

const decode = (body: Buffer, encoding: string | null) =>
  encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body;

/** Bytes of an answer as sent, and its content once decoded. */
async function read(response: Response) {
  const sent = Buffer.from(await response.arrayBuffer());
  return { sent, content: decode(sent, response.headers.get('content-encoding')) };
}

/** The assets a page links: stylesheets and scripts, relative to the page's URL. */
const assetsOf = (html: string) =>
  [...html.matchAll(/(?:href|src)="([^"]+)"/g)].map(
    (match) => new URL(match[1], 'http://lectern.test/graphql').pathname,
  );

describe('the GraphiQL page', () => {
  it('is a small page, compressed as the browser accepts, revalidated on each visit', async () => {
    const plain = await page();
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(plain.headers.get('cache-control')).toBe('no-cache');
    expect(plain.headers.get('content-encoding')).toBeNull();
    const html = (await read(plain)).content.toString('utf8');
    expect(html).toContain('<div id="graphiql">');

    const weights: Record<string, number> = { raw: Buffer.byteLength(html) };
    for (const encoding of ['gzip', 'br']) {
      const response = await page({ 'accept-encoding': `${encoding}, identity;q=0.5` });
      expect(response.headers.get('content-encoding')).toBe(encoding);
      expect(response.headers.get('vary')).toContain('accept-encoding');
      const { sent, content } = await read(response);
      expect(content.toString('utf8')).toBe(html);
      weights[encoding] = sent.length;
    }
    // Chromium asks for both: brotli is preferred.
    expect((await page({ 'accept-encoding': 'gzip, deflate, br, zstd' })).headers.get('content-encoding')).toBe('br');
    expect((await page({ 'accept-encoding': 'br;q=0, gzip' })).headers.get('content-encoding')).toBe('gzip');
    console.info(`GraphiQL page: ${JSON.stringify(weights)} bytes`);

    const etag = plain.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const revalidated = await page({ 'if-none-match': etag });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe('');
  });

  // The first test file of a checkout without `npm run build` minifies and compresses the assets as its app starts.
  it('links versioned assets, each served compressed and cached for a year', { timeout: 300_000 }, async () => {
    const html = await (await page()).text();
    const assets = assetsOf(html);
    // React, React DOM, GraphiQL (script and style), the explorer plugin (script and style) and the start script.
    expect(assets).toHaveLength(7);
    const totals = { raw: 0, gzip: 0, br: 0 };
    for (const path of assets) {
      expect(path).toMatch(/^\/graphiql\/assets\/[\w-]+-[0-9a-f]{12}\.(js|css)$/);
      const plain = await server.fetch(path);
      expect(plain.status).toBe(200);
      expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(plain.headers.get('content-type')).toBe(
        path.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8',
      );
      const raw = (await read(plain)).content;
      totals.raw += raw.length;
      for (const encoding of ['gzip', 'br'] as const) {
        const response = await server.fetch(path, { headers: { 'accept-encoding': encoding } });
        expect(response.headers.get('content-encoding')).toBe(encoding);
        expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        const { sent, content } = await read(response);
        expect(content.equals(raw)).toBe(true);
        expect(sent.length).toBeLessThan(raw.length);
        totals[encoding] += sent.length;
      }
    }
    // CORS answers set Vary: Origin, which must not drop the encoding.
    const fromOrigin = await server.fetch(assets[0], {
      headers: { 'accept-encoding': 'br', origin: 'https://elsewhere.example' },
    });
    expect(fromOrigin.headers.get('vary')?.toLowerCase().split(/,\s*/)).toEqual(
      expect.arrayContaining(['origin', 'accept-encoding']),
    );
    expect(html).toContain('explorer');
    console.info(`GraphiQL assets: ${JSON.stringify(totals)} bytes`);
    expect((await server.fetch('/graphiql/assets/graphiql-000000000000.js')).status).toBe(404);
  });

  it('serves the assets `npm run build` writes under dist/graphiql, minified and compressed ahead', async () => {
    // The app started by this file found the build, or made it and wrote it there: building again finds it.
    const { folder, built } = await buildGraphiQLAssets();
    expect(built).toBe(false);
    const { assets } = JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8')) as { assets: string[] };
    const linked = assetsOf(await (await page()).text()).map((path) => path.slice('/graphiql/assets/'.length));
    expect(linked.sort()).toEqual([...assets].sort());
    for (const path of assets) {
      const response = await server.fetch(`/graphiql/assets/${path}`, { headers: { 'accept-encoding': 'br' } });
      expect(Buffer.from(await response.arrayBuffer()).equals(readFileSync(join(folder, `${path}.br`)))).toBe(true);
    }
    // Minified: GraphiQL's bundle as published is webpack's readable build, more than twice as large.
    const graphiql = assets.find((path) => path.startsWith('graphiql-') && path.endsWith('.js'))!;
    expect(readFileSync(join(folder, graphiql)).length).toBeLessThan(
      readFileSync(new URL('../../node_modules/graphiql/graphiql.min.js', import.meta.url)).length / 2,
    );
  });

  it('is not what a GraphQL client gets from GET /graphql', async () => {
    const response = await server.fetch('/graphql?query=%7B__typename%7D', { headers: { accept: 'application/json' } });
    expect(await response.json()).toEqual({ data: { __typename: 'Query' } });
  });
});
