import { createHmac } from 'node:crypto';
import OAuth from 'oauth-1.0a';
import { describe, expect, it } from 'vitest';
import {
  assertFreshTimestamp,
  OAuthError,
  parseOAuthHeader,
  signatureBaseString,
  verifySignature,
  type OAuthCredentials,
} from '../../src/auth/oauth.js';

// Requests are signed by oauth-1.0a, an independent client library, so the server code is
// checked against what real clients send rather than against itself.

const KEY = 'lectern-consumer-key';
const SECRET = 'lectern-consumer-secret';
const ODD_KEY = 'key:a+b/c=d&e';
const ODD_SECRET = 'a+b/c=d&e';
const USERS_URL = 'https://lectern.test/v1/users';

type SignatureMethod = 'HMAC-SHA1' | 'PLAINTEXT';

interface ClientOptions {
  signatureMethod?: SignatureMethod;
  key?: string;
  secret?: string;
  realm?: string;
  separator?: string;
}

function oauthClient({
  signatureMethod = 'HMAC-SHA1',
  key = KEY,
  secret = SECRET,
  realm,
  separator,
}: ClientOptions = {}) {
  return new OAuth({
    consumer: { key, secret },
    signature_method: signatureMethod,
    ...(signatureMethod === 'HMAC-SHA1'
      ? {
          hash_function: (base: string, signingKey: string) =>
            createHmac('sha1', signingKey).update(base).digest('base64'),
        }
      : {}),
    ...(realm === undefined ? {} : { realm }),
    ...(separator === undefined ? {} : { parameter_seperator: separator }),
  });
}

/** The oauth_* values a client would send; `token` is the two-legged empty-secret token, if any. */
function sign(method: string, url: string, options: ClientOptions & { token?: string } = {}): OAuth.Authorization {
  const token = options.token === undefined ? undefined : { key: options.token, secret: '' };
  return oauthClient(options).authorize({ method, url }, token);
}

/** Authorization header exactly as oauth-1.0a builds it (percent-encoded, quoted). */
function signedHeader(method: string, url: string, options: ClientOptions & { token?: string } = {}): string {
  const client = oauthClient(options);
  const token = options.token === undefined ? undefined : { key: options.token, secret: '' };
  return client.toHeader(client.authorize({ method, url }, token)).Authorization;
}

/** Authorization header with values neither encoded nor quoted, as some hand-rolled clients send. */
function rawHeader(params: object, separator = ', '): string {
  const entries = Object.entries(params) as [string, string | number | undefined][];
  const pairs = entries.flatMap(([name, value]) => (value === undefined ? [] : [`${name}=${value}`]));
  return `OAuth ${pairs.join(separator)}`;
}

function verifies(header: string, method: string, url: string, secret = SECRET): boolean {
  const creds = parseOAuthHeader(header);
  expect(creds).not.toBeNull();
  return verifySignature(creds!, { method, url }, secret);
}

function oauthErrorReason(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(OAuthError);
    return (error as OAuthError).reason;
  }
  throw new Error('expected an OAuthError');
}

describe('parseOAuthHeader', () => {
  const complete = {
    oauth_consumer_key: 'ck',
    oauth_signature_method: 'HMAC-SHA1',
    oauth_signature: 'c2ln',
    oauth_nonce: 'n1',
    oauth_timestamp: '1700000000',
  };

  it('returns null without an OAuth Authorization header', () => {
    expect(parseOAuthHeader(null)).toBeNull();
    expect(parseOAuthHeader('')).toBeNull();
    expect(parseOAuthHeader('Bearer abc.def')).toBeNull();
    expect(parseOAuthHeader('Basic dXNlcjpwYXNz')).toBeNull();
    expect(parseOAuthHeader('OAuthish oauth_nonce="x"')).toBeNull();
  });

  it('decodes every value and keeps realm out of the params', () => {
    const creds = parseOAuthHeader(
      'OAuth realm="Schoology%20API", oauth_consumer_key="key%3Aa%2Bb%2Fc%3Dd%26e", oauth_token="", ' +
        'oauth_nonce="abc", oauth_timestamp="1700000000", oauth_signature_method="HMAC-SHA1", ' +
        'oauth_version="1.0", oauth_signature="tR3%2BTy81lMeYAr%2FFid0kMTYa%2FWM%3D"',
    );
    expect(creds).toEqual<OAuthCredentials>({
      consumerKey: ODD_KEY,
      token: '',
      nonce: 'abc',
      timestamp: 1700000000,
      signatureMethod: 'HMAC-SHA1',
      signature: 'tR3+Ty81lMeYAr/Fid0kMTYa/WM=',
      version: '1.0',
      params: {
        oauth_consumer_key: ODD_KEY,
        oauth_token: '',
        oauth_nonce: 'abc',
        oauth_timestamp: '1700000000',
        oauth_signature_method: 'HMAC-SHA1',
        oauth_version: '1.0',
        oauth_signature: 'tR3+Ty81lMeYAr/Fid0kMTYa/WM=',
      },
    });
  });

  it('accepts a lower-case scheme, unquoted values, and any commas or whitespace between parameters', () => {
    const header =
      'oauth oauth_consumer_key=ck,oauth_signature_method="hmac-sha1" ,\toauth_signature=c2ln,\r\n ' +
      'oauth_nonce="n1",,oauth_timestamp=1700000000,';
    const creds = parseOAuthHeader(header)!;
    expect(creds.consumerKey).toBe('ck');
    expect(creds.signatureMethod).toBe('HMAC-SHA1');
    // The base string needs the method exactly as the client signed it.
    expect(creds.params.oauth_signature_method).toBe('hmac-sha1');
    expect(creds.token).toBe('');
    expect(creds.version).toBeUndefined();
    expect('oauth_token' in creds.params).toBe(false);
  });

  it.each(Object.keys(complete))('is malformed without %s', (missing) => {
    const header = rawHeader({ ...complete, [missing]: undefined });
    expect(oauthErrorReason(() => parseOAuthHeader(header))).toBe('malformed');
  });

  it('is malformed when a required value is empty or there are no parameters', () => {
    expect(oauthErrorReason(() => parseOAuthHeader(rawHeader({ ...complete, oauth_signature: '""' })))).toBe(
      'malformed',
    );
    expect(oauthErrorReason(() => parseOAuthHeader('OAuth'))).toBe('malformed');
    expect(oauthErrorReason(() => parseOAuthHeader('OAuth   '))).toBe('malformed');
  });

  it.each(['17e8', '12.5', '-5', 'soon', '99999999999999999999'])(
    'is malformed with oauth_timestamp=%s',
    (timestamp) => {
      const header = rawHeader({ ...complete, oauth_timestamp: timestamp });
      expect(oauthErrorReason(() => parseOAuthHeader(header))).toBe('malformed');
    },
  );

  it('is malformed with an oauth_version other than 1.0', () => {
    expect(oauthErrorReason(() => parseOAuthHeader(rawHeader({ ...complete, oauth_version: '2.0' })))).toBe(
      'malformed',
    );
  });

  it('is malformed with unparsable syntax, a repeated parameter, or a broken percent-escape', () => {
    const header = rawHeader(complete);
    expect(oauthErrorReason(() => parseOAuthHeader(`${header}, oauth_nonce="n2"`))).toBe('malformed');
    expect(oauthErrorReason(() => parseOAuthHeader(`${header}, garbage`))).toBe('malformed');
    expect(oauthErrorReason(() => parseOAuthHeader(`${header}, oauth_callback="unterminated`))).toBe('malformed');
    expect(oauthErrorReason(() => parseOAuthHeader(rawHeader({ ...complete, oauth_nonce: '100%' })))).toBe('malformed');
  });

  it('accepts a nonce of 64 characters and refuses a longer one, naming it', () => {
    expect(parseOAuthHeader(rawHeader({ ...complete, oauth_nonce: 'n'.repeat(64) }))!.nonce).toHaveLength(64);
    const header = rawHeader({ ...complete, oauth_nonce: 'n'.repeat(65) });
    expect(oauthErrorReason(() => parseOAuthHeader(header))).toBe('malformed');
    expect(() => parseOAuthHeader(header)).toThrow('Authorization header: oauth_nonce is longer than 64 characters');
  });

  it.each(['oauth_nonce', 'oauth_consumer_key', 'oauth_signature', 'oauth_token', 'oauth_callback'])(
    'refuses a NUL character in %s, which PostgreSQL cannot store',
    (name) => {
      const header = rawHeader({ ...complete, [name]: '"a%00b"' });
      expect(oauthErrorReason(() => parseOAuthHeader(header))).toBe('malformed');
      expect(() => parseOAuthHeader(header)).toThrow(`Authorization header: ${name} contains a NUL character`);
    },
  );

  it('rejects signature methods other than PLAINTEXT and HMAC-SHA1', () => {
    for (const method of ['RSA-SHA1', 'HMAC-SHA256', 'none']) {
      const header = rawHeader({ ...complete, oauth_signature_method: method });
      expect(oauthErrorReason(() => parseOAuthHeader(header))).toBe('unsupported_method');
    }
    expect(parseOAuthHeader(rawHeader({ ...complete, oauth_signature_method: 'plaintext' }))!.signatureMethod).toBe(
      'PLAINTEXT',
    );
  });
});

describe('signatureBaseString against published examples', () => {
  it('matches OAuth Core 1.0a Appendix A.5.1 and its HMAC-SHA1 signature from A.5.2', () => {
    const params = {
      oauth_consumer_key: 'dpf43f3p2l4k3l03',
      oauth_token: 'nnch734d00sl2jdk',
      oauth_signature_method: 'HMAC-SHA1',
      oauth_timestamp: '1191242096',
      oauth_nonce: 'kllo9940pd9333jh',
      oauth_version: '1.0',
    };
    const base = signatureBaseString('GET', 'http://photos.example.net/photos?file=vacation.jpg&size=original', params);
    expect(base).toBe(
      'GET&http%3A%2F%2Fphotos.example.net%2Fphotos&file%3Dvacation.jpg%26oauth_consumer_key%3Ddpf43f3p2l4k3l03' +
        '%26oauth_nonce%3Dkllo9940pd9333jh%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1191242096' +
        '%26oauth_token%3Dnnch734d00sl2jdk%26oauth_version%3D1.0%26size%3Doriginal',
    );
    // The example is three-legged, so the key carries a token secret that verifySignature never uses.
    const signature = createHmac('sha1', 'kd94hf93k423kf44&pfkkdhi9sl3r4s00').update(base).digest('base64');
    expect(signature).toBe('tR3+Ty81lMeYAr/Fid0kMTYa/WM=');
  });

  it('matches RFC 5849 §3.4.1.1 for the query and header parameters (its form-body pairs a3=2 q and c2 removed)', () => {
    const base = signatureBaseString('post', 'http://EXAMPLE.com:80/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b#ignored', {
      oauth_consumer_key: '9djdj82h48djs9d2',
      oauth_token: 'kkk9d7dh3k39sjv7',
      oauth_signature_method: 'HMAC-SHA1',
      oauth_timestamp: '137131201',
      oauth_nonce: '7d8f3e4a',
      oauth_signature: 'bYT5CMsGcbgUdFHObYMEfcx6bsw=',
    });
    expect(base).toBe(
      'POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D' +
        '%26oauth_consumer_key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_method%3DHMAC-SHA1' +
        '%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk9d7dh3k39sjv7',
    );
  });
});

describe('signatureBaseString', () => {
  it('keeps a non-default port and the path case, and sorts repeated names by value', () => {
    const base = signatureBaseString('GET', 'HTTPS://Lectern.TEST:8443/v1/Users?b=2&a=z&a=y', { oauth_nonce: 'n' });
    expect(base).toBe('GET&https%3A%2F%2Flectern.test%3A8443%2Fv1%2FUsers&a%3Dy%26a%3Dz%26b%3D2%26oauth_nonce%3Dn');
  });

  it('reads + in the query as a space, as form decoding does', () => {
    expect(signatureBaseString('GET', 'https://lectern.test/search?q=a+b', {})).toBe(
      signatureBaseString('GET', 'https://lectern.test/search?q=a%20b', {}),
    );
  });
});

describe('verifySignature with HMAC-SHA1 requests signed by oauth-1.0a', () => {
  it('accepts a GET without oauth_token', () => {
    const header = signedHeader('GET', USERS_URL);
    expect(header).not.toContain('oauth_token');
    expect(verifies(header, 'GET', USERS_URL)).toBe(true);
  });

  it('accepts a URL with query parameters', () => {
    const url = `${USERS_URL}?start=0&limit=20`;
    expect(verifies(signedHeader('GET', url), 'GET', url)).toBe(true);
  });

  it("accepts query values with characters RFC 5849 encodes but encodeURIComponent leaves alone (! ' ( ) *)", () => {
    const url = `${USERS_URL}?q=${encodeURIComponent("it's (really)* great!")}&tag=%C3%A9t%C3%A9`;
    expect(verifies(signedHeader('GET', url), 'GET', url)).toBe(true);
  });

  it('accepts a POST, whose JSON body is not signed', () => {
    const header = signedHeader('POST', 'https://lectern.test/v1/sections/12/assignments');
    expect(verifies(header, 'POST', 'https://lectern.test/v1/sections/12/assignments')).toBe(true);
  });

  it('accepts an empty oauth_token in the header', () => {
    const header = signedHeader('GET', USERS_URL, { token: '' });
    expect(header).toContain('oauth_token=""');
    expect(verifies(header, 'GET', USERS_URL)).toBe(true);
  });

  it('accepts a non-empty oauth_token signed with an empty token secret', () => {
    expect(verifies(signedHeader('GET', USERS_URL, { token: 'tok-1' }), 'GET', USERS_URL)).toBe(true);
  });

  it('accepts an empty token whether or not the client put it in its base string', () => {
    const signedWithEmptyToken = sign('GET', USERS_URL, { token: '' });
    const { oauth_token: _dropped, ...headerWithoutToken } = signedWithEmptyToken;
    expect(verifies(rawHeader(headerWithoutToken), 'GET', USERS_URL)).toBe(true);

    const signedWithoutToken = sign('GET', USERS_URL);
    expect(verifies(rawHeader({ ...signedWithoutToken, oauth_token: '""' }), 'GET', USERS_URL)).toBe(true);
  });

  it.each([
    ['realm and ", "', { realm: 'Schoology API', separator: ', ' }],
    ['realm and ","', { realm: 'https://api.schoology.com/', separator: ',' }],
    ['no realm and ","', { separator: ',' }],
  ])('accepts %s', (_label, options: ClientOptions) => {
    const header = signedHeader('GET', USERS_URL, options);
    expect(header.includes('realm=')).toBe(options.realm !== undefined);
    expect(verifies(header, 'GET', USERS_URL)).toBe(true);
  });

  it('accepts raw (unencoded) values, quoted or not', () => {
    const url = `${USERS_URL}?start=0&limit=20`;
    // Base64 signatures contain + / =: sent raw, they must survive decoding unchanged.
    const params = sign('GET', url, { key: ODD_KEY, secret: ODD_SECRET });
    expect(verifies(rawHeader(params, ','), 'GET', url, ODD_SECRET)).toBe(true);
    const quoted = Object.fromEntries(Object.entries(params).map(([name, value]) => [name, `"${value}"`]));
    expect(verifies(rawHeader(quoted), 'GET', url, ODD_SECRET)).toBe(true);
  });

  it('accepts a consumer key and secret that need percent-encoding', () => {
    const header = signedHeader('GET', USERS_URL, { key: ODD_KEY, secret: ODD_SECRET });
    expect(verifies(header, 'GET', USERS_URL, ODD_SECRET)).toBe(true);
    expect(parseOAuthHeader(header)!.consumerKey).toBe(ODD_KEY);
  });

  it('rejects the wrong secret', () => {
    expect(verifies(signedHeader('GET', USERS_URL), 'GET', USERS_URL, 'another-secret')).toBe(false);
    expect(verifies(signedHeader('GET', USERS_URL, { secret: ODD_SECRET }), 'GET', USERS_URL, 'a+b/c=d&f')).toBe(false);
  });

  it('rejects a tampered method, host, path, or query', () => {
    const url = `${USERS_URL}?start=0&limit=20`;
    const header = signedHeader('GET', url);
    expect(verifies(header, 'GET', url)).toBe(true);
    for (const [method, tampered] of [
      ['DELETE', url],
      ['GET', 'https://evil.test/v1/users?start=0&limit=20'],
      ['GET', 'http://lectern.test/v1/users?start=0&limit=20'],
      ['GET', 'https://lectern.test/v1/users/1?start=0&limit=20'],
      ['GET', `${USERS_URL}?start=0&limit=200`],
      ['GET', `${USERS_URL}?start=0&limit=20&admin=1`],
      ['GET', `${USERS_URL}?start=0`],
    ] as const) {
      expect(verifies(header, method, tampered), `${method} ${tampered}`).toBe(false);
    }
  });

  it('rejects tampered signed oauth parameters', () => {
    const params = sign('GET', USERS_URL);
    expect(verifies(rawHeader(params), 'GET', USERS_URL)).toBe(true);
    expect(verifies(rawHeader({ ...params, oauth_nonce: 'replayed-nonce' }), 'GET', USERS_URL)).toBe(false);
    expect(verifies(rawHeader({ ...params, oauth_timestamp: params.oauth_timestamp + 1 }), 'GET', USERS_URL)).toBe(
      false,
    );
    expect(verifies(rawHeader({ ...params, oauth_token: 'someone-else' }), 'GET', USERS_URL)).toBe(false);
  });

  it('rejects a signature of another length, or of characters beyond ASCII, without failing', () => {
    const params = sign('GET', USERS_URL);
    const signature = decodeURIComponent(params.oauth_signature);
    expect(signature).toHaveLength(28);
    for (const other of [signature.slice(1), `${signature}A`, `é${signature.slice(1)}`, '€'.repeat(28)]) {
      expect(
        verifies(rawHeader({ ...params, oauth_signature: encodeURIComponent(other) }), 'GET', USERS_URL),
        other,
      ).toBe(false);
    }
  });

  it('rejects an HMAC-SHA1 signature presented as PLAINTEXT', () => {
    const params = sign('GET', USERS_URL);
    expect(verifies(rawHeader({ ...params, oauth_signature_method: 'PLAINTEXT' }), 'GET', USERS_URL)).toBe(false);
  });
});

describe('verifySignature with PLAINTEXT', () => {
  // oauth-1.0a sends enc(enc(secret)&), so a plain secret arrives on the wire as `SECRET%26`.
  it('accepts oauth-1.0a PLAINTEXT (SECRET%26 on the wire)', () => {
    const header = signedHeader('GET', USERS_URL, { signatureMethod: 'PLAINTEXT', token: '' });
    expect(header).toContain(`oauth_signature="${SECRET}%26"`);
    expect(verifies(header, 'GET', USERS_URL)).toBe(true);
  });

  it('accepts SECRET& sent raw and SECRET%2526 sent double-encoded', () => {
    const params = sign('GET', USERS_URL, { signatureMethod: 'PLAINTEXT' });
    expect(verifies(rawHeader({ ...params, oauth_signature: `"${SECRET}&"` }), 'GET', USERS_URL)).toBe(true);
    expect(verifies(rawHeader({ ...params, oauth_signature: `"${SECRET}%2526"` }), 'GET', USERS_URL)).toBe(true);
  });

  it('accepts a secret that needs percent-encoding, encoded or raw', () => {
    const header = signedHeader('GET', USERS_URL, { signatureMethod: 'PLAINTEXT', key: ODD_KEY, secret: ODD_SECRET });
    expect(verifies(header, 'GET', USERS_URL, ODD_SECRET)).toBe(true);
    const params = sign('GET', USERS_URL, { signatureMethod: 'PLAINTEXT', secret: ODD_SECRET });
    expect(verifies(rawHeader({ ...params, oauth_signature: `"${ODD_SECRET}&"` }), 'GET', USERS_URL, ODD_SECRET)).toBe(
      true,
    );
  });

  it('rejects the wrong secret, a missing &, and a near miss', () => {
    const params = sign('GET', USERS_URL, { signatureMethod: 'PLAINTEXT' });
    expect(verifies(rawHeader(params), 'GET', USERS_URL, 'another-secret')).toBe(false);
    expect(verifies(rawHeader({ ...params, oauth_signature: SECRET }), 'GET', USERS_URL)).toBe(false);
    expect(verifies(rawHeader({ ...params, oauth_signature: `"${SECRET}x&"` }), 'GET', USERS_URL)).toBe(false);
  });
});

describe('assertFreshTimestamp', () => {
  it('accepts timestamps within the skew, boundaries included', () => {
    expect(() => assertFreshTimestamp(1000, 1000, 300)).not.toThrow();
    expect(() => assertFreshTimestamp(700, 1000, 300)).not.toThrow();
    expect(() => assertFreshTimestamp(1300, 1000, 300)).not.toThrow();
  });

  it('rejects timestamps outside the skew as expired', () => {
    expect(oauthErrorReason(() => assertFreshTimestamp(699, 1000, 300))).toBe('expired');
    expect(oauthErrorReason(() => assertFreshTimestamp(1301, 1000, 300))).toBe('expired');
  });
});
