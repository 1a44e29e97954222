import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as client from 'openid-client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipped, launchBrowser } from '../support/browser';
import { clientsFor } from '../support/client';
import { type World, createWorld } from '../support/factories';
import { listenOnLoopback, useTestServer } from '../support/harness';
import { givePassword } from '../signin/pages';
import { registerApp } from '../auth/oauth1-support';
import { relyingParty, startAuthorization } from './oauth2-support';

const server = useTestServer();
const password = 'seven quiet harbours glow';
let world: World;
let origin: string;
let close: () => Promise<void>;
let browser: Browser;
// The app's own page, which the browser lands on: a server of the test's (a redirect is not intercepted by routes).
let appServer: Server;
let redirectUri: string;

beforeAll(async () => {
  appServer = createServer((_request, response) => response.end('the app'));
  await new Promise<void>((resolve) => appServer.listen(0, '127.0.0.1', resolve));
  redirectUri = `http://127.0.0.1:${(appServer.address() as AddressInfo).port}/callback`;
  world = await createWorld();
  await givePassword(world.student.id, password);
  const listening = await listenOnLoopback(server);
  origin = `http://127.0.0.1:${listening.port}`;
  close = listening.close;
  if (!browserSkipped) browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await close?.();
  appServer?.close();
});

describe.skipIf(browserSkipped)('a public client in headless Chromium', () => {
  it('signs in, approves by keyboard, and lands on the redirect URI with code and state', {
    timeout: 300_000,
  }, async () => {
    const admin = await clientsFor(server).graphql(world.districtAdmin);
    const app = await registerApp(admin, { name: 'Planner', redirectUris: [redirectUri], clientType: 'PUBLIC' });
    const config = await relyingParty(origin, app, 'PUBLIC');
    const pending = await startAuthorization(config, { redirect_uri: redirectUri });

    const page = await browser.newPage();
    await page.goto(pending.url.href);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await page.focus('#identifier');
    await page.keyboard.type(world.student.username);
    await page.keyboard.press('Tab');
    await page.keyboard.type(password);
    await Promise.all([page.waitForURL(/\/oauth2\/interaction\//), page.keyboard.press('Enter')]);
    expect(await page.locator('h1').textContent()).toBe('Planner wants to act for you');

    // Tab to Approve (the first button) and press it.
    let focused = '';
    for (let presses = 0; presses < 10 && focused !== 'Approve'; presses += 1) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    }
    expect(focused).toBe('Approve');
    await Promise.all([page.waitForURL(`${redirectUri}?**`), page.keyboard.press('Enter')]);
    const landed = new URL(page.url());
    expect(landed.searchParams.get('state')).toBe(pending.state);
    expect(landed.searchParams.get('code')).toBeTruthy();
    const tokens = await client.authorizationCodeGrant(config, landed, {
      pkceCodeVerifier: pending.verifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
    });
    expect(tokens.access_token).toBeTruthy();
    await page.close();
  });
});
