import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const outgoing = request({
        host: '127.0.0.1',
        port,
        path: '/v1/groups',
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', accept: 'application/json', 'transfer-encoding': 'chunked' },
      });
      let answered = false;
      outgoing.on('error', reject);
      outgoing.on('response', (response) => {
        answered = true;
        outgoing.end();
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body }));
        response.on('error', reject);
      });
      // One chunk after another, each once the previous one is written, up to 64 times the limit.
      const send = (sent: number) => {
        if (answered) return;
        if (sent === 256) return outgoing.end();
        outgoing.write(`"${'x'.repeat(254)}"`, () => send(sent + 1));
      };
      send(0);
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
    await write('POST /v1/groups HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n');
    // 4 MB, far more than socket buffers hold: a server that stopped reading would stall this loop.
    for (let sent = 0; sent < 64; sent++) await write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    await write('0\r\n\r\nGET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    await closed;
    expect([...received.matchAll(/^HTTP\/1\.1 (\d+)/gm)].map((match) => match[1])).toEqual(['413', '200']);
    expect(received).toContain('{"error":"Request body exceeds the limit of 1024 bytes"}');
  });
});
