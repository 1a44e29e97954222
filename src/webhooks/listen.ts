/**
 * A webhook receiver for developers (`lectern webhooks listen`): accepts event objects POSTed to it, checks their
 * Standard Webhooks signature with the target's secret (the maintained `standardwebhooks` package, as receivers
 * should), and prints each one. A bad or missing signature is answered 401, so the sender sees what a strict receiver
 * would do; without a secret nothing is checked (as receivers written for the real platform, which does not sign).
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

/** The largest event object accepted: far above any delivery, small enough that a stray upload cannot fill memory. */
const bodyLimit = 1024 * 1024;

export const isSigningSecret = (text: string) => /^whsec_[A-Za-z0-9+/]{16,}={0,2}$/.test(text);

export interface WebhookListener {
  server: Server;
  /** Stops accepting, ends open connections and resolves once the server is closed. */
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<Buffer | 'too large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= bodyLimit) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > bodyLimit ? 'too large' : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/** What the listener makes of one request: the status it answers and the lines it prints. */
function judge(
  request: IncomingMessage,
  body: Buffer | 'too large',
  verifier: Webhook | null,
): { status: number; lines: string[] } {
  const head = `${request.method} ${request.url}`;
  if (request.method !== 'POST') return { status: 405, lines: [`✗ ${head}: only POST is accepted (405)`] };
  if (body === 'too large') return { status: 413, lines: [`✗ ${head}: body over ${bodyLimit} bytes (413)`] };
  const id = String(request.headers['webhook-id'] ?? '-');
  let signature = 'not checked (no --secret)';
  if (verifier) {
    try {
      verifier.verify(body, {
        'webhook-id': String(request.headers['webhook-id'] ?? ''),
        'webhook-timestamp': String(request.headers['webhook-timestamp'] ?? ''),
        'webhook-signature': String(request.headers['webhook-signature'] ?? ''),
      });
      signature = 'signature verified';
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      const reason = request.headers['webhook-signature'] ? error.message : 'no webhook-signature header';
      return { status: 401, lines: [`✗ ${head} webhook-id ${id}: bad signature: ${reason} (401)`] };
    }
  }
  let event: unknown;
  try {
    event = JSON.parse(body.toString('utf8'));
  } catch {
    return {
      status: 400,
      lines: [`✗ ${head} webhook-id ${id}: body is not JSON (400)`, body.toString('utf8').slice(0, 1024)],
    };
  }
  const type = typeof event === 'object' && event && 'type' in event ? String(event.type) : '(no type)';
  return { status: 204, lines: [`✓ ${head} ${type} webhook-id ${id}, ${signature}`, JSON.stringify(event, null, 2)] };
}

/** Starts listening on `host:port` (0 picks a free port); `print` receives each line the listener reports. */
export async function startWebhookListener(options: {
  host: string;
  port: number;
  secret: string | null;
  print: (line: string) => void;
}): Promise<WebhookListener> {
  const verifier = options.secret ? new Webhook(options.secret) : null;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    readBody(request)
      .then((body) => {
        const { status, lines } = judge(request, body, verifier);
        for (const line of lines) options.print(line);
        response
          .writeHead(status, status === 204 ? {} : { 'content-type': 'text/plain; charset=utf-8' })
          .end(status === 204 ? undefined : lines[0]);
      })
      .catch(() => response.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, resolve);
  });
  return {
    server,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // Senders keep connections alive; a stop should not wait for them to give up.
        server.closeAllConnections();
      }),
  };
}
