import { beforeAll, describe, expect, it } from 'vitest';
import { hasAuthorized } from '../../src/auth/oauth1-authorization';
import { clientsFor } from '../support/client';
import { type World, createUser, createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';
import { testOrigin } from '../support/wire';
import { expectNothingWritten } from '../support/writes';
import {
  type AppKeys,
  accessToken,
  accessTokenUrl,
  hmacHeader,
  registerApp,
  requestToken,
  tokenStep,
  usersMe,
} from '../auth/oauth1-support';
import { cookiesOf, givePassword, openForm, postForm, signIn } from './pages';

const server = useTestServer();
const clients = clientsFor(server);
const callback = 'https://planner.example/schoology/callback';
const password = 'seven quiet harbours glow';

let world: World;
let app: AppKeys;

beforeAll(async () => {
  world = await createWorld();
  app = await registerApp(await clients.graphql(world.districtAdmin), {
    name: 'Planner',
    redirectUris: [callback],
  });
});

/** A teacher with a password, signed in: the session cookie a browser would send. */
async function signedInTeacher() {
  const teacher = await createUser(world.school.id, 'TEACHER');
  await givePassword(teacher.id, password);
  const { response } = await signIn(server, teacher.username, password);
  expect(response.status).toBe(303);
  return { teacher, cookie: cookiesOf(response) };
}

/** The authorize URL schoolopy sends its user to: the request token and, on it, the callback. */
const authorizePath = (token: string, path = '/oauth/authorize') =>
  `${path}?${new URLSearchParams({ oauth_token: token, oauth_callback: callback })}`;

const open = (path: string, cookie = '') =>
  server.fetch(path, { headers: cookie ? { cookie } : {}, redirect: 'manual' });

describe('/oauth/authorize', () => {
  it('signs the user in, asks once, and sends them back to the app with a token it can exchange', async () => {
    const teacher = await createUser(world.school.id, 'TEACHER');
    await givePassword(teacher.id, password);
    const pending = await requestToken(server, app);

    // Not signed in: to the sign-in page, which comes back here.
    const first = await open(authorizePath(pending.key));
    expect(first.status).toBe(303);
    const signInPath = first.headers.get('location')!;
    expect(new URL(signInPath, testOrigin).searchParams.get('return_to')).toBe(authorizePath(pending.key));
    const { response: signedIn } = await signIn(server, teacher.username, password, authorizePath(pending.key));
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe(authorizePath(pending.key));
    const cookie = cookiesOf(signedIn);

    const consent = await openForm(server, authorizePath(pending.key), cookie);
    expect(consent.response.status).toBe(200);
    expect(consent.body).toContain('Planner wants to act for you');
    expect(consent.body).toContain(`name="oauth_token" value="${pending.key}"`);
    const approved = await postForm(
      server,
      '/oauth/authorize',
      { csrf: consent.csrf, oauth_token: pending.key, oauth_callback: callback, decision: 'approve' },
      consent.cookie,
    );
    expect(approved.status).toBe(303);
    expect(approved.headers.get('location')).toBe(`${callback}?oauth_token=${pending.key}`);

    const access = await accessToken(server, app, pending);
    const me = await usersMe(server, app, access);
    expect(me.location).toBe(`${testOrigin}/v1/users/${teacher.id}`);

    // Approved before: the next request token goes straight back to the app, on either path.
    const again = await requestToken(server, app);
    const remembered = await open(authorizePath(again.key, '/v1/oauth/authorize'), cookie);
    expect(remembered.status).toBe(303);
    expect(remembered.headers.get('location')).toBe(`${callback}?oauth_token=${again.key}`);
  });

  it('sends a user who denies back with denied=, and the token can no longer be exchanged', async () => {
    const { teacher, cookie } = await signedInTeacher();
    const pending = await requestToken(server, app);
    const consent = await openForm(server, authorizePath(pending.key), cookie);
    const denied = await postForm(
      server,
      '/oauth/authorize',
      { csrf: consent.csrf, oauth_token: pending.key, oauth_callback: callback, decision: 'deny' },
      consent.cookie,
    );
    expect(denied.status).toBe(303);
    expect(denied.headers.get('location')).toBe(`${callback}?denied=${pending.key}`);
    expect(await hasAuthorized(teacher.id, Number(app.databaseId))).toBe(false);
    const exchange = await tokenStep(
      server,
      accessTokenUrl,
      hmacHeader('GET', accessTokenUrl, { key: app.consumerKey, secret: app.consumerSecret }, pending),
    );
    expect(exchange.status).toBe(401);
  });

  it('shows the verifier to an out-of-band client', async () => {
    const { cookie } = await signedInTeacher();
    const pending = await requestToken(server, app, 'oob');
    const path = `/oauth/authorize?oauth_token=${pending.key}`;
    const consent = await openForm(server, path, cookie);
    const approved = await postForm(
      server,
      '/oauth/authorize',
      { csrf: consent.csrf, oauth_token: pending.key, decision: 'approve' },
      consent.cookie,
    );
    expect(approved.status).toBe(200);
    const verifier = /<code>([^<]+)<\/code>/.exec(await approved.text())?.[1];
    expect(verifier).toMatch(/^[\w-]{10,}$/);
    const access = await accessToken(server, app, pending, { oauth_verifier: verifier! });
    expect((await usersMe(server, app, access)).status).toBe(303);
  });

  it('refuses a forged or unsigned answer, a callback the app did not register and an unknown token, writing nothing', async () => {
    const { teacher, cookie } = await signedInTeacher();
    const pending = await requestToken(server, app);
    const consent = await openForm(server, authorizePath(pending.key), cookie);
    const answer = { oauth_token: pending.key, oauth_callback: callback, decision: 'approve' };
    await expectNothingWritten(async () => {
      const forged = await postForm(server, '/oauth/authorize', { ...answer, csrf: 'forged' }, consent.cookie);
      expect(forged.status).toBe(403);
      // Without a session the answer is not taken: the user signs in and is asked again.
      const unsigned = await postForm(server, '/oauth/authorize', { ...answer, csrf: consent.csrf });
      expect(unsigned.status).toBe(303);
      expect(unsigned.headers.get('location')).toMatch(/^\/sign-in\?return_to=/);
      const elsewhere = await open(
        `/oauth/authorize?oauth_token=${pending.key}&oauth_callback=${encodeURIComponent('https://evil.example/')}`,
        cookie,
      );
      expect(elsewhere.status).toBe(400);
      expect((await open('/oauth/authorize?oauth_token=nothing-like-it', cookie)).status).toBe(404);
      expect((await open('/oauth/authorize', cookie)).status).toBe(400);
      expect((await server.fetch(authorizePath(pending.key), { method: 'HEAD', headers: { cookie } })).status).toBe(
        405,
      );
    });
    expect(await hasAuthorized(teacher.id, Number(app.databaseId))).toBe(false);
  });
});
