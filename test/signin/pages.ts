import { db } from '../../src/db/database';
import { hashPassword } from '../../src/signin/password';
import type { TestServer } from '../support/harness';

/** A page with a form, the CSRF token in it, and the cookie header a browser would send back with the form. */
export interface FormPage {
  response: Response;
  body: string;
  csrf: string;
  cookie: string;
}

/** The `name=value` pairs of a response's Set-Cookie headers, as a Cookie header sends them. */
export const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0]!)
    .join('; ');

/** One Set-Cookie header of a response, by the cookie's name. */
export const setCookieNamed = (response: Response, name: string) =>
  response.headers.getSetCookie().find((cookie) => cookie.startsWith(`${name}=`));

export async function openForm(server: TestServer, path: string, cookie = ''): Promise<FormPage> {
  const response = await server.fetch(path, { headers: cookie ? { cookie } : {} });
  const body = await response.text();
  const csrf = /name="csrf" value="([^"]*)"/.exec(body)?.[1] ?? '';
  const sent = cookiesOf(response);
  return { response, body, csrf, cookie: [cookie, sent].filter(Boolean).join('; ') };
}

export function postForm(server: TestServer, path: string, fields: Record<string, string>, cookie = '') {
  return server.fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(fields),
    redirect: 'manual',
  });
}

/** Gives a user a password, as a used sign-in link would. */
export async function givePassword(userId: number, password: string) {
  await db().user.update({ where: { id: userId }, data: { passwordHash: await hashPassword(password) } });
}

/** Signs in through the page; the response is the form's answer. */
export async function signIn(server: TestServer, identifier: string, password: string, returnTo = '/') {
  const form = await openForm(server, '/sign-in');
  const response = await postForm(
    server,
    '/sign-in',
    { csrf: form.csrf, identifier, password, return_to: returnTo },
    form.cookie,
  );
  return { response, form };
}

export const sessionCount = (userId: number) => db().session.count({ where: { userId } });
