/**
 * Signing in with a school's identity provider (docs/sign-in.md#signing-in-with-the-schools-identity-provider), over
 * real HTTP against a real OpenID provider on a loopback port (oidc-provider, test/signin/stand-in-idp.ts). The test
 * is the browser: it follows the redirects by hand, carrying each site's cookies, and signs in at the provider's
 * development pages.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { db } from '../../src/db/database';
import { createSchool, createUser, unique } from '../support/factories';
import { listenOnLoopback, useTestServer } from '../support/harness';
import { sessionCount } from './pages';
import { type StandInIdp, startStandInIdp } from './stand-in-idp';

// Fixed ids: the provider's district is part of the configuration, which is read before any row exists. Each test
// file has a database of its own.
const districtId = 7_400_001;
const otherDistrictId = 7_400_002;

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
    // Nothing listens there: its button must answer an error page, and nothing else may suffer.
    { id: 'down', name: 'Nowhere ID', issuer: 'http://127.0.0.1:9', clientId: 'x', clientSecret: 'y', districtId },
  ]),
  // Each case comes from an address of its own (X-Forwarded-For through one trusted proxy), so only the case about
  // the limit meets it.
  TRUST_PROXY: '1',
  AUTH_FAILURES_PER_ADDRESS: '3/1m',
});

const logLines: string[] = [];
let origin: string;
let close: () => Promise<void>;
let school: { id: number };
let otherSchool: { id: number };

beforeAll(async () => {
  await db().district.createMany({
    data: [
      { id: districtId, title: unique('District') },
      { id: otherDistrictId, title: unique('District') },
    ],
  });
  school = await createSchool(districtId);
  otherSchool = await createSchool(otherDistrictId);
  // The app under test logs into memory, so that the log can be searched for codes and cookies.
  const sink = new Writable({
    write: (chunk, _encoding, done) => {
      logLines.push(String(chunk));
      done();
    },
  });
  const app = createApp({
    config: server.config,
    database: server.database,
    serverKey: server.serverKey,
    logger: pino({ level: 'debug' }, sink),
  });
  const listening = await listenOnLoopback({ ...server, app });
  origin = `http://127.0.0.1:${listening.port}`;
  close = listening.close;
  idp.register([`${origin}/sign-in/oidc/school/callback`]);
});
afterAll(async () => {
  await close?.();
  await idp.close();
});

let addressSequence = 0;
/** A client address of its own for one case. */
const freshAddress = () => `203.0.113.${++addressSequence}`;

/** Cookies per origin, as a browser keeps them (paths are ignored: every cookie goes with every request). */
class Browser {
  readonly cookies = new Map<string, Map<string, string>>();
  /** Every value a Set-Cookie header carried, to look for in the log. */
  readonly seen: string[] = [];
  constructor(readonly address: string) {}

  async get(url: URL, init: { method?: string; body?: URLSearchParams } = {}): Promise<Response> {
    const jar = this.cookies.get(url.origin) ?? new Map<string, string>();
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, {
      method: init.method ?? 'GET',
      body: init.body,
      redirect: 'manual',
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(url.origin === origin ? { 'x-forwarded-for': this.address } : {}),
        ...(init.body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair, ...attributes] = header.split(';');
      const at = pair!.indexOf('=');
      const [name, value] = [pair!.slice(0, at).trim(), pair!.slice(at + 1).trim()];
      const removed = !value || attributes.some((attribute) => /^\s*max-age=0$/i.test(attribute));
      if (removed) jar.delete(name);
      else {
        jar.set(name, value);
        this.seen.push(value);
      }
    }
    this.cookies.set(url.origin, jar);
    return response;
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(origin)?.get(name);
  }
}

const locationOf = (response: Response, base: URL) => new URL(response.headers.get('location')!, base);

interface Journey {
  browser: Browser;
  /** Where Lectern sent the browser at the provider. */
  authorization: URL;
  /** Where the provider sends the browser back: Lectern's callback with the code. */
  callback: URL;
  /** The sealed cookie the start set. */
  pending: string;
}

/**
 * Starts signing in with the stand-in provider and signs in there as `login` (or cancels at its sign-in page), up to
 * the provider's redirect back to Lectern, which is not followed. `alter` may change the authorization URL first.
 */
async function throughProvider(
  login: string,
  options: { returnTo?: string; cancel?: boolean; alter?: (authorization: URL) => void; browser?: Browser } = {},
): Promise<Journey> {
  const browser = options.browser ?? new Browser(freshAddress());
  const start = new URL(`${origin}/sign-in/oidc/school`);
  if (options.returnTo) start.searchParams.set('return_to', options.returnTo);
  const started = await browser.get(start);
  expect(started.status).toBe(303);
  const authorization = locationOf(started, start);
  options.alter?.(authorization);
  let url = authorization;
  for (let step = 0; step < 12; step++) {
    const response = await browser.get(url);
    if (response.status === 303 || response.status === 302) {
      const next = locationOf(response, url);
      if (next.origin === origin)
        return { browser, authorization, callback: next, pending: browser.cookie('lectern_oidc')! };
      url = next;
      continue;
    }
    expect(response.status).toBe(200);
    const page = await response.text();
    const action = new URL(/<form[^>]* action="([^"]+)"/.exec(page)![1]!, url);
    const prompt = /name="prompt" value="(\w+)"/.exec(page)![1]!;
    if (prompt === 'login' && options.cancel) {
      url = new URL(`${action.pathname}/abort`, url);
      continue;
    }
    const fields: Record<string, string> = prompt === 'login' ? { prompt, login, password: 'anything' } : { prompt };
    const answered = await browser.get(action, { method: 'POST', body: new URLSearchParams(fields) });
    url = locationOf(answered, action);
  }
  throw new Error('the provider did not send the browser back');
}

/** Follows the provider's redirect back to Lectern. */
const finish = (journey: Journey) => journey.browser.get(journey.callback);

/** Who a browser is signed in as, according to /sign-in. */
async function signedInAs(browser: Browser): Promise<string | null> {
  const page = await (await browser.get(new URL(`${origin}/sign-in`))).text();
  return /You are signed in as <strong>([^<]*)<\/strong>/.exec(page)?.[1] ?? null;
}

const sessions = () => db().session.count();

/** A user of `schoolId` with `email`, and a provider account `login` with the given claims. */
async function person(schoolId: number, email: string) {
  const user = await createUser(schoolId, 'TEACHER');
  return db().user.update({ where: { id: user.id }, data: { email } });
}

const account = (claims: Parameters<StandInIdp['accounts']['set']>[1]) => {
  const login = unique('login');
  idp.accounts.set(login, claims);
  return login;
};

describe('signing in with the school’s identity provider', () => {
  it('offers each provider on the sign-in page, keeping return_to, as forms that need no script', async () => {
    const page = await (await fetch(`${origin}/sign-in?return_to=${encodeURIComponent('/groups?page=2')}`)).text();
    expect(page).toContain('<form method="get" action="/sign-in/oidc/school">');
    expect(page).toContain('<button type="submit" class="secondary">Sign in with Springfield Workspace</button>');
    expect(page).toContain('<button type="submit" class="secondary">Sign in with Nowhere ID</button>');
    expect(page.match(/<input type="hidden" name="return_to" value="\/groups\?page=2">/g)).toHaveLength(3);
  });

  it('signs in the one user of the district with the verified address, and comes back to return_to', async () => {
    const user = await person(school.id, `ada-${unique('x')}@springfield.example`);
    const login = account({ email: user.email.toUpperCase(), email_verified: true, name: 'Ada' });
    const journey = await throughProvider(login, { returnTo: '/groups?page=2' });

    // Authorization code with PKCE (S256), state and nonce, and the callback on this server.
    const asked = journey.authorization.searchParams;
    expect(asked.get('response_type')).toBe('code');
    expect(asked.get('scope')).toBe('openid email profile');
    expect(asked.get('code_challenge_method')).toBe('S256');
    expect(asked.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(asked.get('state')).toBeTruthy();
    expect(asked.get('nonce')).toBeTruthy();
    expect(asked.get('redirect_uri')).toBe(`${origin}/sign-in/oidc/school/callback`);
    expect(journey.callback.pathname).toBe('/sign-in/oidc/school/callback');
    // The verifier is nowhere but inside the sealed cookie.
    expect(journey.pending).toMatch(/^v1\./);

    const answer = await finish(journey);
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/groups?page=2');
    expect(answer.headers.getSetCookie()).toEqual([
      'lectern_oidc=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0',
      expect.stringMatching(/^lectern_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=604800$/),
    ]);
    expect(await sessionCount(user.id)).toBe(1);
    expect(await signedInAs(journey.browser)).toBe(`${user.nameFirst} ${user.nameLast} (${user.username})`);

    // Opened again, with the cookie a thief copied along with the URL: the provider will not take the code twice.
    const before = await sessions();
    const thief = new Browser(freshAddress());
    thief.cookies.set(origin, new Map([['lectern_oidc', journey.pending]]));
    const replayed = await thief.get(journey.callback);
    expect(replayed.status).toBe(400);
    expect(await replayed.text()).toContain('Sign-in did not complete');
    // And by the browser, whose cookie is used up.
    expect((await finish(journey)).status).toBe(400);
    expect(await sessions()).toBe(before);
  });

  it('keeps the sealed cookie short-lived, HttpOnly and SameSite=Lax', async () => {
    const browser = new Browser(freshAddress());
    const started = await browser.get(new URL(`${origin}/sign-in/oidc/school?return_to=https://evil.example/`));
    expect(started.headers.getSetCookie()).toEqual([
      expect.stringMatching(/^lectern_oidc=v1\.[\w.-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=600$/),
    ]);
    // An address elsewhere is not a place to come back to.
    const user = await person(school.id, `${unique('grace')}@springfield.example`);
    const journey = await throughProvider(account({ email: user.email, email_verified: true }), {
      returnTo: 'https://evil.example/',
    });
    expect(locationOf(await finish(journey), journey.callback).href).toBe(`${origin}/`);
  });

  describe.each([
    {
      refusal: 'an address the provider did not verify',
      arrange: async () => {
        const user = await person(school.id, `${unique('u')}@springfield.example`);
        return { user, claims: { email: user.email, email_verified: false } };
      },
    },
    {
      refusal: 'no email_verified at all (as Entra sends)',
      arrange: async () => {
        const user = await person(school.id, `${unique('u')}@springfield.example`);
        return { user, claims: { email: user.email } };
      },
    },
    {
      refusal: "a user of another district's school",
      arrange: async () => {
        const user = await person(otherSchool.id, `${unique('u')}@springfield.example`);
        return { user, claims: { email: user.email, email_verified: true } };
      },
    },
    {
      refusal: 'two users of the district with the address',
      arrange: async () => {
        const email = `${unique('family')}@springfield.example`;
        const user = await person(school.id, email);
        await person((await createSchool(districtId)).id, email.toUpperCase());
        return { user, claims: { email, email_verified: true } };
      },
    },
    {
      refusal: 'an inactive user',
      arrange: async () => {
        const user = await person(school.id, `${unique('u')}@springfield.example`);
        await db().user.update({ where: { id: user.id }, data: { deactivatedAt: new Date() } });
        return { user, claims: { email: user.email, email_verified: true } };
      },
    },
    {
      refusal: 'no user with the address',
      arrange: async () => {
        const user = await person(school.id, `${unique('u')}@springfield.example`);
        return { user, claims: { email: `someone-else-${user.email}`, email_verified: true } };
      },
    },
  ])('refuses $refusal', ({ arrange }) => {
    it('with one page that names nobody (403), writing no session', async () => {
      const { user, claims } = await arrange();
      const before = await sessions();
      const answer = await finish(await throughProvider(account(claims)));
      expect(answer.status).toBe(403);
      expect(await answer.text()).toContain('No account of this school matches the account you signed in with');
      expect(answer.headers.getSetCookie()).toEqual(['lectern_oidc=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0']);
      expect(await sessionCount(user.id)).toBe(0);
      expect(await sessions()).toBe(before);
    });
  });

  it('takes Entra’s xms_edov in place of a missing email_verified', async () => {
    const user = await person(school.id, `${unique('entra')}@springfield.example`);
    const answer = await finish(await throughProvider(account({ email: user.email, xms_edov: true })));
    expect(answer.status).toBe(303);
    expect(await sessionCount(user.id)).toBe(1);
  });

  describe('refuses a callback that does not finish this browser’s sign-in (400), writing no session', () => {
    let user: { id: number; email: string };
    let login: string;
    beforeAll(async () => {
      user = await person(school.id, `${unique('u')}@springfield.example`);
      login = account({ email: user.email, email_verified: true });
    });

    async function expectIncomplete(answer: Response) {
      expect(answer.status).toBe(400);
      expect(await answer.text()).toContain('Sign-in did not complete');
      expect(await sessionCount(user.id)).toBe(0);
    }

    it('a state that is not the one sent', async () => {
      const journey = await throughProvider(login);
      journey.callback.searchParams.set('state', 'another-state');
      await expectIncomplete(await finish(journey));
    });

    it('no state', async () => {
      const journey = await throughProvider(login);
      journey.callback.searchParams.delete('state');
      await expectIncomplete(await finish(journey));
    });

    it('the provider’s error=access_denied when the person cancels there', async () => {
      const journey = await throughProvider(login, { cancel: true });
      expect(journey.callback.searchParams.get('error')).toBe('access_denied');
      await expectIncomplete(await finish(journey));
    });

    it('a sealed cookie that was altered', async () => {
      const journey = await throughProvider(login);
      const last = journey.pending.at(-1) === 'A' ? 'B' : 'A';
      journey.browser.cookies.get(origin)!.set('lectern_oidc', `${journey.pending.slice(0, -1)}${last}`);
      await expectIncomplete(await finish(journey));
    });

    it('no sealed cookie (another browser opens the callback)', async () => {
      const journey = await throughProvider(login);
      journey.browser.cookies.get(origin)!.delete('lectern_oidc');
      await expectIncomplete(await finish(journey));
    });

    it('an ID token with another nonce than the one this browser was sent with', async () => {
      const journey = await throughProvider(login, {
        alter: (authorization) => authorization.searchParams.set('nonce', 'a-nonce-someone-else-chose'),
      });
      await expectIncomplete(await finish(journey));
    });

    it('a code with another PKCE challenge than this browser’s verifier', async () => {
      const journey = await throughProvider(login, {
        alter: (authorization) =>
          authorization.searchParams.set('code_challenge', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'),
      });
      await expectIncomplete(await finish(journey));
    });
  });

  it('counts refusals against the address like failed passwords: past the limit, 429 even for a match', async () => {
    const browser = new Browser(freshAddress());
    const nobody = account({ email: `${unique('nobody')}@springfield.example`, email_verified: true });
    for (let refusal = 0; refusal < 3; refusal++)
      expect((await finish(await throughProvider(nobody, { browser }))).status).toBe(403);
    const user = await person(school.id, `${unique('u')}@springfield.example`);
    const blocked = await finish(
      await throughProvider(account({ email: user.email, email_verified: true }), { browser }),
    );
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await sessionCount(user.id)).toBe(0);
    // The password form counts the same address: its first failure finds the window full (3 refusals above) and
    // blocks it there too (src/auth/auth-failures.ts: a guard learns of a block at its first failure).
    const form = await browser.get(new URL(`${origin}/sign-in`));
    const csrf = /name="csrf" value="([^"]*)"/.exec(await form.text())![1]!;
    const guess = () =>
      browser.get(new URL(`${origin}/sign-in`), {
        method: 'POST',
        body: new URLSearchParams({ csrf, identifier: user.username, password: 'whatever it is', return_to: '/' }),
      });
    expect((await guess()).status).toBe(400);
    expect((await guess()).status).toBe(429);
  });

  it('answers 502 for a provider that does not answer, and 404 for one not configured', async () => {
    const browser = new Browser(freshAddress());
    const down = await browser.get(new URL(`${origin}/sign-in/oidc/down?return_to=/`));
    expect(down.status).toBe(502);
    expect(await down.text()).toContain('Signing in with Nowhere ID is not possible right now.');
    expect(down.headers.getSetCookie()).toEqual([]);
    expect((await browser.get(new URL(`${origin}/sign-in/oidc/elsewhere`))).status).toBe(404);
    expect((await browser.get(new URL(`${origin}/sign-in/oidc/elsewhere/callback?code=x`))).status).toBe(404);
    // The other provider and the password form still work.
    expect((await browser.get(new URL(`${origin}/sign-in`))).status).toBe(200);
    expect((await browser.get(new URL(`${origin}/sign-in/oidc/school`))).status).toBe(303);
  });

  it('writes no code, token, secret or sealed cookie to the log', async () => {
    const user = await person(school.id, `${unique('log')}@springfield.example`);
    const journey = await throughProvider(account({ email: user.email, email_verified: true }));
    const code = journey.callback.searchParams.get('code')!;
    expect(code).toBeTruthy();
    expect((await finish(journey)).status).toBe(303);
    const log = logLines.join('');
    expect(log).toContain('"path":"/sign-in/oidc/school/callback"');
    for (const secret of [code, journey.pending, idp.clientSecret, ...journey.browser.seen])
      expect(log).not.toContain(secret);
  });
});
