import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { useTestServer } from '../support/harness';

const app = 'https://app.example.org';
const other = 'https://tools.example.net';
const server = useTestServer({ CORS_ORIGINS: `${app}, ${other}` });

const preflight = (path: string, origin: string, method = 'POST') =>
  server.fetch(path, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'authorization, content-type',
    },
  });

describe('CORS_ORIGINS', () => {
  it('lets the listed origins call /graphql and /v1 alike, preflight cached for a day, without credentials', async () => {
    for (const [path, method] of [
      ['/graphql', 'POST'],
      ['/v1/groups', 'GET'],
    ]) {
      for (const origin of [app, other]) {
        const answer = await preflight(path, origin, method);
        expect(answer.status).toBe(204);
        expect(answer.headers.get('access-control-allow-origin')).toBe(origin);
        expect(answer.headers.get('access-control-allow-methods')).toBe(method);
        expect(answer.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
        expect(answer.headers.get('access-control-max-age')).toBe('86400');
        expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
      }
    }
    expect((await preflight('/v1/groups', app)).headers.get('allow')).toBe('GET, POST, OPTIONS');
  });

  it('exposes the request id (and the caching and rate-limit headers) to scripts', async () => {
    const response = await server.fetch('/graphql', {
      method: 'POST',
      headers: { origin: app, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(response.headers.get('access-control-allow-origin')).toBe(app);
    const exposed = response.headers.get('access-control-expose-headers')!.split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['x-request-id', 'etag', 'retry-after', 'x-ratelimit-remaining']));
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });

  it('gives any other origin no CORS headers, so the browser refuses it', async () => {
    for (const path of ['/graphql', '/v1/groups']) {
      const answer = await preflight(path, 'https://evil.example.com');
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
      expect(answer.headers.get('access-control-allow-methods')).toBeNull();
    }
    const response = await server.fetch('/graphql?query=%7B__typename%7D', { headers: { origin: 'null' } });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('the CORS_ORIGINS setting', () => {
  it('is any origin by default or with *, else a list of origins', () => {
    expect(loadConfig({}).corsOrigins).toBeNull();
    expect(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins).toBeNull();
    expect(loadConfig({ CORS_ORIGINS: `${app},http://localhost:5173` }).corsOrigins).toEqual(
      new Set([app, 'http://localhost:5173']),
    );
    expect(() => loadConfig({ CORS_ORIGINS: 'app.example.org, https://x.org/path' })).toThrow(
      'CORS_ORIGINS: not an origin such as https://app.example.org: app.example.org, https://x.org/path',
    );
  });
});
