import { request } from 'node:http';

/**
 * Sends `chunks` as one request over a real socket, each once the previous one is written, and stops sending once the
 * server answers: how a client streaming a body meets a server that refuses it part way. `sent` is the bytes written.
 */
export function sendInChunks(options: {
  port: number;
  method: string;
  path: string;
  headers: Record<string, string>;
  chunks: (string | Buffer)[];
}): Promise<{ status: number; body: string; sent: number }> {
  return new Promise((resolve, reject) => {
    const { port, method, path, headers, chunks } = options;
    const outgoing = request({ host: '127.0.0.1', port, path, method, agent: false, headers });
    let answered = false;
    let sent = 0;
    outgoing.on('error', reject);
    outgoing.on('response', (response) => {
      answered = true;
      outgoing.end();
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (text) => (body += text));
      response.on('end', () => resolve({ status: response.statusCode!, body, sent }));
      response.on('error', reject);
    });
    const send = (index: number) => {
      if (answered) return;
      if (index === chunks.length) return outgoing.end();
      sent += chunks[index]!.length;
      outgoing.write(chunks[index], () => send(index + 1));
    };
    send(0);
  });
}
