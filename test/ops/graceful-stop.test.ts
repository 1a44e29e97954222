import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { openDatabase } from '../../src/db/database';
import {
  migratedDataDir,
  processTestTimeoutMs,
  type ServerProcess,
  startServerProcess,
  waitForOutput,
  waitUntilReady,
} from '../support/process';
import { xmlHead } from '../support/wire';

// Each test starts the server as a child process (PGlite): tens of seconds when another test file
// shares the machine's two cores.
vi.setConfig({ testTimeout: processTestTimeoutMs });

const dataDir = migratedDataDir(mkdtempSync(join(tmpdir(), 'lectern-graceful-stop-')));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const consumerKey = 'stop-key';
const consumerSecret = 'stop-secret';
/** PLAINTEXT with the bootstrap credential: the signature is the secret, whatever the URL. */
const authorization = () =>
  `OAuth realm="Schoology API", oauth_consumer_key="${consumerKey}", oauth_token="", oauth_nonce="${randomUUID()}", oauth_timestamp="${Math.floor(Date.now() / 1000)}", oauth_signature_method="PLAINTEXT", oauth_version="1.0", oauth_signature="${consumerSecret}%26"`;

const startServer = async () => {
  const server = await startServerProcess({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    SEED_DEMO: 'off',
    RATE_LIMIT: 'off',
    BOOTSTRAP_CONSUMER_KEY: consumerKey,
    BOOTSTRAP_CONSUMER_SECRET: consumerSecret,
  });
  await waitUntilReady(server);
  return server;
};

const stoppingLine = /"msg":"stopping: finishing in-flight requests"/;

/** The JSON lines the server logged, once it has exited. */
const logLines = (server: ServerProcess) =>
  server
    .output()
    .trim()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg: string; cut?: number });

/** Titles of the groups the test created, read from the embedded database once the server has released it. */
async function groupTitles(prefix: string): Promise<Set<string>> {
  const database = await openDatabase({ databaseUrl: null, dataDir });
  try {
    const groups = await database.prisma.group.findMany({
      where: { title: { startsWith: prefix } },
      select: { title: true },
    });
    return new Set(groups.map((group) => group.title));
  } finally {
    await database.close();
  }
}

/** The status line with headers, and the body (de-chunked), of one HTTP/1.1 answer read off a raw socket. */
function parseAnswer(raw: string): { head: string; body: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split);
  let rest = raw.slice(split + 4);
  if (!/\r\ntransfer-encoding: chunked/i.test(head)) return { head, body: rest };
  let body = '';
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, lineEnd), 16);
    if (!size) return { head, body };
    body += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}

interface Outcome {
  title: string;
  /** Sent once the test had read the server's line saying it stops. */
  sentWhileStopping: boolean;
  status?: number;
  connection?: string;
  retryAfter?: string;
  body?: string;
  /** A connection error, and whether it came on a reused keep-alive connection and after part of an answer. */
  error?: string;
  reusedSocket?: boolean;
  answerStarted?: boolean;
}

/** One POST /v1/groups on the client's own keep-alive connection. */
function create(base: string, agent: Agent, title: string, sentWhileStopping: boolean): Promise<Outcome> {
  return new Promise((resolve) => {
    const body = JSON.stringify({ title });
    let answerStarted = false;
    const request = httpRequest(
      `${base}/v1/groups`,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: authorization(),
          'content-type': 'application/json',
          accept: 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (response) => {
        answerStarted = true;
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({
            title,
            sentWhileStopping,
            status: response.statusCode,
            connection: response.headers.connection,
            retryAfter: response.headers['retry-after'],
            body: text,
          }),
        );
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) =>
      resolve({
        title,
        sentWhileStopping,
        error: error.code ?? error.message,
        reusedSocket: request.reusedSocket,
        answerStarted,
      }),
    );
    request.end(body);
  });
}

describe('a graceful stop (SIGTERM)', () => {
  it('answers every request it ran, closes busy keep-alive connections after their answer, and runs nothing sent later', async () => {
    const server = await startServer();
    let stopping = false;
    server.child.stdout!.on('data', () => (stopping ||= stoppingLine.test(server.output())));
    const outcomes: Outcome[][] = [];
    let answered = 0;
    let sigterm = () => {};
    const sent = new Promise<void>((resolve) => (sigterm = resolve));

    // Keep-alive clients creating groups one after another, each on a connection of its own, until the server refuses
    // a new connection.
    const client = async (index: number) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const seen: Outcome[] = [];
      outcomes.push(seen);
      for (let n = 0; ; n++) {
        const outcome = await create(server.base, agent, `stop-${index}-${n}`, stopping);
        seen.push(outcome);
        if (outcome.status === 201 && ++answered === 40) sigterm();
        if (outcome.error === 'ECONNREFUSED' || seen.filter((each) => each.sentWhileStopping).length > 20) break;
      }
      agent.destroy();
    };
    const clients = Promise.all([0, 1, 2, 3].map(client));
    await sent;
    server.child.kill('SIGTERM');
    await clients;
    expect(await server.exited).toBe(0);

    const all = outcomes.flat();
    const stored = await groupTitles('stop-');
    const answeredCreated = all.filter((outcome) => outcome.status === 201);
    // Every create that committed was answered, and every 201 is a group that exists: nothing lost either way.
    expect(new Set(answeredCreated.map((outcome) => outcome.title))).toEqual(stored);
    for (const outcome of answeredCreated) {
      expect(JSON.parse(outcome.body!)).toMatchObject({ id: expect.anything(), title: outcome.title });
    }
    // Any other answer is the refusal of a request that arrived after the stop began: complete, and safe to send again.
    for (const outcome of all.filter((each) => each.status !== undefined && each.status !== 201)) {
      expect(outcome).toMatchObject({ status: 503, connection: 'close', retryAfter: '1' });
      expect(JSON.parse(outcome.body!)).toEqual({ error: expect.stringContaining('did not run') });
    }
    // A connection error never follows part of an answer, and never a create that committed; one on a reused
    // keep-alive connection (closed between two requests) came before the request was read.
    for (const outcome of all.filter((each) => each.error !== undefined)) {
      expect(outcome.answerStarted).toBe(false);
      expect(outcome.error === 'ECONNREFUSED' || outcome.reusedSocket).toBe(true);
    }
    // Nothing sent once the server had said it stops ran, on a connection open before or not.
    expect(all.filter((outcome) => outcome.sentWhileStopping && outcome.status === 201)).toEqual([]);
    // Each client's last answer told it to close its connection, unless the connection was closed between requests.
    for (const seen of outcomes) {
      const last = seen.findLast((outcome) => outcome.status !== undefined)!;
      const after = seen.slice(seen.indexOf(last) + 1);
      expect(last.connection === 'close' || after[0]?.reusedSocket === true, JSON.stringify(seen.slice(-3))).toBe(true);
    }
    // It exited when the work was done, not when the grace period cut it short.
    const lines = logLines(server);
    expect(lines.filter((line) => line.cut !== undefined)).toEqual([]);
    expect(lines.at(-1)?.msg).toBe('stopped');
  });

  it('closes an idle keep-alive connection and a subscription at once, and refuses a request completed after the stop in JSON and XML', async () => {
    const server = await startServer();
    const port = Number(new URL(server.base).port);
    const open = async () => {
      const socket = connect(port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      let received = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (received += chunk));
      const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      return { socket, received: () => received, ended };
    };
    const waitFor = async (connection: { received(): string }, pattern: RegExp) => {
      await vi.waitFor(() => expect(connection.received()).toMatch(pattern), { timeout: 30_000, interval: 20 });
    };

    // A keep-alive client that asked once and waits.
    const idle = await open();
    idle.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await waitFor(idle, /"status":"ok"/);
    const idleAnswer = idle.received();
    expect(parseAnswer(idleAnswer).head).toMatch(/^HTTP\/1\.1 200 /);
    // Two creates whose request lines arrive before the stop, and the rest of them after it.
    const partial = await Promise.all([open(), open()]);
    for (const connection of partial) connection.socket.write('POST /v1/groups HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    // A subscription over server-sent events, and one over graphql-ws.
    const subscription = 'subscription { realmEvents(realm: { type: DISTRICT, id: "1" }) { id } }';
    const events = await fetch(`${server.base}/graphql`, {
      method: 'POST',
      headers: { authorization: authorization(), 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: subscription }),
    });
    expect(events.status).toBe(200);
    const stream = events.text();
    const socket = new WebSocket(`${server.base.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    const acknowledged = new Promise((resolve) =>
      socket.on('message', (data) => JSON.parse(String(data)).type === 'connection_ack' && resolve(true)),
    );
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: authorization() } }));
    await acknowledged;
    socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: subscription } }));

    server.child.kill('SIGTERM');
    await waitForOutput(server, stoppingLine);
    // The idle connection is closed without another byte; the subscriptions end as the protocols say a server leaves.
    await idle.ended;
    expect(idle.received()).toBe(idleAnswer);
    expect(await stream).toMatch(/event: complete\n/);
    expect(await closed).toBe(1001);

    const rest = (accept: string, title: string) => {
      const body = accept === 'application/json' ? JSON.stringify({ title }) : `<body><title>${title}</title></body>`;
      const type = accept === 'application/json' ? 'application/json' : 'application/xml';
      const headers = [
        `Authorization: ${authorization()}`,
        `Accept: ${accept}`,
        `Content-Type: ${type}`,
        `Content-Length: ${Buffer.byteLength(body)}`,
      ];
      return `${headers.join('\r\n')}\r\n\r\n${body}`;
    };
    const [json, xml] = partial as [Awaited<ReturnType<typeof open>>, Awaited<ReturnType<typeof open>>];
    json.socket.write(rest('application/json', 'late-json'));
    xml.socket.write(rest('application/xml', 'late-xml'));
    await Promise.all([json.ended, xml.ended]);
    const [jsonAnswer, xmlAnswer] = [parseAnswer(json.received()), parseAnswer(xml.received())];
    for (const { head } of [jsonAnswer, xmlAnswer]) {
      expect(head).toMatch(/^HTTP\/1\.1 503 /);
      expect(head).toMatch(/\r\nconnection: close(\r\n|$)/i);
      expect(head).toMatch(/\r\nretry-after: 1(\r\n|$)/i);
    }
    const refusal = 'The server is stopping and did not run this request: send it again';
    expect(JSON.parse(jsonAnswer.body)).toEqual({ error: refusal });
    expect(xmlAnswer.body).toBe(`${xmlHead}<result><error>${refusal}</error></result>`);

    expect(await server.exited).toBe(0);
    expect(await groupTitles('late-')).toEqual(new Set());
    const lines = logLines(server);
    expect(lines.filter((line) => line.cut !== undefined)).toEqual([]);
    expect(lines.at(-1)?.msg).toBe('stopped');
  });
});
