import { csrfField } from './csrf';
import { type Html, html, htmlPage } from './page';
import { passwordLength } from './password';

/** Largest form body the pages read: a few fields of text. */
export const formBodyLimit = 16 * 1024;

/**
 * A POSTed form (urlencoded or multipart), read up to formBodyLimit bytes; a Response (413 or 400) when it is larger
 * or no form.
 */
export async function readForm(request: Request): Promise<FormData | Response> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type))
    return messagePage('This is not a form', 'Send the form from its page.', 400);
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > formBodyLimit) return messagePage('Too much to read', 'The form sent is too large.', 413);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body?.getReader();
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > formBodyLimit) {
      await reader.cancel();
      return messagePage('Too much to read', 'The form sent is too large.', 413);
    }
    chunks.push(value);
  }
  try {
    return await new Response(Buffer.concat(chunks), { headers: { 'content-type': type } }).formData();
  } catch {
    return messagePage('This is not a form', 'Send the form from its page.', 400);
  }
}

/** A form field's text; absent or a file reads as empty. */
export const fieldText = (form: FormData, name: string): string => {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
};

/** A page that says one thing: a link that no longer works, a refused form. */
export function messagePage(title: string, text: string, status: number, headers?: HeadersInit): Response {
  return htmlPage({ title, status, headers, main: html`<p>${text}</p>\n<p><a href="/sign-in">Go to sign-in</a></p>` });
}

/**
 * The one region errors are announced in. It is in every form page, empty when there is nothing to say, so that it
 * is the same landmark each time; fields with a problem name it in aria-describedby.
 */
const alertRegion = (error: string | null) => html`<div id="form-error" class="alert" role="alert">${error}</div>`;

const describedBy = (...ids: (string | false | null)[]) => ids.filter(Boolean).join(' ') || null;

const attribute = (name: string, value: string | null) => (value === null ? '' : html` ${name}="${value}"`);

/** Each identity provider's button: a plain GET form, so it works without JavaScript and carries `return_to`. */
const providerButtons = (providers: { id: string; name: string }[], returnTo: string) =>
  providers.length === 0
    ? ''
    : html`
<p class="hint">Or with your school’s account:</p>
${providers.map(
  ({ id, name }) => html`<form method="get" action="/sign-in/oidc/${id}">
<input type="hidden" name="return_to" value="${returnTo}">
<button type="submit" class="secondary">Sign in with ${name}</button>
</form>
`,
)}`;

export function signInForm(options: {
  csrfToken: string;
  returnTo: string;
  /** Identity providers (OIDC_PROVIDERS) offered beside the password. */
  providers: { id: string; name: string }[];
  identifier?: string;
  error?: string | null;
  status?: number;
  headers?: HeadersInit;
}): Response {
  const error = options.error ?? null;
  const invalid = error ? html` aria-invalid="true"` : '';
  return htmlPage({
    title: 'Sign in',
    status: options.status,
    headers: options.headers,
    main: html`${alertRegion(error)}
<form method="post" action="/sign-in">
<input type="hidden" name="${csrfField}" value="${options.csrfToken}">
<input type="hidden" name="return_to" value="${options.returnTo}">
<label for="identifier">Email or username</label>
<input id="identifier" name="identifier" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" required value="${options.identifier ?? ''}"${invalid}${attribute('aria-describedby', describedBy(error && 'form-error'))}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${invalid}${attribute('aria-describedby', describedBy(error && 'form-error'))}>
<button type="submit">Sign in</button>
</form>${providerButtons(options.providers, options.returnTo)}
<p class="hint">No password yet? Ask your school's administrator for a sign-in link.</p>`,
  });
}

export function signedInPage(options: { name: string; csrfToken: string; returnTo: string }): Response {
  const next: Html | string = options.returnTo === '/' ? '' : html`<p><a href="${options.returnTo}">Continue</a></p>\n`;
  return htmlPage({
    title: 'Signed in',
    main: html`<p>You are signed in as <strong>${options.name}</strong>.</p>
${next}<form method="post" action="/sign-out">
<input type="hidden" name="${csrfField}" value="${options.csrfToken}">
<button type="submit" class="secondary">Sign out</button>
</form>`,
  });
}

export interface LinkFormProblems {
  password?: string;
  confirmation?: string;
}

export function choosePasswordForm(options: {
  action: string;
  csrfToken: string;
  user: { username: string; name: string };
  problems?: LinkFormProblems;
  status?: number;
  headers?: HeadersInit;
}): Response {
  const problems = options.problems ?? {};
  const summary = [problems.password, problems.confirmation].filter(Boolean).join(' ') || null;
  const invalid = (problem: string | undefined) => (problem ? html` aria-invalid="true"` : '');
  return htmlPage({
    title: 'Choose your password',
    status: options.status,
    headers: options.headers,
    main: html`<p>Hello ${options.user.name}. Choose the password you will sign in with as <strong>${options.user.username}</strong>.</p>
${alertRegion(summary)}
<form method="post" action="${options.action}">
<input type="hidden" name="${csrfField}" value="${options.csrfToken}">
<input type="text" name="username" autocomplete="username" value="${options.user.username}" hidden readonly>
<label for="password">New password</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="${passwordLength.min}" maxlength="${passwordLength.max}"${invalid(problems.password)} aria-describedby="${describedBy('password-hint', problems.password ? 'form-error' : null)}">
<p id="password-hint" class="hint">At least ${passwordLength.min} characters. A few unrelated words make a strong one.</p>
<label for="confirmation">New password again</label>
<input id="confirmation" name="confirmation" type="password" autocomplete="new-password" required${invalid(problems.confirmation)}${attribute('aria-describedby', describedBy(problems.confirmation ? 'form-error' : null))}>
<button type="submit">Set password and sign in</button>
</form>`,
  });
}
