/**
 * Signing in to Lectern with OAuth 2.0 code + PKCE (oauth4webapi), as a PUBLIC app whose redirect URI is this page.
 * The verifier, state and nonce wait in sessionStorage across the redirect only; the access token is returned to the
 * caller and kept in memory. Which server and app to use is remembered for the tab (no credential), so that a reload
 * signs in again without a prompt while the Lectern session is live (`prompt=none`: the app was approved before).
 */
import * as oauth from 'oauth4webapi';

export interface Settings {
  server: string;
  clientId: string;
}

const settingsKey = 'lectern:settings';
const pendingKey = 'lectern:pending';

/** This page, without its query: the redirect URI the app was registered with. */
const redirectUri = () => location.origin + location.pathname;

export function savedSettings(): Settings | null {
  return JSON.parse(sessionStorage.getItem(settingsKey) ?? 'null');
}

async function connectTo(settings: Settings) {
  const issuer = new URL(settings.server);
  // Plain http is for a server on this machine (the README's quick start); oauth4webapi refuses it unless told.
  const options = { [oauth.allowInsecureRequests]: issuer.protocol === 'http:' };
  const server = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, options));
  const client: oauth.Client = { client_id: settings.clientId };
  return { server, client, options };
}

/** Sends the browser to Lectern; with `silently`, Lectern answers at once (signed in) or with an error (not). */
export async function signIn(settings: Settings, silently = false): Promise<void> {
  const { server } = await connectTo(settings);
  const pending = {
    verifier: oauth.generateRandomCodeVerifier(),
    state: oauth.generateRandomState(),
    nonce: oauth.generateRandomNonce(),
    silently,
  };
  sessionStorage.setItem(settingsKey, JSON.stringify(settings));
  sessionStorage.setItem(pendingKey, JSON.stringify(pending));
  const url = new URL(server.authorization_endpoint!);
  url.search = new URLSearchParams({
    client_id: settings.clientId,
    redirect_uri: redirectUri(),
    response_type: 'code',
    scope: 'openid profile',
    code_challenge: await oauth.calculatePKCECodeChallenge(pending.verifier),
    code_challenge_method: 'S256',
    state: pending.state,
    nonce: pending.nonce,
    ...(silently ? { prompt: 'none' } : {}),
  }).toString();
  location.assign(url);
}

/**
 * Back from Lectern: the access token for the code in the address bar (which is then cleared), null when this load
 * is no answer or a silent attempt found no live session; throws on any other refusal.
 */
export async function finishSignIn(): Promise<{ settings: Settings; token: string } | null> {
  const settings = savedSettings();
  const pending = JSON.parse(sessionStorage.getItem(pendingKey) ?? 'null');
  const answer = new URL(location.href);
  if (!settings || !pending || !answer.searchParams.has('state')) return null;
  sessionStorage.removeItem(pendingKey);
  history.replaceState(null, '', `${redirectUri()}?server=${encodeURIComponent(settings.server)}`);
  const { server, client, options } = await connectTo(settings);
  let parameters: URLSearchParams;
  try {
    parameters = oauth.validateAuthResponse(server, client, answer, pending.state);
  } catch (error) {
    if (pending.silently && error instanceof oauth.AuthorizationResponseError) return null;
    throw error;
  }
  const response = await oauth.authorizationCodeGrantRequest(
    server,
    client,
    oauth.None(),
    parameters,
    redirectUri(),
    pending.verifier,
    options,
  );
  const tokens = await oauth.processAuthorizationCodeResponse(server, client, response, {
    expectedNonce: pending.nonce,
  });
  return { settings, token: tokens.access_token };
}

/** Revokes the token and forgets the server, so that a reload does not sign in again. */
export async function signOut(settings: Settings, token: string): Promise<void> {
  sessionStorage.removeItem(settingsKey);
  const { server, client, options } = await connectTo(settings);
  await oauth.processRevocationResponse(await oauth.revocationRequest(server, client, oauth.None(), token, options));
}
