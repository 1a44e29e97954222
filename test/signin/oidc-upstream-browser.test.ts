import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { browserSkipped, launchBrowser } from '../support/browser';
import { createSchool, createUser, unique } from '../support/factories';
import { listenOnLoopback, useTestServer } from '../support/harness';
import { startStandInIdp } from './stand-in-idp';

// Fixed: the provider's district is configuration, read before any row exists (a database per test file).
const districtId = 7_400_101;

const idp = await startStandInIdp();
const server = useTestServer({
  OIDC_PROVIDERS: JSON.stringify([
    {
      id: 'school',
      name: 'Springfield Workspace',
      issuer: idp.issuer,
      clientId: idp.clientId,
      clientSecret: idp.clientSecret,
      districtId,
    },
  ]),
});
let origin: string;
let close: () => Promise<void>;
let browser: Browser;

beforeAll(async () => {
  await db().district.create({ data: { id: districtId, title: unique('District') } });
  const listening = await listenOnLoopback(server);
  origin = `http://127.0.0.1:${listening.port}`;
  close = listening.close;
  idp.register([`${origin}/sign-in/oidc/school/callback`]);
  if (!browserSkipped) browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await close?.();
  await idp.close();
});

describe.skipIf(browserSkipped)('signing in with the school’s identity provider in headless Chromium', () => {
  it('goes from the button to the provider and back, signed in, to return_to', { timeout: 300_000 }, async () => {
    const school = await createSchool(districtId);
    const teacher = await createUser(school.id, 'TEACHER');
    idp.accounts.set('mkrabappel', { email: teacher.email.toUpperCase(), email_verified: true });
    const returnTo = '/sign-in?return_to=/grades';

    const page = await browser.newPage();
    await page.goto(`${origin}/sign-in?return_to=${encodeURIComponent(returnTo)}`);
    await Promise.all([
      page.waitForURL((url) => url.origin === idp.issuer),
      page.getByRole('button', { name: 'Sign in with Springfield Workspace' }).click(),
    ]);
    // The stand-in provider's development pages: its sign-in, then its consent.
    await page.locator('input[name=login]').fill('mkrabappel');
    await page.locator('input[name=password]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await Promise.all([
      page.waitForURL(`${origin}${returnTo}`),
      page.getByRole('button', { name: 'Continue' }).click(),
    ]);

    expect(await page.locator('h1').textContent()).toBe('Signed in');
    expect(await page.locator('main strong').textContent()).toBe(
      `${teacher.nameFirst} ${teacher.nameLast} (${teacher.username})`,
    );
    expect(await page.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe('/grades');
    // Cookies are per host, not per port: the provider's are there too. The sealed one is used up.
    const names = (await page.context().cookies(origin)).map((cookie) => cookie.name);
    expect(names).toContain('lectern_session');
    expect(names).not.toContain('lectern_oidc');
    expect(await db().session.count({ where: { userId: teacher.id } })).toBe(1);
    await page.close();
  });
});
