// OAuth 1.0a (RFC 5849) as Schoology's /v1 API speaks it: parsing the
// Authorization header, building the signature base string, and verifying
// PLAINTEXT and HMAC-SHA1 signatures. Pure functions: nonce storage, consumer lookup
// and the choice of URL to verify against belong to the caller.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export type OAuthErrorReason = 'missing' | 'malformed' | 'unsupported_method' | 'bad_signature' | 'expired';

export class OAuthError extends Error {
  constructor(
    message: string,
    readonly reason: OAuthErrorReason,
  ) {
    super(message);
    this.name = 'OAuthError';
  }
}

export type SignatureMethod = 'PLAINTEXT' | 'HMAC-SHA1';

export interface OAuthCredentials {
  consumerKey: string;
  /** '' when the client sent an empty oauth_token or none at all. */
  token: string;
  nonce: string;
  timestamp: number;
  /** Normalized to upper case; `params.oauth_signature_method` keeps the form the client signed. */
  signatureMethod: SignatureMethod;
  signature: string;
  version?: string;
  /** Every oauth_* header parameter, percent-decoded, excluding realm. */
  params: Record<string, string>;
}

/** Nonces are stored until their timestamp expires; clients send 32 characters or fewer (a hex or base64 random). */
export const maxNonceLength = 64;

const REQUIRED_PARAMS = [
  'oauth_consumer_key',
  'oauth_signature_method',
  'oauth_signature',
  'oauth_nonce',
  'oauth_timestamp',
] as const;

/** RFC 5849 §3.6: everything but A-Z a-z 0-9 - . _ ~ becomes %XX (UTF-8, upper-case hex). */
export function percentEncode(value: string): string {
  // encodeURIComponent also leaves ! ' ( ) * alone, which RFC 5849 requires encoded.
  return encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

function percentDecode(value: string, what: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new OAuthError(`Authorization header: ${what} is not valid percent-encoding`, 'malformed');
  }
}

// One `name=value` or `name="value"` pair and the commas or whitespace after it: clients differ
// on quoting and on `,` versus `, ` between parameters.
const HEADER_PARAM = /\s*([^\s=,]+)\s*=\s*(?:"([^"]*)"|([^\s,"]*))(?:[\s,]+|$)/y;

/**
 * Parses `Authorization: OAuth ...`. Returns null when there is no header or it uses another
 * scheme (the caller may accept other schemes); throws OAuthError when it is OAuth but unusable.
 */
export function parseOAuthHeader(header: string | null): OAuthCredentials | null {
  if (header === null) return null;
  const scheme = /^\s*OAuth(?:\s+|$)/i.exec(header);
  if (!scheme) return null;

  const params: Record<string, string> = {};
  const body = header.slice(scheme[0].length).trimEnd();
  HEADER_PARAM.lastIndex = 0;
  while (HEADER_PARAM.lastIndex < body.length) {
    const start = HEADER_PARAM.lastIndex;
    const match = HEADER_PARAM.exec(body);
    if (!match) {
      throw new OAuthError(
        `Authorization header: cannot parse parameters at "${body.slice(start, start + 20)}"`,
        'malformed',
      );
    }
    const name = percentDecode(match[1]!, 'a parameter name');
    // realm is not signed (§3.4.1.3.1), and any value is fine; other non-oauth_ names are ignored.
    if (!name.startsWith('oauth_')) continue;
    if (name in params) throw new OAuthError(`Authorization header: ${name} appears twice`, 'malformed');
    const value = percentDecode(match[2] ?? match[3]!, name);
    // No client signs a NUL, and PostgreSQL cannot store one: refused here rather than failing the nonce insert.
    if (value.includes('\0'))
      throw new OAuthError(`Authorization header: ${name} contains a NUL character`, 'malformed');
    params[name] = value;
  }

  const missing = REQUIRED_PARAMS.filter((name) => !params[name]);
  if (missing.length > 0) {
    throw new OAuthError(`Authorization header: missing ${missing.join(', ')}`, 'malformed');
  }
  if (params.oauth_nonce!.length > maxNonceLength) {
    throw new OAuthError(`Authorization header: oauth_nonce is longer than ${maxNonceLength} characters`, 'malformed');
  }
  const timestampText = params.oauth_timestamp!;
  const timestamp = Number(timestampText);
  if (!/^\d+$/.test(timestampText) || !Number.isSafeInteger(timestamp)) {
    throw new OAuthError('Authorization header: oauth_timestamp must be an integer number of seconds', 'malformed');
  }
  const signatureMethod = params.oauth_signature_method!.toUpperCase();
  if (signatureMethod !== 'PLAINTEXT' && signatureMethod !== 'HMAC-SHA1') {
    throw new OAuthError(
      `Unsupported oauth_signature_method "${params.oauth_signature_method}": use HMAC-SHA1 or PLAINTEXT`,
      'unsupported_method',
    );
  }
  const version = params.oauth_version;
  if (version !== undefined && version !== '1.0') {
    throw new OAuthError(`Authorization header: oauth_version must be "1.0", got "${version}"`, 'malformed');
  }

  return {
    consumerKey: params.oauth_consumer_key!,
    token: params.oauth_token ?? '',
    nonce: params.oauth_nonce!,
    timestamp,
    signatureMethod,
    signature: params.oauth_signature!,
    ...(version === undefined ? {} : { version }),
    params,
  };
}

/**
 * RFC 5849 §3.4.1: `METHOD&enc(base URL)&enc(normalized parameters)`. The parameters are the
 * URL's query plus the given oauth_* parameters minus oauth_signature; bodies are never signed.
 */
export function signatureBaseString(method: string, url: string, oauthParams: Record<string, string>): string {
  const parsed = new URL(url);
  // WHATWG URL already lower-cases scheme and host and drops the scheme's default port.
  const baseUrl = `${parsed.protocol}//${parsed.host}${parsed.pathname}`;

  // URLSearchParams decodes as application/x-www-form-urlencoded (so `+` is a space), as §3.4.1.3.1 says.
  const pairs = [...parsed.searchParams, ...Object.entries(oauthParams)]
    .filter(([name]) => name !== 'oauth_signature')
    .map(([name, value]) => [percentEncode(name), percentEncode(value)] as const)
    .sort(([nameA, valueA], [nameB, valueB]) => compareAscii(nameA, nameB) || compareAscii(valueA, valueB));
  const normalized = pairs.map(([name, value]) => `${name}=${value}`).join('&');

  return [method.toUpperCase(), percentEncode(baseUrl), percentEncode(normalized)].join('&');
}

// Encoded strings are pure ASCII, so code-unit order is the byte order RFC 5849 sorts by.
function compareAscii(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Checks the signature with the consumer's secret and the token's: empty for two legs, the request or access token's
 * secret for three (src/auth/oauth1-tokens.ts). `request.url` is one URL the client may have called; the caller
 * chooses the candidates and tries each.
 */
export function verifySignature(
  creds: OAuthCredentials,
  request: { method: string; url: string },
  consumerSecret: string,
  tokenSecret = '',
): boolean {
  if (creds.signatureMethod === 'PLAINTEXT')
    return plaintextCandidates(consumerSecret, tokenSecret).some((expected) =>
      constantTimeEqual(expected, creds.signature),
    );
  const key = `${percentEncode(consumerSecret)}&${percentEncode(tokenSecret)}`;
  // Each variant is signed only when the ones before it did not match: most requests match the first.
  return baseStringVariants(creds, request).some((baseString) =>
    sameSignature(hmacSha1(baseString(), key), creds.signature),
  );
}

// The signature is `enc(secret)&enc(token secret)` (§3.4.4); clients differ on whether they encode the secrets and
// on whether the `&` survived a second round of header encoding as `%26` (schoolopy sends `secret%26tokensecret`).
function plaintextCandidates(consumerSecret: string, tokenSecret: string): string[] {
  const secretForms = new Set([percentEncode(consumerSecret), consumerSecret]);
  const tokenForms = new Set([percentEncode(tokenSecret), tokenSecret]);
  return [...secretForms].flatMap((secret) =>
    [...tokenForms].flatMap((token) => [`${secret}&${token}`, `${secret}%26${token}`]),
  );
}

// With an empty token, some clients sign `oauth_token=` and others leave it out: accept either.
function baseStringVariants(creds: OAuthCredentials, request: { method: string; url: string }): (() => string)[] {
  const signed = (params: Record<string, string>) => () => signatureBaseString(request.method, request.url, params);
  if (creds.token !== '') return [signed(creds.params)];
  const withoutToken = Object.fromEntries(Object.entries(creds.params).filter(([name]) => name !== 'oauth_token'));
  // The empty token named first, the parameters spread after it (docs/adding-a-resource.md: young garbage); the
  // base string sorts them by name.
  return [signed({ oauth_token: '', ...withoutToken }), signed(withoutToken)];
}

function hmacSha1(baseString: string, key: string): string {
  return createHmac('sha1', key).update(baseString).digest('base64');
}

// An HMAC-SHA1 signature is 28 characters of base64 whatever the secret, so its length tells nothing and is compared
// first; only a PLAINTEXT signature, which is the secret, needs its length hidden (constantTimeEqual).
function sameSignature(expected: string, received: string): boolean {
  const [ours, theirs] = [Buffer.from(expected), Buffer.from(received)];
  return ours.length === theirs.length && timingSafeEqual(ours, theirs);
}

// Hashing both sides first gives timingSafeEqual equal-length inputs and hides the expected length.
function constantTimeEqual(expected: string, received: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(expected), digest(received));
}

/** Throws OAuthError('expired') when the client's clock is more than `skewSeconds` off ours. */
export function assertFreshTimestamp(timestamp: number, nowSeconds: number, skewSeconds: number): void {
  if (Math.abs(timestamp - nowSeconds) > skewSeconds) {
    throw new OAuthError(
      `oauth_timestamp ${timestamp} is more than ${skewSeconds}s from the server time ${nowSeconds}`,
      'expired',
    );
  }
}
