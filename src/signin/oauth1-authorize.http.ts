import type { Plugin } from 'graphql-yoga';
import {
  OAuth1FlowError,
  approveRequestToken,
  denyRequestToken,
  hasAuthorized,
  requestTokenForApproval,
} from '../auth/oauth1-authorization';
import { appAbilities, consentPage } from './consent';
import { hasValidCsrf } from './csrf';
import { fieldText, messagePage, readForm } from './forms';
import { html, htmlPage } from './page';
import { type SignedIn, sessionOf, signInUrl } from './session';

/**
 * Where a legacy app sends its user to approve a request token (docs/oauth1.md). schoolopy opens `/oauth/authorize` on
 * the platform's site; requests-oauthlib examples use the API host's `/v1/oauth/authorize`: both are this page.
 */
const authorizePaths = new Set(['/oauth/authorize', '/v1/oauth/authorize']);

const redirect = (location: string) =>
  new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store' } });

const unknownRequest = () =>
  messagePage(
    'Nothing to approve',
    'This request was answered already, has expired, or does not exist. Go back to the app and start again.',
    404,
  );

/** The page a request token the flow cannot use answers with; rethrows anything else. */
function refusal(error: unknown): Response {
  if (!(error instanceof OAuth1FlowError)) throw error;
  return error.reason === 'callback_not_registered'
    ? messagePage('This app cannot send you there', 'The app asked to return to an address it did not register.', 400)
    : unknownRequest();
}

/** Where the user goes after answering: back to the app, or a page saying what to do when it has no callback. */
function answered(outcome: { redirectTo: string | null; verifier?: string | null }, approved: boolean): Response {
  if (outcome.redirectTo) return redirect(outcome.redirectTo);
  if (!approved) return messagePage('Not approved', 'The app will not act for you. You can close this page.', 200);
  const code = outcome.verifier
    ? html`<p>Enter this code in the app: <strong><code>${outcome.verifier}</code></strong></p>`
    : html`<p>Go back to the app to continue.</p>`;
  return htmlPage({ title: 'Approved', main: html`<p>The app may now act for you.</p>\n${code}` });
}

async function approve(token: string, signedIn: SignedIn, callback: string | null): Promise<Response> {
  try {
    return answered(await approveRequestToken(token, signedIn.userId, callback), true);
  } catch (error) {
    return refusal(error);
  }
}

/** GET: signs the user in first, then asks (or approves at once an app the user approved before). */
async function ask(request: Request, url: URL): Promise<Response> {
  const token = url.searchParams.get('oauth_token');
  if (!token) return messagePage('Nothing to approve', 'The link the app sent you here with is incomplete.', 400);
  const signedIn = await sessionOf(request);
  if (!signedIn) return redirect(signInUrl(`${url.pathname}${url.search}`));
  const callback = url.searchParams.get('oauth_callback');
  let pending: Awaited<ReturnType<typeof requestTokenForApproval>>;
  try {
    pending = await requestTokenForApproval(token, callback);
  } catch (error) {
    return refusal(error);
  }
  if (!pending || pending.expired) return unknownRequest();
  if (await hasAuthorized(signedIn.userId, pending.appId)) return approve(token, signedIn, callback);
  return consentPage({
    appName: pending.appName,
    abilities: appAbilities,
    action: url.pathname,
    hidden: { oauth_token: token, ...(callback === null ? {} : { oauth_callback: callback }) },
    csrfToken: signedIn.csrfToken,
  });
}

/** POST: the consent page's answer, from a signed-in browser carrying its session's CSRF token. */
async function decide(request: Request, url: URL): Promise<Response> {
  const form = await readForm(request);
  if (form instanceof Response) return form;
  const token = fieldText(form, 'oauth_token');
  const callback = form.has('oauth_callback') ? fieldText(form, 'oauth_callback') : null;
  const signedIn = await sessionOf(request);
  if (!signedIn) {
    const again = new URLSearchParams({
      oauth_token: token,
      ...(callback === null ? {} : { oauth_callback: callback }),
    });
    return redirect(signInUrl(`${url.pathname}?${again}`));
  }
  if (!hasValidCsrf(signedIn, form))
    return messagePage('This form has expired', 'Open the page again from the app and answer there.', 403);
  const decision = fieldText(form, 'decision');
  if (!token || (decision !== 'approve' && decision !== 'deny'))
    return messagePage('Nothing to approve', 'Answer with the Approve or Deny button.', 400);
  if (decision === 'approve') return approve(token, signedIn, callback);
  try {
    return answered(await denyRequestToken(token, callback), false);
  } catch (error) {
    return refusal(error);
  }
}

/** `/oauth/authorize`: the user's step of three-legged OAuth 1.0a, between request_token and access_token. */
export function useOAuth1Authorize(): Plugin {
  return {
    async onRequest({ request, url, endResponse }) {
      if (!authorizePaths.has(url.pathname)) return;
      // No HEAD: asking may approve at once (an app approved before), and a HEAD must change nothing.
      if (request.method === 'GET') endResponse(await ask(request, url));
      else if (request.method === 'POST') endResponse(await decide(request, url));
      else
        endResponse(
          new Response('Method Not Allowed', {
            status: 405,
            headers: { allow: 'GET, POST', 'content-type': 'text/plain; charset=utf-8' },
          }),
        );
    },
  };
}
