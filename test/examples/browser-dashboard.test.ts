/**
 * Runs the browser example (examples/browser-dashboard, built with Vite as its README says) in headless Chromium
 * against a real server on another origin: sign in through Lectern (code + PKCE, as the PUBLIC app a district
 * administrator registered), a reload signing in again silently, the viewer's sections and groups, a group created and
 * deleted through the mutation payloads, a refused input shown from userErrors, and the live event of the create.
 */
import { readFile } from 'node:fs/promises';
import { type Server, createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import type { Browser, Response as PlaywrightResponse } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerApp } from '../auth/oauth1-support';
import { givePassword } from '../signin/pages';
import { graphqlClientFor } from '../support/client';
import { type World, createGroup, createSection, createWorld } from '../support/factories';
import { browserSkipped, launchBrowser } from '../support/browser';
import { listenOnLoopback, useTestServer } from '../support/harness';

const example = join(import.meta.dirname, '../../examples/browser-dashboard');

const server = useTestServer();
let world: World;
let clientId: string;
const password = 'correct horse battery staple';
let sectionTitle: string;
let apiOrigin: string;
let appOrigin: string;
let closeApi: () => Promise<void>;
let app: Server;
let browser: Browser;

/** Serves the built example on its own origin, as a school would host a front end apart from the API. */
async function serveBuild(directory: string) {
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
  const served = createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://app').pathname;
    try {
      const body = await readFile(join(directory, path === '/' ? 'index.html' : path));
      response.writeHead(200, { 'content-type': types[extname(path) || '.html'] ?? 'application/octet-stream' });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => served.listen(0, '127.0.0.1', resolve));
  return served;
}

beforeAll(async () => {
  world = await createWorld();
  const section = await createSection(world.school.id, [{ userId: world.teacher.id, admin: true }]);
  sectionTitle = section.title;
  await createGroup(world.school.id, { title: 'Chess', admins: [world.teacher.id] });
  await givePassword(world.teacher.id, password);
  const listening = await listenOnLoopback(server);
  apiOrigin = `http://127.0.0.1:${listening.port}`;
  closeApi = listening.close;
  const outDir = join(tmpdir(), `lectern-dashboard-${process.pid}`);
  await build({ configFile: join(example, 'vite.config.ts'), logLevel: 'warn', build: { outDir } });
  app = await serveBuild(outDir);
  appOrigin = `http://127.0.0.1:${(app.address() as { port: number }).port}`;
  // As the example's README says: a PUBLIC app whose redirect URI is the page.
  const admin = await graphqlClientFor(server, world.districtAdmin);
  ({ consumerKey: clientId } = await registerApp(admin, {
    name: 'Dashboard',
    redirectUris: [`${appOrigin}/`],
    clientType: 'PUBLIC',
  }));
  if (!browserSkipped) browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  app?.close();
  await closeApi?.();
});

describe.skipIf(browserSkipped)('the browser dashboard example', () => {
  it('signs in, lists sections and groups, creates and deletes a group, and shows refusals and events', {
    timeout: 120_000,
  }, async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    const tokenAnswer = new Promise<PlaywrightResponse>((resolve) =>
      page.on('response', (response) => {
        if (response.url() === `${apiOrigin}/oauth2/token`) resolve(response);
      }),
    );
    await page.goto(`${appOrigin}/?server=${encodeURIComponent(apiOrigin)}&client_id=${clientId}`);

    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.origin === apiOrigin && url.pathname === '/sign-in');
    await page.getByLabel('Email or username').fill(world.teacher.username);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect
      .poll(() => page.locator('#viewer-name').textContent())
      .toBe(`${world.teacher.nameFirst} ${world.teacher.nameLast}`);
    // The code and state are gone from the address bar; the token is in no storage.
    expect(page.url()).toBe(`${appOrigin}/?server=${encodeURIComponent(apiOrigin)}`);
    const { access_token: token } = await (await tokenAnswer).json();
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
    expect(stored).not.toContain(token);
    const cookies = await page.context().cookies();
    expect(cookies.map((cookie) => cookie.value).join(' ')).not.toContain(token);

    // A reload drops the token from memory and signs in again with no page to answer: Lectern's session is live.
    await page.reload();
    await expect
      .poll(() => page.locator('#viewer-name').textContent())
      .toBe(`${world.teacher.nameFirst} ${world.teacher.nameLast}`);
    await expect
      .poll(() => page.locator('#sections li').allTextContents())
      .toEqual([expect.stringContaining(sectionTitle)]);
    await expect.poll(() => page.locator('#groups li').allTextContents()).toEqual(['ChessDelete']);

    await page.getByLabel('New group').fill('Robotics');
    await page.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => page.locator('#groups li').allTextContents()).toEqual(['ChessDelete', 'RoboticsDelete']);
    await expect.poll(() => page.locator('#events li').allTextContents()).toContain('group.create: Robotics');

    // Only spaces pass the browser's `required`, and the server refuses them: the payload's userErrors are shown.
    await page.getByLabel('New group').fill('   ');
    await page.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => page.locator('#problem').textContent()).toBe('title: is required');

    await page.getByRole('button', { name: 'Delete Robotics' }).click();
    await expect.poll(() => page.locator('#groups li').allTextContents()).toEqual(['ChessDelete']);
    expect(problems).toEqual([]);
  });
});
