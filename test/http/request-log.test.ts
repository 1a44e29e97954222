/**
 * The request log (one line per request) never holds a credential that travels in a URL (issue 37): calendar apps send
 * a feed's token and browsers a web package's launch grant in the path, and nothing else.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../src/app';
import { launchGrant, launchPath } from '../../src/modules/web-packages/web-package.launch';
import { clientsFor } from '../support/client';
import { type World, createSection, createWebPackage, createWorld } from '../support/factories';
import { testOrigin, useTestServer } from '../support/harness';

const server = useTestServer();
const clients = clientsFor(server);
let world: World;
let app: App;
const lines: Record<string, unknown>[] = [];

beforeAll(async () => {
  world = await createWorld();
  const sink = new Writable({
    write: (chunk, _encoding, done) => {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  app = createApp({
    config: server.config,
    database: server.database,
    serverKey: server.serverKey,
    logger: pino({ level: 'info' }, sink),
  });
});

/** A GET of `path` with a request id of its own, and the request log's lines for it. */
async function logged(path: string, requestId: string) {
  const response = await app.fetch(new Request(new URL(path, testOrigin), { headers: { 'x-request-id': requestId } }));
  await response.arrayBuffer();
  return { status: response.status, lines: lines.filter((line) => line.requestId === requestId) };
}

describe('the request log', () => {
  it("writes a calendar feed's path without its token, valid or not", async () => {
    const created = await (await clients.graphql(world.teacher))('mutation { createCalendarFeed { url } }');
    const path = new URL(created.data.createCalendarFeed.url).pathname;
    const token = /^\/calendar\/(.+)\.ics$/.exec(path)![1]!;

    const feed = await logged(path, 'feed');
    expect(feed.status).toBe(200);
    expect(feed.lines).toEqual([
      expect.objectContaining({ msg: 'request', method: 'GET', path: '/calendar/[token].ics', status: 200 }),
    ]);
    const unknown = await logged(`/calendar/${token.slice(1)}x.ics`, 'feed-unknown');
    expect(unknown.status).toBe(404);
    expect(unknown.lines).toEqual([expect.objectContaining({ path: '/calendar/[token].ics', status: 404 })]);
    expect(JSON.stringify(lines)).not.toContain(token.slice(1));
  });

  it("writes a web package's site paths without the launch grant", async () => {
    const section = await createSection(world.school.id, [{ userId: world.teacher.id, admin: true }]);
    const webPackage = await createWebPackage(section.id, world.teacher.id);
    const grant = launchGrant(server.serverKey, webPackage.id, world.teacher.id);
    const signature = grant.split('-').at(-1)!;

    const site = await logged(launchPath(webPackage.id, grant, 'index.html'), 'site');
    expect(site.status).toBe(200);
    expect(site.lines).toEqual([
      expect.objectContaining({ path: `/web-packages/${webPackage.id}/[grant]/index.html`, status: 200 }),
    ]);
    const forgedGrant = `${grant.slice(0, -1)}${grant.endsWith('A') ? 'B' : 'A'}`;
    const forged = await logged(launchPath(webPackage.id, forgedGrant, 'index.html'), 'site-forged');
    expect(forged.status).toBe(403);
    expect(forged.lines).toEqual([
      expect.objectContaining({ path: `/web-packages/${webPackage.id}/[grant]/index.html`, status: 403 }),
    ]);
    expect(JSON.stringify(lines)).not.toContain(signature.slice(0, -1));
  });

  it('writes other paths as they are', async () => {
    expect((await logged('/v1/groups', 'plain')).lines).toEqual([
      expect.objectContaining({ path: '/v1/groups', status: 401 }),
    ]);
  });
});
