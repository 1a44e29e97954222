import { createHmac } from 'node:crypto';
import * as client from 'openid-client';
import { decryptSecret, encryptSecret } from '../auth/secrets';
import type { OidcProviderSettings } from '../config';
import { db } from '../db/database';

/**
 * What the callback of an upstream sign-in needs from the redirect that started it: the checks openid-client makes
 * (state, nonce, PKCE verifier) and where to go afterwards. Kept in the browser, sealed, for `pendingLifetimeSeconds`.
 */
export interface PendingSignIn {
  provider: string;
  state: string;
  nonce: string;
  codeVerifier: string;
  returnTo: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

export const pendingCookie = 'lectern_oidc';

/** Time to sign in at the provider, consent screens included. */
export const pendingLifetimeSeconds = 600;

// A key of its own, derived from the server key, so that a sealed cookie can never be taken for another sealed value
// (an encrypted consumer secret) or the other way round.
const sealingKey = (serverKey: Buffer) =>
  createHmac('sha256', serverKey).update('lectern oidc upstream pending sign-in').digest();

/** The cookie value: AES-256-GCM under a key of the server's, so the browser can neither read nor alter it. */
export const sealPending = (pending: PendingSignIn, serverKey: Buffer): string =>
  encryptSecret(JSON.stringify(pending), sealingKey(serverKey));

/** The pending sign-in a cookie holds; null when it is missing, altered, sealed under another key, or expired. */
export function openPending(sealed: string | null, serverKey: Buffer): PendingSignIn | null {
  if (!sealed) return null;
  let pending: Partial<PendingSignIn>;
  try {
    pending = JSON.parse(decryptSecret(sealed, sealingKey(serverKey)));
  } catch {
    return null;
  }
  const texts = [pending.provider, pending.state, pending.nonce, pending.codeVerifier, pending.returnTo];
  if (!texts.every((text) => typeof text === 'string') || typeof pending.expiresAt !== 'number') return null;
  return pending.expiresAt > Date.now() ? (pending as PendingSignIn) : null;
}

/**
 * Each provider's configuration, discovered from its issuer (`/.well-known/openid-configuration`) on first use and
 * kept for the life of the process. A discovery that fails is forgotten, so the next click asks again rather than the
 * server refusing to start over a provider that is down.
 */
export function createIssuerDirectory(): (provider: OidcProviderSettings) => Promise<client.Configuration> {
  const discovered = new Map<string, Promise<client.Configuration>>();
  return (provider) => {
    let configuration = discovered.get(provider.id);
    if (!configuration) {
      configuration = client.discovery(provider.issuer, provider.clientId, provider.clientSecret, undefined, {
        // Plain http is allowed for a provider on this machine only (src/config.ts).
        execute: provider.issuer.protocol === 'http:' ? [client.allowInsecureRequests] : [],
        timeout: 10,
      });
      discovered.set(provider.id, configuration);
      configuration.catch(() => discovered.delete(provider.id));
    }
    return configuration;
  };
}

/**
 * Whether the provider vouches for the email address: `email_verified` is true. Entra sends no `email_verified`;
 * there its optional `xms_edov` claim (the address's domain is verified by the tenant) stands in, and without either
 * the address is not trusted (docs/sign-in.md#signing-in-with-the-schools-identity-provider).
 */
function emailIsVerified(claims: Record<string, unknown>): boolean {
  if ('email_verified' in claims) return claims.email_verified === true;
  return claims.xms_edov === true;
}

/**
 * The user the provider's claims name: the one active user of the provider's district whose email address is the
 * verified `email` claim, in any case. None, several, or an unverified address: null.
 */
export async function userForClaims(claims: Record<string, unknown>, districtId: number): Promise<number | null> {
  const email = typeof claims.email === 'string' ? claims.email.trim() : '';
  if (!email || !emailIsVerified(claims)) return null;
  const users = await db().user.findMany({
    where: { email: { equals: email, mode: 'insensitive' }, deactivatedAt: null, school: { districtId } },
    select: { id: true },
    take: 2,
  });
  return users.length === 1 ? users[0]!.id : null;
}

/** Whether an error of openid-client means the provider could not be reached, rather than that it said no. */
export const isUnreachable = (error: unknown): boolean =>
  error instanceof TypeError || (error instanceof Error && ['TimeoutError', 'AbortError'].includes(error.name));
