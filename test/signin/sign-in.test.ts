import argon2 from 'argon2';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '../../src/db/database';
import { loggedPath } from '../../src/http/logging';
import { demoCredentialsText, seedDemo } from '../../src/ops/demo';
import { sessionOf } from '../../src/signin/session';
import { type GraphQLClient, graphqlClientFor, restClientFor } from '../support/client';
import { type World, createUser, createWorld } from '../support/factories';
import { testOrigin, useTestServer } from '../support/harness';
import { cookiesOf, givePassword, openForm, postForm, sessionCount, setCookieNamed, signIn } from './pages';

const server = useTestServer();
let world: World;
let admin: GraphQLClient;

const strong = 'purple otter sings at dawn';

beforeAll(async () => {
  world = await createWorld();
  admin = await graphqlClientFor(server, world.schoolAdmin);
});

const createLink = `mutation($input: CreateSignInLinkInput!) {
  createSignInLink(input: $input) { signInLink { url expiresAt } userErrors { code field message } }
}`;

async function linkFor(userId: number) {
  const answer = await admin(createLink, { input: { userId: String(userId) } });
  return answer.data.createSignInLink.signInLink as { url: string; expiresAt: string };
}

const pathOf = (url: string) => new URL(url).pathname;

describe('sign-in links', () => {
  it('sets the password once, signs the user in, and then opens nothing', async () => {
    const student = await createUser(world.school.id, 'STUDENT');
    const before = Date.now();
    const link = await linkFor(student.id);
    expect(link.url).toMatch(new RegExp(`^${testOrigin}/sign-in/link/[A-Za-z0-9_-]{43}$`));
    // 72 hours, SIGN_IN_LINK_LIFETIME's default.
    expect(Date.parse(link.expiresAt) - before).toBeGreaterThanOrEqual(72 * 3_600_000 - 1000);
    expect(Date.parse(link.expiresAt) - before).toBeLessThan(72 * 3_600_000 + 60_000);

    const page = await openForm(server, pathOf(link.url));
    expect(page.response.status).toBe(200);
    expect(page.body).toContain(student.username);
    expect(page.body).toContain('autocomplete="new-password"');

    const differ = await postForm(
      server,
      pathOf(link.url),
      { csrf: page.csrf, password: strong, confirmation: `${strong}!` },
      page.cookie,
    );
    expect(differ.status).toBe(400);
    expect(await differ.text()).toContain('The two passwords are not the same.');
    const weak = await postForm(
      server,
      pathOf(link.url),
      { csrf: page.csrf, password: 'short', confirmation: 'short' },
      page.cookie,
    );
    expect(weak.status).toBe(400);
    expect(await weak.text()).toMatch(/role="alert">Use at least 10 characters/);
    const ownName = `${student.username}-secret`;
    const named = await postForm(
      server,
      pathOf(link.url),
      { csrf: page.csrf, password: ownName, confirmation: ownName },
      page.cookie,
    );
    expect(named.status).toBe(400);
    expect((await db().user.findUniqueOrThrow({ where: { id: student.id } })).passwordHash).toBeNull();

    const set = await postForm(
      server,
      pathOf(link.url),
      { csrf: page.csrf, password: strong, confirmation: strong },
      page.cookie,
    );
    expect(set.status).toBe(303);
    expect(set.headers.get('location')).toBe('/sign-in');
    expect(setCookieNamed(set, 'lectern_session')).toBeDefined();
    const stored = await db().user.findUniqueOrThrow({ where: { id: student.id } });
    expect(stored.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(await sessionCount(student.id)).toBe(1);
    const signedIn = await server.fetch('/sign-in', { headers: { cookie: cookiesOf(set) } });
    expect(await signedIn.text()).toContain(`(${student.username})`);

    const again = await server.fetch(pathOf(link.url));
    expect(again.status).toBe(410);
    expect(await again.text()).toContain('This link no longer works');
    const reused = await postForm(
      server,
      pathOf(link.url),
      { csrf: page.csrf, password: 'another fine passphrase', confirmation: 'another fine passphrase' },
      page.cookie,
    );
    expect(reused.status).toBe(410);
    expect((await db().user.findUniqueOrThrow({ where: { id: student.id } })).passwordHash).toBe(stored.passwordHash);
  });

  it('answers an expired link with 410 and an unknown one with 404, setting nothing', async () => {
    const student = await createUser(world.school.id, 'STUDENT');
    const link = await linkFor(student.id);
    await db().signInLink.updateMany({ where: { userId: student.id }, data: { expiresAt: new Date(Date.now() - 1) } });
    expect((await server.fetch(pathOf(link.url))).status).toBe(410);
    const page = await openForm(server, '/sign-in');
    const posted = await postForm(
      server,
      pathOf(link.url),
      { csrf: page.csrf, password: strong, confirmation: strong },
      page.cookie,
    );
    expect(posted.status).toBe(410);
    expect(await sessionCount(student.id)).toBe(0);
    expect((await server.fetch(`/sign-in/link/${'x'.repeat(43)}`)).status).toBe(404);
    expect((await server.fetch('/sign-in/link/short')).status).toBe(404);
  });

  it('refuses a link form without its CSRF token (403), writing nothing', async () => {
    const student = await createUser(world.school.id, 'STUDENT');
    const link = await linkFor(student.id);
    const page = await openForm(server, pathOf(link.url));
    for (const [fields, cookie] of [
      [{ password: strong, confirmation: strong }, page.cookie],
      [{ csrf: page.csrf, password: strong, confirmation: strong }, ''],
      [{ csrf: `${page.csrf.slice(0, -2)}xx`, password: strong, confirmation: strong }, page.cookie],
    ] as const) {
      const refused = await postForm(server, pathOf(link.url), fields, cookie);
      expect(refused.status).toBe(403);
      expect(setCookieNamed(refused, 'lectern_session')).toBeUndefined();
    }
    expect((await db().user.findUniqueOrThrow({ where: { id: student.id } })).passwordHash).toBeNull();
    expect(await db().signInLink.count({ where: { userId: student.id, usedAt: { not: null } } })).toBe(0);
    expect(await sessionCount(student.id)).toBe(0);
  });

  it('is made for users the viewer may change, and not for inactive ones', async () => {
    const teacher = await graphqlClientFor(server, world.teacher);
    const refused = await teacher(createLink, { input: { userId: String(world.student.id) } });
    expect(refused.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const inactive = await createUser(world.school.id, 'STUDENT');
    await db().user.update({ where: { id: inactive.id }, data: { deactivatedAt: new Date() } });
    const answer = await admin(createLink, { input: { userId: String(inactive.id) } });
    expect(answer.data.createSignInLink).toMatchObject({
      signInLink: null,
      userErrors: [{ field: ['input', 'userId'] }],
    });
    expect(await db().signInLink.count({ where: { userId: inactive.id } })).toBe(0);
  });

  it('keeps the token out of the request log', () => {
    expect(loggedPath(`/sign-in/link/${'a'.repeat(43)}`)).toBe('/sign-in/link/[token]');
  });
});

describe('the sign-in page', () => {
  it('is an accessible form: labels, autocomplete, an alert region, lang, no outside assets', async () => {
    const page = await openForm(server, '/sign-in?return_to=/groups');
    expect(page.response.status).toBe(200);
    expect(page.response.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-/);
    expect(page.response.headers.get('cache-control')).toBe('no-store');
    expect(page.response.headers.get('x-frame-options')).toBe('DENY');
    expect(page.body).toContain('<html lang="en">');
    expect(page.body).toMatch(
      /<label for="identifier">[^<]+<\/label>\s*<input id="identifier"[^>]*autocomplete="username"/,
    );
    expect(page.body).toMatch(
      /<label for="password">[^<]+<\/label>\s*<input id="password"[^>]*autocomplete="current-password"/,
    );
    expect(page.body).toContain('id="form-error" class="alert" role="alert"></div>');
    expect(page.body).toContain('name="return_to" value="/groups"');
    expect(page.body).not.toMatch(/<(script|img|link)\b|src=|https?:\/\//);
    expect(setCookieNamed(page.response, 'lectern_csrf')).toMatch(/; Path=\/; HttpOnly; SameSite=Lax$/);
  });

  it('signs in by username or email: 303 to return_to with the session cookie', async () => {
    const teacher = await createUser(world.school.id, 'TEACHER');
    await givePassword(teacher.id, strong);
    const { response } = await signIn(server, teacher.username, strong, '/groups?page=2#top');
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/groups?page=2#top');
    const cookie = setCookieNamed(response, 'lectern_session')!;
    expect(cookie).toMatch(/^lectern_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=604800$/);
    const signedIn = await sessionOf(new Request(testOrigin, { headers: { cookie: cookie.split(';')[0]! } }));
    expect(signedIn).toMatchObject({ userId: teacher.id });
    // Only the hash of the cookie is kept.
    expect(await db().session.count({ where: { id: cookie.split(';')[0]!.split('=')[1]! } })).toBe(0);

    const byEmail = await signIn(server, teacher.email.toUpperCase(), strong);
    expect(byEmail.response.status).toBe(303);
    expect(byEmail.response.headers.get('location')).toBe('/');
  });

  it('answers a wrong password and an unknown name alike, checking a hash both times', async () => {
    const teacher = await createUser(world.school.id, 'TEACHER');
    await givePassword(teacher.id, strong);
    const verify = vi.spyOn(argon2, 'verify');
    try {
      const form = await openForm(server, '/sign-in');
      const attempt = (identifier: string) =>
        postForm(server, '/sign-in', { csrf: form.csrf, identifier, password: 'not the password' }, form.cookie);
      const wrong = await attempt(teacher.username);
      const unknown = await attempt('nobody-by-this-name');
      expect(verify).toHaveBeenCalledTimes(2);
      expect([wrong.status, unknown.status]).toEqual([400, 400]);
      const [wrongBody, unknownBody] = [await wrong.text(), await unknown.text()];
      expect(wrongBody.replace(teacher.username, 'NAME')).toBe(unknownBody.replace('nobody-by-this-name', 'NAME'));
      expect(wrongBody).toMatch(/role="alert">That email or username and password do not match/);
      expect(wrongBody).toMatch(/<input id="password"[^>]*aria-invalid="true" aria-describedby="form-error"/);
      expect(setCookieNamed(wrong, 'lectern_session')).toBeUndefined();
      expect(await sessionCount(teacher.id)).toBe(0);
    } finally {
      verify.mockRestore();
    }
  });

  it('names nobody with a username two schools share', async () => {
    const first = await createUser(world.school.id, 'STUDENT');
    const second = await db().user.create({
      data: {
        schoolId: world.otherSchool.id,
        role: 'STUDENT',
        username: first.username,
        nameFirst: 'A',
        nameLast: 'B',
      },
    });
    await givePassword(first.id, strong);
    await givePassword(second.id, strong);
    expect((await signIn(server, first.username, strong)).response.status).toBe(400);
    expect((await signIn(server, first.email, strong)).response.status).toBe(303);
  });

  it('refuses a form without its CSRF token (403), writing no session', async () => {
    const teacher = await createUser(world.school.id, 'TEACHER');
    await givePassword(teacher.id, strong);
    const form = await openForm(server, '/sign-in');
    const other = await openForm(server, '/sign-in');
    for (const [fields, cookie] of [
      [{ identifier: teacher.username, password: strong }, form.cookie],
      [{ csrf: form.csrf, identifier: teacher.username, password: strong }, ''],
      [{ csrf: other.csrf, identifier: teacher.username, password: strong }, form.cookie],
    ] as const) {
      const refused = await postForm(server, '/sign-in', fields, cookie);
      expect(refused.status).toBe(403);
      expect(setCookieNamed(refused, 'lectern_session')).toBeUndefined();
    }
    expect(await sessionCount(teacher.id)).toBe(0);
  });

  it.each([
    ['//evil.example/x', '/'],
    ['https://evil.example/', '/'],
    ['/\\evil.example', '/'],
    ['/\t/evil.example', '/'],
    ['javascript:alert(1)', '/'],
    ['groups', '/'],
    ['/groups/1?tab=posts', '/groups/1?tab=posts'],
  ])('sends return_to %j to %s', async (returnTo, location) => {
    const teacher = await createUser(world.school.id, 'TEACHER');
    await givePassword(teacher.id, strong);
    const { response } = await signIn(server, teacher.username, strong, returnTo);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(location);
  });

  it('signs out with the session CSRF token, and not without it', async () => {
    const teacher = await createUser(world.school.id, 'TEACHER');
    await givePassword(teacher.id, strong);
    const { response } = await signIn(server, teacher.username, strong);
    const cookie = cookiesOf(response);
    const page = await openForm(server, '/sign-in', cookie);
    expect(page.body).toContain('action="/sign-out"');
    const refused = await postForm(server, '/sign-out', { csrf: 'wrong' }, cookie);
    expect(refused.status).toBe(403);
    expect(await sessionCount(teacher.id)).toBe(1);
    const out = await postForm(server, '/sign-out', { csrf: page.csrf }, cookie);
    expect(out.status).toBe(303);
    expect(setCookieNamed(out, 'lectern_session')).toMatch(
      /^lectern_session=; Path=\/; HttpOnly; SameSite=Lax; Max-Age=0$/,
    );
    expect(await sessionCount(teacher.id)).toBe(0);
    expect(await sessionOf(new Request(testOrigin, { headers: { cookie } }))).toBeNull();
  });

  it('keeps an inactive user out: their sessions stop and they cannot sign in', async () => {
    const student = await createUser(world.school.id, 'STUDENT');
    await givePassword(student.id, strong);
    const { response } = await signIn(server, student.username, strong);
    const cookie = cookiesOf(response);
    const request = () => new Request(testOrigin, { headers: { cookie } });
    expect(await sessionOf(request())).toMatchObject({ userId: student.id });
    const deactivated = await admin(
      'mutation($input: DeactivateUserInput!) { deactivateUser(input: $input) { userErrors { code } } }',
      { input: { id: String(student.id) } },
    );
    expect(deactivated.data.deactivateUser.userErrors).toEqual([]);
    expect(await sessionOf(request())).toBeNull();
    expect(await (await server.fetch('/sign-in', { headers: { cookie } })).text()).toContain('action="/sign-in"');
    const verify = vi.spyOn(argon2, 'verify');
    try {
      const again = await signIn(server, student.username, strong);
      expect(again.response.status).toBe(400);
      expect(verify).toHaveBeenCalledTimes(1);
      expect(await again.response.text()).toContain('That email or username and password do not match');
    } finally {
      verify.mockRestore();
    }
    expect(await sessionCount(student.id)).toBe(1);
  });

  it('serves no password hash in GraphQL or /v1', async () => {
    const student = await createUser(world.school.id, 'STUDENT');
    await givePassword(student.id, strong);
    const rest = await restClientFor(server, world.schoolAdmin);
    const wire = await rest.get(`/users/${student.id}`);
    expect(wire.status).toBe(200);
    expect(wire.text).toContain(student.username);
    expect(wire.text).not.toMatch(/argon2|password/i);
    const answer = await admin('{ __type(name: "User") { fields { name } } }');
    expect(answer.data.__type.fields.map((field: { name: string }) => field.name)).not.toContain('passwordHash');
  });
});

const changePassword = `mutation($input: ChangePasswordInput!) {
  changePassword(input: $input) { user { databaseId } userErrors { code field message } }
}`;

describe('changePassword', () => {
  it('needs the current password and a strong new one, and ends the sessions', async () => {
    const teacher = await createUser(world.school.id, 'TEACHER');
    await givePassword(teacher.id, strong);
    const graphql = await graphqlClientFor(server, teacher);
    await signIn(server, teacher.username, strong);
    expect(await sessionCount(teacher.id)).toBe(1);

    const wrong = await graphql(changePassword, {
      input: { currentPassword: 'guess', newPassword: 'a new passphrase here' },
    });
    expect(wrong.data.changePassword).toEqual({
      user: null,
      userErrors: [
        { code: 'WRONG_PASSWORD', field: ['input', 'currentPassword'], message: 'The current password is wrong' },
      ],
    });
    const weak = await graphql(changePassword, { input: { currentPassword: strong, newPassword: 'aaaaaaaaaaaa' } });
    expect(weak.data.changePassword.userErrors).toEqual([
      { code: 'WEAK_PASSWORD', field: ['input', 'newPassword'], message: 'Use more different characters.' },
    ]);
    expect(await sessionCount(teacher.id)).toBe(1);

    const changed = await graphql(changePassword, {
      input: { currentPassword: strong, newPassword: 'a new passphrase here' },
    });
    expect(changed.data.changePassword).toEqual({ user: { databaseId: String(teacher.id) }, userErrors: [] });
    expect(await sessionCount(teacher.id)).toBe(0);
    expect((await signIn(server, teacher.username, strong)).response.status).toBe(400);
    expect((await signIn(server, teacher.username, 'a new passphrase here')).response.status).toBe(303);
  });

  it('tells a user without a password to ask for a sign-in link', async () => {
    const student = await createUser(world.school.id, 'STUDENT');
    const graphql = await graphqlClientFor(server, student);
    const answer = await graphql(changePassword, { input: { currentPassword: 'x', newPassword: strong } });
    expect(answer.data.changePassword.userErrors).toMatchObject([{ code: 'NO_PASSWORD' }]);
    expect((await db().user.findUniqueOrThrow({ where: { id: student.id } })).passwordHash).toBeNull();
  });
});

describe('the demo district', () => {
  it('gives one person of each role a random password, printed beside the other credentials', async () => {
    const demo = await seedDemo(server.serverKey);
    expect(demo.signIns.map((signIn) => signIn.role)).toEqual([
      'DISTRICT_ADMIN',
      'SCHOOL_ADMIN',
      'TEACHER',
      'STUDENT',
      'PARENT',
    ]);
    expect(new Set(demo.signIns.map((signIn) => signIn.password)).size).toBe(5);
    const text = demoCredentialsText(demo, 'http://127.0.0.1:4000');
    expect(text).toContain('People sign in at http://127.0.0.1:4000/sign-in');
    const student = demo.signIns.find((signIn) => signIn.role === 'STUDENT')!;
    expect(text).toMatch(new RegExp(`^  student +${student.username} +${student.password}$`, 'm'));
    expect((await signIn(server, student.username, student.password)).response.status).toBe(303);
  });
});
