// The browser's stop between the app and its code: sign in (Lectern's page) and approve the app (Lectern's consent
// page), for oidc-provider's interactions. The same pages and rules as the OAuth 1.0a authorize page.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type Provider from 'oidc-provider';
import { hasAuthorized, rememberApproval } from '../auth/oauth1-authorization';
import { db } from '../db/database';
import { writeTransaction } from '../outbox/record';
import { appAbilities, consentPage } from '../signin/consent';
import { hasValidCsrf } from '../signin/csrf';
import { fieldText, messagePage, readForm } from '../signin/forms';
import { sessionOf, signInUrl } from '../signin/session';
import { accountIdOf } from './accounts';
import { firstPartyGrant, isFirstPartyClient } from './first-party';
import { headersOnly, interactionPath, scopes } from './provider';

const redirect = (location: string) =>
  new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store' } });

const expired = () =>
  messagePage(
    'Nothing to approve',
    'This sign-in request was answered already, has expired, or does not exist. Go back to the app and start again.',
    400,
  );

/** Writes a fetch Response to a Node response. */
export async function send(response: Response, to: ServerResponse): Promise<void> {
  to.statusCode = response.status;
  for (const [name, value] of response.headers) to.setHeader(name, value);
  to.end(Buffer.from(await response.arrayBuffer()));
}

/** A fetch Request with the Node request's body too, for reading a posted form. */
const withBody = (request: IncomingMessage, origin: string) =>
  new Request(headersOnly(request, origin), {
    method: request.method,
    body: Readable.toWeb(request) as ReadableStream<Uint8Array>,
    duplex: 'half',
  } as RequestInit);

/**
 * GET shows the consent page to a signed-in browser (the sign-in page first, coming back here), or goes straight back
 * to the app when the user approved it before; POST takes the page's answer. Either ends the interaction with the
 * provider, which redirects to the app with a code, or with `access_denied`.
 */
export async function answerInteraction(
  provider: Provider,
  request: IncomingMessage,
  response: ServerResponse,
  origin: string,
): Promise<Response> {
  const path = new URL(request.url ?? '/', origin).pathname;
  let details: Awaited<ReturnType<Provider['interactionDetails']>>;
  try {
    details = await provider.interactionDetails(request, response);
  } catch {
    // No interaction cookie, or one that expired or was finished.
    return expired();
  }
  if (path !== `${interactionPath}${details.uid}`) return expired();
  const finish = async (result: Parameters<Provider['interactionResult']>[2]) =>
    redirect(await provider.interactionResult(request, response, result, { mergeWithLastSubmission: false }));

  const isPost = request.method === 'POST';
  const form = isPost ? await readForm(withBody(request, origin)) : null;
  if (form instanceof Response) return form;
  const signedIn = await sessionOf(headersOnly(request, origin));
  if (!signedIn) return redirect(signInUrl(path));
  const clientId = String(details.params.client_id);
  // Lectern's own clients ask no consent: signed in is all it takes (first-party.ts).
  if (isFirstPartyClient(clientId)) {
    const grant = await firstPartyGrant(provider, accountIdOf(signedIn.userId), clientId, details.grantId);
    return finish({ login: { accountId: accountIdOf(signedIn.userId) }, consent: { grantId: grant.jti } });
  }
  const app = await db().app.findUnique({ where: { consumerKey: clientId }, select: { id: true, name: true } });
  if (!app) return expired();
  const accountId = accountIdOf(signedIn.userId);

  if (!form) {
    // Approved before: signed in is all it takes; the provider finds the remembered grant (loadExistingGrant).
    if (await hasAuthorized(signedIn.userId, app.id)) return finish({ login: { accountId } });
    return consentPage({
      appName: app.name,
      abilities: appAbilities,
      action: path,
      hidden: {},
      csrfToken: signedIn.csrfToken,
    });
  }
  if (!hasValidCsrf(signedIn, form))
    return messagePage('This form has expired', 'Open the page again from the app and answer there.', 403);
  const decision = fieldText(form, 'decision');
  if (decision === 'deny')
    return finish({ error: 'access_denied', error_description: 'The user did not approve the app' });
  if (decision !== 'approve') return messagePage('Nothing to approve', 'Answer with the Approve or Deny button.', 400);
  await writeTransaction((tx) => rememberApproval(tx, signedIn.userId, app.id));
  const grant = new provider.Grant({ accountId, clientId });
  grant.addOIDCScope(scopes.join(' '));
  return finish({ login: { accountId }, consent: { grantId: await grant.save() } });
}
