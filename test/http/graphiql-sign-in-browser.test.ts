/**
 * GraphiQL's "Sign in" button in headless Chromium: code + PKCE through Lectern's sign-in page and back, queries and a
 * graphql-ws subscription with the token it got, the token in no browser storage, and "Sign out" revoking it.
 */
import type { Browser, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/auth/secrets';
import { subscriptionActivity } from '../../src/modules/subscriptions/event.quota';
import { type RestClient, graphqlClientFor, restClientFor } from '../support/client';
import { type World, createGroup, createWorld } from '../support/factories';
import { browserSkipped, launchBrowser } from '../support/browser';
import { listenOnLoopback, useTestServer } from '../support/harness';
import { givePassword } from '../signin/pages';

const server = useTestServer();
const password = 'correct horse battery staple';
let world: World;
let studentName: string;
let groupId: number;
let groupAdmin: RestClient;
let origin: string;
let close: () => Promise<void>;
let browser: Browser;

beforeAll(async () => {
  world = await createWorld();
  await givePassword(world.student.id, password);
  groupId = (await createGroup(world.school.id, { admins: [world.teacher.id], members: [world.student.id] })).id;
  groupAdmin = await restClientFor(server, world.teacher);
  const asStudent = await graphqlClientFor(server, world.student);
  studentName = (await asStudent('{ viewer { nameDisplay } }')).data.viewer.nameDisplay;
  const listening = await listenOnLoopback(server);
  origin = `http://127.0.0.1:${listening.port}`;
  close = listening.close;
  if (browserSkipped) return;
  browser = await launchBrowser();
  await server.fetch('/graphql', { headers: { accept: 'text/html' } });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await close?.();
});

/** `{ viewer { databaseId } }` with the token over HTTP: the status answered. */
const statusWith = async (token: string) =>
  (
    await fetch(`${origin}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ viewer { databaseId } }' }),
    })
  ).status;

describe.skipIf(browserSkipped)('GraphiQL sign-in in headless Chromium', () => {
  it('signs in through Lectern, queries and subscribes with the token, keeps it out of storage, and signs out', {
    timeout: 300_000,
  }, async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    const tokenAnswer = new Promise<Response>((resolve) =>
      page.on('response', (response) => {
        if (new URL(response.url()).pathname === '/oauth2/token') resolve(response);
      }),
    );
    const link = `${origin}/graphql?query=${encodeURIComponent('{ viewer { nameDisplay } }')}`;
    await page.goto(link);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.waitForURL((url) => url.pathname === '/sign-in');
    await page.getByLabel('Email or username').fill(world.student.username);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();

    // Straight back (no consent page for GraphiQL), signed in, with the link's query and no code or state.
    await page.locator('.lectern-account', { hasText: `Signed in as ${studentName}` }).waitFor();
    expect(page.url()).toBe(link);
    expect(await page.textContent('.graphiql-query-editor')).toContain('nameDisplay');
    const tokens = await (await tokenAnswer).json();
    const token: string = tokens.access_token;
    expect(tokens.refresh_token).toBeUndefined();

    await page.click('.graphiql-execute-button');
    await page.waitForFunction(() => document.querySelector('.result-window')?.textContent?.includes('nameDisplay'));
    expect(await page.textContent('.result-window')).toContain(`"nameDisplay": "${studentName}"`);

    // The token is in memory only: not in localStorage, sessionStorage or a cookie; nothing waits in sessionStorage.
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
    expect(stored).not.toContain(token);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    const cookies = await page.context().cookies();
    expect(cookies.map((cookie) => cookie.value).join(' ')).not.toContain(token);

    const listening = new Promise<void>((resolve) => {
      const onListening = (key: string) => {
        if (key !== `oauth2:${hashToken(token)}`) return;
        subscriptionActivity.off('listening', onListening);
        resolve();
      };
      subscriptionActivity.on('listening', onListening);
    });
    // Entered as a paste is: the editor's own change, which GraphiQL parses before it runs the document.
    await page.click('.graphiql-query-editor .CodeMirror');
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(`subscription { realmEvents(realm: { type: GROUP, id: "${groupId}" }) { type } }`);
    // GraphiQL takes the edit in after a debounce, and saves the tab with it: run before, it would send the query it
    // had parsed earlier over HTTP.
    await page.waitForFunction(() => localStorage.getItem('graphiql:tabState')?.includes('subscription {'));
    await page.click('.graphiql-execute-button');
    await listening;
    await groupAdmin.put(`/groups/${groupId}`, { title: 'Renamed while signed in' });
    await page.waitForFunction(() => document.querySelector('.result-window')?.textContent?.includes('GROUP_UPDATE'));

    expect(await statusWith(token)).toBe(200);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await expect.poll(() => statusWith(token)).toBe(401);
    expect(problems).toEqual([]);
    await page.close();
  });
});
