import * as client from 'openid-client';
import { expect } from 'vitest';
import type { AppKeys } from '../auth/oauth1-support';
import { registerApp } from '../auth/oauth1-support';
import type { GraphQLClient } from '../support/client';

/** Where the test apps send their users back: nothing listens there, the flow stops at the redirect. */
export const redirectUri = 'https://app.example/oauth2/callback';

/** Registers an OAuth 2.0 app (public or confidential) as a district administrator. */
export function registerOAuth2App(admin: GraphQLClient, clientType: 'PUBLIC' | 'CONFIDENTIAL', name = 'Planner') {
  return registerApp(admin, { name, redirectUris: [redirectUri], clientType });
}

/** openid-client's configuration for the app against the listening server (plain http on loopback). */
export async function relyingParty(origin: string, app: AppKeys, clientType: 'PUBLIC' | 'CONFIDENTIAL') {
  return client.discovery(
    new URL(origin),
    app.consumerKey,
    undefined,
    clientType === 'PUBLIC' ? client.None() : client.ClientSecretBasic(app.consumerSecret),
    { execute: [client.allowInsecureRequests] },
  );
}

/** What a front end keeps between sending the user off and their return: the PKCE verifier, state and nonce. */
export interface PendingAuthorization {
  url: URL;
  verifier: string;
  state: string;
  nonce: string;
}

export async function startAuthorization(
  config: client.Configuration,
  extra: Record<string, string> = {},
): Promise<PendingAuthorization> {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid profile email offline_access',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...extra,
  });
  return { url, verifier, state, nonce };
}

/**
 * A browser without JavaScript: one cookie jar for the server (cookies are read by name, the server is one host),
 * redirects followed by hand so that each stop can be checked.
 */
export class Browser {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly origin: string) {}

  private keep(response: Response) {
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const at = pair!.indexOf('=');
      const [name, value] = [pair!.slice(0, at), pair!.slice(at + 1)];
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(header)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  private get cookieHeader() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async request(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url, this.origin);
    const response = await fetch(target, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: this.cookieHeader },
    });
    this.keep(response);
    return response;
  }

  post(url: string | URL, fields: Record<string, string>) {
    return this.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields),
    });
  }

  /**
   * Follows redirects on this server from `url`: the last response when it is a page (not a redirect), or the URL a
   * redirect leaves the server for (the app's redirect URI).
   */
  async follow(url: string | URL, first?: Response): Promise<{ page: Response } | { left: URL }> {
    let response = first ?? (await this.request(url));
    let at = new URL(url, this.origin);
    for (let hops = 0; hops < 20; hops += 1) {
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return { page: response };
      at = new URL(location, at);
      if (at.origin !== this.origin) return { left: at };
      response = await this.request(at);
    }
    throw new Error('too many redirects');
  }

  /** Signs in through the sign-in page the flow arrived at (a page response at /sign-in). */
  async signIn(page: Response, identifier: string, password: string) {
    const body = await page.text();
    const csrf = /name="csrf" value="([^"]*)"/.exec(body)?.[1] ?? '';
    const returnTo = new URL(page.url).searchParams.get('return_to') ?? '/';
    const answer = await this.post('/sign-in', { csrf, identifier, password, return_to: returnTo });
    expect(answer.status).toBe(303);
    return this.follow(answer.headers.get('location')!, undefined);
  }

  /** Answers a consent page. */
  async answer(page: Response, decision: 'approve' | 'deny') {
    const body = await page.text();
    expect(body).toContain('wants to act for you');
    const csrf = /name="csrf" value="([^"]*)"/.exec(body)?.[1] ?? '';
    const action = /<form method="post" action="([^"]*)"/.exec(body)?.[1] ?? '';
    return this.follow(action, await this.post(action, { csrf, decision }));
  }
}

/** The URL a flow left the server for, or fails naming the page it stopped at. */
export async function leftFor(outcome: { page: Response } | { left: URL }): Promise<URL> {
  if ('left' in outcome) return outcome.left;
  throw new Error(
    `stopped at ${outcome.page.url} (${outcome.page.status}): ${(await outcome.page.text()).slice(0, 300)}`,
  );
}

/** The page a flow stopped at, or fails naming where it left for. */
export function pageOf(outcome: { page: Response } | { left: URL }): Response {
  if ('page' in outcome) return outcome.page;
  throw new Error(`left the server for ${outcome.left.href}`);
}

/** A browser signed in to Lectern as the user (through the sign-in page). */
export async function signedInBrowser(origin: string, username: string, password: string): Promise<Browser> {
  const browser = new Browser(origin);
  const page = pageOf(await browser.follow('/sign-in?return_to=/sign-in'));
  await browser.signIn(page, username, password);
  return browser;
}

/** GraphQL `viewer` with a Bearer token over HTTP: the viewer's database id, or the status of a refusal. */
export async function viewerWith(origin: string, token: string): Promise<string | number> {
  const response = await fetch(`${origin}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ viewer { databaseId } }' }),
  });
  if (response.status !== 200) return response.status;
  return (await response.json()).data.viewer.databaseId;
}
