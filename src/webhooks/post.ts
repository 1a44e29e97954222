import http from 'node:http';
import https from 'node:https';
import { deliveryAgent } from './address';

/** What one HTTP attempt got. */
export interface AttemptOutcome {
  statusCode: number | null;
  /** The first kilobyte of the answer's body. */
  responseBody: string;
  error: string | null;
  /** The receiver's `Retry-After`, in milliseconds from now. */
  retryAfterMs: number | null;
  latencyMs: number;
}

export const responseBodyBytes = 1024;

/** `Retry-After` as seconds or an HTTP date, in milliseconds from `now`; null when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now: Date): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - now.getTime());
}

/**
 * POSTs an event object. Any answer is an outcome (the caller decides what a status means); a refused address, a
 * connection failure or no answer within `timeoutMs` is an outcome with an error and no status.
 */
export function postEventObject(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; now: () => Date },
): Promise<AttemptOutcome> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  const failed = (error: string): AttemptOutcome => ({
    statusCode: null,
    responseBody: '',
    error,
    retryAfterMs: null,
    latencyMs: latency(),
  });
  const target = new URL(url);
  const chosen = deliveryAgent(target);
  if ('refused' in chosen) return Promise.resolve(failed(chosen.refused));
  const send = target.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve) => {
    const request = send(
      target,
      {
        method: 'POST',
        agent: chosen.agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'Lectern-Webhooks/1',
          ...headers,
        },
        signal: AbortSignal.timeout(options.timeoutMs),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        response.on('data', (chunk: Buffer) => {
          if (kept < responseBodyBytes) chunks.push(chunk.subarray(0, responseBodyBytes - kept));
          kept += chunk.length;
        });
        const settle = () =>
          resolve({
            statusCode: response.statusCode ?? null,
            responseBody: Buffer.concat(chunks).toString('utf8'),
            error: null,
            retryAfterMs: retryAfterMs(response.headers['retry-after'], options.now()),
            latencyMs: latency(),
          });
        response.on('end', settle);
        // The status is what counts; a body cut off (or too slow, past the deadline) does not change it.
        response.on('error', settle);
      },
    );
    request.on('error', (error) =>
      resolve(failed(error.name === 'AbortError' ? `no answer within ${options.timeoutMs} ms` : error.message)),
    );
    request.end(body);
  });
}
