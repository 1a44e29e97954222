import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendInChunks } from '../support/chunks';
import { listenOnLoopback, useTestServer } from '../support/harness';

// An over-limit body without Content-Length can only be noticed while reading it: the 413 must still reach a client
// that is sending, over a real socket (app.fetch has none to reset).

const server = useTestServer({ BODY_LIMIT: '1kb' });
let port: number;
let close: () => Promise<void>;

beforeAll(async () => ({ port, close } = await listenOnLoopback(server)));

afterAll(() => close?.());

describe('an over-limit chunked /v1 body', () => {
  it('answers 413 with the error body to a client still sending in chunks', async () => {
    // Up to 64 times the limit.
    const answer = await sendInChunks({
      port,
      method: 'POST',
      path: '/v1/groups',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'transfer-encoding': 'chunked' },
      chunks: Array.from({ length: 256 }, () => `"${'x'.repeat(254)}"`),
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ error: 'Request body exceeds the limit of 1024 bytes' });
  });

  it('reads and drops the rest, so a client that sends its whole body first gets the 413 and keeps its connection', async () => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (text) => (received += text));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    const write = (data: string) =>
      new Promise<void>((resolve, reject) => {
        socket.once('error', reject);
        const written = () => {
          socket.off('error', reject);
          resolve();
        };
        if (socket.write(data)) written();
        else socket.once('drain', written);
      });
    const chunk = 'x'.repeat(64 * 1024);
    await write(
      'POST /v1/groups HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
    );
    // 4 MB, far more than socket buffers hold: a server that stopped reading would stall this loop.
    for (let sent = 0; sent < 64; sent++) await write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    await write('0\r\n\r\nGET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    await closed;
    expect([...received.matchAll(/^HTTP\/1\.1 (\d+)/gm)].map((match) => match[1])).toEqual(['413', '200']);
    expect(received).toContain('{"error":"Request body exceeds the limit of 1024 bytes"}');
  });
});

describe('the /graphql body limit over a real socket', () => {
  /** Sends `chunks` as a chunked POST to /graphql (or with `headers` instead), stopping once the answer comes. */
  const post = (chunks: string[], headers: Record<string, string> = { 'transfer-encoding': 'chunked' }) =>
    sendInChunks({
      port,
      method: 'POST',
      path: '/graphql',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      chunks,
    });

  it('reads a chunked body within the limit', async () => {
    const answer = await post(['{"query":', '"{ __typename }"}']);
    expect(answer).toMatchObject({ status: 200, body: '{"data":{"__typename":"Query"}}' });
  });

  it('answers 413 to a chunked body once it passes the limit', async () => {
    const answer = await post([
      '{"query":"{ __typename }", "extensions": {"padding": "',
      ...Array.from({ length: 64 }, () => 'x'.repeat(254)),
      '"}}',
    ]);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).errors[0]).toMatchObject({
      message: 'Request body too large',
      extensions: { code: 'REQUEST_ENTITY_TOO_LARGE' },
    });
  });

  it('answers 413 to a declared Content-Length over the limit before reading the body, and reads one within it', async () => {
    const body = JSON.stringify({ query: `{ __typename } # ${'x'.repeat(2000)}` });
    const refused = await post([body], { 'content-length': String(Buffer.byteLength(body)) });
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.body).errors[0].extensions.code).toBe('REQUEST_ENTITY_TOO_LARGE');
    const small = JSON.stringify({ query: '{ __typename }' });
    expect(await post([small], { 'content-length': String(Buffer.byteLength(small)) })).toMatchObject({
      status: 200,
      body: '{"data":{"__typename":"Query"}}',
    });
  });
});
