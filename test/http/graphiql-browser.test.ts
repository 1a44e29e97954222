import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../src/modules/access/access.service';
import { subscriptionActivity } from '../../src/modules/subscriptions/event.quota';
import { type RestClient, restClientFor } from '../support/client';
import { type World, createGroup, createWorld } from '../support/factories';
import { browserSkipped, launchBrowser } from '../support/browser';
import { listenOnLoopback, useTestServer } from '../support/harness';

const server = useTestServer();
let world: World;
let groupId: number;
let groupAdmin: RestClient;
let token: string;
let tokenId: number;
let origin: string;
let close: () => Promise<void>;
let browser: Browser;

beforeAll(async () => {
  world = await createWorld();
  groupId = (await createGroup(world.school.id, { admins: [world.teacher.id], members: [world.student.id] })).id;
  groupAdmin = await restClientFor(server, world.teacher);
  ({ token, id: tokenId } = await issueAccessToken({ userId: world.student.id }));
  const listening = await listenOnLoopback(server);
  origin = `http://127.0.0.1:${listening.port}`;
  close = listening.close;
  if (browserSkipped) return;
  browser = await launchBrowser();
  // The page waits for the assets the app prepares as it starts (built once per checkout when run from source).
  await server.fetch('/graphql', { headers: { accept: 'text/html' } });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await close?.();
});

describe.skipIf(browserSkipped)('GraphiQL in headless Chromium', () => {
  it('loads offline from this server, with the explorer, and runs queries and subscriptions with the headers tab', {
    timeout: 300_000,
  }, async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('requestfailed', (request) => problems.push(`${request.url()} failed`));
    page.on('response', (response) => {
      if (!response.url().startsWith(origin)) problems.push(`${response.url()} is not from this server`);
      else if (response.status() >= 400) problems.push(`${response.url()} answered ${response.status()}`);
    });
    await page.goto(`${origin}/graphql`);
    await page.waitForSelector('.graphiql-container .graphiql-query-editor');
    await page.waitForSelector('[aria-label="Show GraphiQL Explorer"]');

    const listening = new Promise<void>((resolve) => {
      const onListening = (key: string) => {
        if (key !== `bearer:${tokenId}`) return;
        subscriptionActivity.off('listening', onListening);
        resolve();
      };
      subscriptionActivity.on('listening', onListening);
    });
    // The page's own fetcher, as GraphiQL calls it with the headers tab's content.
    const results = page.evaluate(
      async ({ token, groupId }) => {
        const { GraphiQL } = window as any;
        const url = location.origin + location.pathname;
        const fetcher = GraphiQL.createFetcher({ url, subscriptionUrl: url.replace(/^http/, 'ws') });
        // GraphiQL calls its fetcher with the parsed document (which tells subscriptions apart) and the headers tab.
        const run = async (query: string) => {
          const result = await fetcher(
            { query },
            { documentAST: GraphiQL.GraphQL.parse(query), headers: { Authorization: `Bearer ${token}` } },
          );
          if (!result?.[Symbol.asyncIterator]) return result;
          const iterator = result[Symbol.asyncIterator]();
          const { value } = await iterator.next();
          await iterator.return?.();
          return value;
        };
        const query = await run('{ viewer { id: databaseId } }');
        const event = await run(
          `subscription { realmEvents(realm: { type: GROUP, id: "${groupId}" }) { type realmId } }`,
        );
        return { query, event };
      },
      { token, groupId },
    );
    await listening;
    await groupAdmin.put(`/groups/${groupId}`, { title: 'Renamed from GraphiQL' });
    expect(await results).toEqual({
      query: { data: { viewer: { id: String(world.student.id) } } },
      event: { data: { realmEvents: { type: 'GROUP_UPDATE', realmId: String(groupId) } } },
    });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('opens a ?query= link in its editor and runs it with the credential typed in the headers tab, keeping the credential out of localStorage', {
    timeout: 300_000,
  }, async () => {
    const page = await browser.newPage();
    const subscription = `subscription Live { realmEvents(realm: { type: GROUP, id: "${groupId}" }) { type realmId } }`;
    await page.goto(`${origin}/graphql?query=${encodeURIComponent(subscription)}`);
    await page.waitForSelector('.graphiql-query-editor .CodeMirror');
    expect(await page.textContent('.graphiql-query-editor')).toContain('subscription Live');
    // Typed as a user types it (the editor closes brackets and quotes, and types over them).
    await page.click('.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror');
    await page.keyboard.type(`{"Authorization": "Bearer ${token}"}`);
    const listening = new Promise<void>((resolve) => {
      const onListening = (key: string) => {
        if (key !== `bearer:${tokenId}`) return;
        subscriptionActivity.off('listening', onListening);
        resolve();
      };
      subscriptionActivity.on('listening', onListening);
    });
    await page.click('.graphiql-execute-button');
    await listening;
    await groupAdmin.put(`/groups/${groupId}`, { title: 'Renamed in the result pane' });
    await page.waitForFunction(() => document.querySelector('.result-window')?.textContent?.includes('GROUP_UPDATE'));
    expect(await page.textContent('.result-window')).toContain(`"realmId": "${groupId}"`);
    // GraphiQL stores its tabs after a debounce: the query is there, the token nowhere.
    await page.waitForFunction(() => localStorage.getItem('graphiql:tabState')?.includes('subscription Live'));
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
    expect(stored).toContain('subscription Live');
    expect(stored).not.toContain(token);
    expect(stored).not.toContain('Authorization');
    await page.close();
  });

  it("opens a link's variables with its document, and runs the link's operation", { timeout: 300_000 }, async () => {
    const page = await browser.newPage();
    const linked = 'query First { __typename }\nquery Second { __schema { queryType { name } } }';
    const link = new URLSearchParams({ query: linked, variables: '{"answer": 42}', operationName: 'Second' });
    await page.goto(`${origin}/graphql?${link}`);
    await page.waitForSelector('.graphiql-query-editor .CodeMirror');
    expect(await page.textContent('.graphiql-query-editor')).toContain('query Second');
    await page.waitForFunction(() => localStorage.getItem('graphiql:tabState')?.includes('query Second'));
    const { tabs, activeTabIndex } = await page.evaluate(() => JSON.parse(localStorage.getItem('graphiql:tabState')!));
    expect(tabs[activeTabIndex]).toEqual(expect.objectContaining({ query: linked, variables: '{"answer": 42}' }));
    // Two operations and no choice made in the editor: the link's runs, without a menu to pick one.
    await page.click('.graphiql-execute-button');
    await page.waitForFunction(() => document.querySelector('.result-window')?.textContent?.includes('queryType'));
    expect(await page.textContent('.result-window')).toContain('"name": "Query"');
    await page.close();
  });
});
