import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlClientFor } from '../support/client';
import { browserSkipped, launchBrowser } from '../support/browser';
import { type World, createUser, createWorld } from '../support/factories';
import { listenOnLoopback, useTestServer } from '../support/harness';
import { accessToken, registerApp, requestToken, usersMe } from '../auth/oauth1-support';
import { testOrigin } from '../support/wire';
import { givePassword } from './pages';

const server = useTestServer();
let world: World;
let origin: string;
let close: () => Promise<void>;
let browser: Browser;

beforeAll(async () => {
  world = await createWorld();
  const listening = await listenOnLoopback(server);
  origin = `http://127.0.0.1:${listening.port}`;
  close = listening.close;
  if (!browserSkipped) browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await close?.();
});

/** Presses Tab and answers the id of the element that has the focus then, and whether its focus ring shows. */
async function tab(page: Page) {
  await page.keyboard.press('Tab');
  return page.evaluate(() => {
    const active = document.activeElement as HTMLElement;
    const style = getComputedStyle(active);
    return {
      id: active.id || active.textContent?.trim() || active.tagName,
      ring: style.outlineStyle !== 'none' && style.outlineWidth !== '0px',
    };
  });
}

describe.skipIf(browserSkipped)('signing in with the keyboard in headless Chromium', () => {
  it('sets a password from a link, sees a wrong password announced, and signs in', { timeout: 300_000 }, async () => {
    const student = await createUser(world.school.id, 'STUDENT');
    const admin = await graphqlClientFor(server, world.schoolAdmin);
    const made = await admin(
      'mutation($input: CreateSignInLinkInput!) { createSignInLink(input: $input) { signInLink { url } } }',
      { input: { userId: String(student.id) } },
    );
    const linkPath = new URL(made.data.createSignInLink.signInLink.url).pathname;
    const password = 'seven quiet harbours glow';

    const page = await browser.newPage();
    const problems: string[] = [];
    // The wrong password's 400 is logged too; what must not appear is a style or anything else the CSP refused.
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy|Refused/i.test(message.text()))
        problems.push(message.text());
    });
    page.on('request', (request) => {
      if (!request.url().startsWith(origin)) problems.push(`${request.url()} is not from this server`);
    });

    await page.goto(`${origin}${linkPath}`);
    expect(await page.title()).toBe('Choose your password · Lectern');
    expect(await tab(page)).toEqual({ id: 'password', ring: true });
    await page.keyboard.type(password);
    expect(await tab(page)).toEqual({ id: 'confirmation', ring: true });
    await page.keyboard.type(password);
    expect(await tab(page)).toEqual({ id: 'Set password and sign in', ring: true });
    await Promise.all([page.waitForURL(`${origin}/sign-in`), page.keyboard.press('Enter')]);
    expect(await page.locator('h1').textContent()).toBe('Signed in');
    expect(await page.locator('main').textContent()).toContain(student.username);

    expect(await tab(page)).toEqual({ id: 'Sign out', ring: true });
    // The answer comes back to the URL the page is at already, so its heading, not its URL, says it has arrived.
    await page.keyboard.press('Enter');
    await page.locator('h1', { hasText: /^Sign in$/ }).waitFor();

    await page.goto(`${origin}/sign-in?return_to=/sign-in`);
    expect(await tab(page)).toEqual({ id: 'identifier', ring: true });
    await page.keyboard.type(student.username);
    expect(await tab(page)).toEqual({ id: 'password', ring: true });
    await page.keyboard.type('not my password');
    expect(await tab(page)).toEqual({ id: 'Sign in', ring: true });
    await Promise.all([page.waitForLoadState('load'), page.keyboard.press('Enter')]);
    await page.waitForSelector('[role="alert"]:not(:empty)');
    // What a screen reader announces: the alert, and the field's description pointing at it.
    const alert = page.getByRole('alert');
    expect(await alert.textContent()).toBe(
      'That email or username and password do not match an account that can sign in.',
    );
    expect(await page.locator('#password').getAttribute('aria-describedby')).toBe('form-error');
    expect(await page.getByLabel('Email or username').inputValue()).toBe(student.username);

    expect(await tab(page)).toEqual({ id: 'identifier', ring: true });
    expect(await tab(page)).toEqual({ id: 'password', ring: true });
    await page.keyboard.type(password);
    await page.keyboard.press('Enter');
    await page.locator('h1', { hasText: /^Signed in$/ }).waitFor();
    const cookies = await page.context().cookies();
    expect(cookies.find((cookie) => cookie.name === 'lectern_session')).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
    });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("walks a legacy app's user through sign-in and consent back to the app (three-legged OAuth 1.0a)", {
    timeout: 300_000,
  }, async () => {
    // The app's own site, which the browser reaches last: a listener on this machine.
    const site = createServer((_request, response) => response.end('back at Planner'));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const callback = `http://127.0.0.1:${(site.address() as AddressInfo).port}/schoology/callback`;
    const app = await registerApp(await graphqlClientFor(server, world.districtAdmin), {
      name: 'Planner',
      redirectUris: [callback],
    });
    const teacher = await createUser(world.school.id, 'TEACHER');
    const password = 'seven quiet harbours glow';
    await givePassword(teacher.id, password);
    const pending = await requestToken(server, app);

    const page = await browser.newPage();
    const authorize = `/oauth/authorize?${new URLSearchParams({ oauth_token: pending.key, oauth_callback: callback })}`;
    await page.goto(`${origin}${authorize}`);
    expect(await page.locator('h1').textContent()).toBe('Sign in');
    await page.getByLabel('Email or username').fill(teacher.username);
    await page.getByLabel('Password').fill(password);
    await Promise.all([
      page.waitForURL(`${origin}${authorize}`),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    expect(await page.locator('h1').textContent()).toBe('Planner wants to act for you');
    // The keyboard reaches Approve first, then Deny.
    expect(await tab(page)).toEqual({ id: 'Approve', ring: true });
    expect(await tab(page)).toEqual({ id: 'Deny', ring: true });
    await Promise.all([
      page.waitForURL(`${callback}?oauth_token=${pending.key}`),
      page.getByRole('button', { name: 'Approve' }).click(),
    ]);
    expect(await page.textContent('body')).toBe('back at Planner');

    const me = await usersMe(server, app, await accessToken(server, app, pending));
    expect(me.location).toBe(`${testOrigin}/v1/users/${teacher.id}`);
    await page.close();
    await new Promise((resolve) => site.close(resolve));
  });
});
