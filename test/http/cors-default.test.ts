import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/harness';

const server = useTestServer();

describe('CORS by default', () => {
  it('lets any origin call, without credentials, with the request id exposed and the preflight cached', async () => {
    const answer = await server.fetch('/graphql', {
      method: 'OPTIONS',
      headers: { origin: 'https://anywhere.example', 'access-control-request-method': 'POST' },
    });
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe('https://anywhere.example');
    expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
    expect(answer.headers.get('access-control-max-age')).toBe('86400');
    const response = await server.fetch('/v1/groups', { headers: { origin: 'https://anywhere.example' } });
    expect(response.headers.get('access-control-allow-origin')).toBe('https://anywhere.example');
    expect(response.headers.get('access-control-expose-headers')).toContain('x-request-id');
  });
});
