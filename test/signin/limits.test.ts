import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { graphqlClientFor, refusal } from '../support/client';
import { type World, createUser, createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';
import { givePassword, sessionCount, setCookieNamed, signIn } from './pages';

// Every in-process request comes from one address, so the per-address count is shared by this file's tests: they run
// in order, the per-account one first.
const server = useTestServer({
  PUBLIC_URL: 'https://lectern.example',
  AUTH_FAILURES_PER_ADDRESS: '6/1m',
  SIGN_IN_FAILURES_PER_ACCOUNT: '3/15m',
});
let world: World;
const strong = 'purple otter sings at dawn';

beforeAll(async () => {
  world = await createWorld();
});

describe('failed sign-ins', () => {
  it('sets a Secure session cookie when PUBLIC_URL is https', async () => {
    const teacher = await createUser(world.school.id, 'TEACHER');
    await givePassword(teacher.id, strong);
    const { response } = await signIn(server, teacher.username, strong);
    expect(response.status).toBe(303);
    expect(setCookieNamed(response, 'lectern_session')).toMatch(/; HttpOnly; SameSite=Lax; Max-Age=604800; Secure$/);
  });

  it('are limited per account: 429 with Retry-After, even with the right password, writing no session', async () => {
    const teacher = await createUser(world.school.id, 'TEACHER');
    await givePassword(teacher.id, strong);
    for (let failure = 0; failure < 3; failure++)
      expect((await signIn(server, teacher.username, 'wrong password')).response.status).toBe(400);
    // By another of its names: the count is the account's.
    const blocked = await signIn(server, teacher.email, strong);
    expect(blocked.response.status).toBe(429);
    expect(Number(blocked.response.headers.get('retry-after'))).toBeGreaterThan(800);
    expect(await blocked.response.text()).toContain('Try again in 15 minutes.');
    expect(await sessionCount(teacher.id)).toBe(0);
    // Another account from the same address is still let in.
    const other = await createUser(world.school.id, 'TEACHER');
    await givePassword(other.id, strong);
    expect((await signIn(server, other.username, strong)).response.status).toBe(303);
  });

  it("count changePassword's wrong current passwords against the account, as the page does", async () => {
    const teacher = await createUser(world.school.id, 'TEACHER');
    await givePassword(teacher.id, strong);
    const hashBefore = (await db().user.findUniqueOrThrow({ where: { id: teacher.id } })).passwordHash;
    const graphql = await graphqlClientFor(server, teacher);
    const change = (currentPassword: string) =>
      graphql('mutation($input: ChangePasswordInput!) { changePassword(input: $input) { userErrors { code } } }', {
        input: { currentPassword, newPassword: 'a new passphrase here' },
      });
    for (let failure = 0; failure < 3; failure++)
      expect((await change('guess')).data.changePassword.userErrors).toEqual([{ code: 'WRONG_PASSWORD' }]);
    // The right password no longer helps a holder of the token, and nothing is changed. A field's error: the answer
    // carries data (`changePassword: null`), so its status stays 200 (src/http/error-status.ts).
    expect(refusal(await change(strong))).toMatchObject({
      data: { changePassword: null },
      code: 'RATE_LIMITED',
      message: expect.stringContaining('the limit is 3 per 900s'),
    });
    expect((await db().user.findUniqueOrThrow({ where: { id: teacher.id } })).passwordHash).toBe(hashBefore);
    // The page counts the same: the account is closed to sign-in too (a refusal that counts no address failure).
    const page = await signIn(server, teacher.username, strong);
    expect(page.response.status).toBe(429);
    expect(await sessionCount(teacher.id)).toBe(0);
  });

  it('are limited per address, for names nobody has too', async () => {
    // Three failures were counted above; three more fill the address's window of six.
    for (const name of ['nobody-1', 'nobody-2', 'nobody-3'])
      expect((await signIn(server, name, 'wrong password')).response.status).toBe(400);
    const teacher = await createUser(world.school.id, 'TEACHER');
    await givePassword(teacher.id, strong);
    const blocked = await signIn(server, teacher.username, strong);
    expect(blocked.response.status).toBe(429);
    expect(Number(blocked.response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await sessionCount(teacher.id)).toBe(0);
  });
});
