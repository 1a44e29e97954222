import { Readable } from 'node:stream';
import type { ServedFile } from './route';

/** Where the facade reads the bytes of a file a route serves (the upload store), by its opaque key. */
export interface FileSource {
  read(key: string, range?: { start: number; end: number }): Promise<Readable | null>;
  size(key: string): Promise<number | null>;
}

/** A `Range` the file cannot satisfy: 416 with `Content-Range: bytes * /size`. */
export class RangeNotSatisfiableError extends Error {
  constructor(readonly size: number) {
    super('The requested range is not within the file');
  }
}

/** The file is known but its bytes are gone (removed meanwhile). */
export class StoredFileMissingError extends Error {}

/**
 * One `bytes=` range of RFC 9110 (`a-b`, `a-`, `-n`), or null to send the whole file: several ranges, another unit or a
 * malformed header are answered with the whole file, as the RFC allows.
 */
export function rangeOf(header: string | null, size: number): { start: number; end: number } | null {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) throw new RangeNotSatisfiableError(size);
    return { start: Math.max(size - suffix, 0), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) throw new RangeNotSatisfiableError(size);
  return { start, end };
}

/**
 * Streams a stored file with its length and type, or the one range asked for (206), for audio and video players
 * that seek. Files that are not media are sent as attachments, and `nosniff` keeps browsers to the declared type, so
 * an uploaded page never runs as one of this origin's.
 */
export async function serveFile(file: ServedFile, request: Request, source: FileSource): Promise<Response> {
  const size = await source.size(file.key);
  if (size === null) throw new StoredFileMissingError();
  const range = rangeOf(request.headers.get('range'), size);
  const stream = await source.read(file.key, range ?? undefined);
  if (!stream) throw new StoredFileMissingError();
  const headers = new Headers({
    'content-type': file.contentType,
    'content-length': String(range ? range.end - range.start + 1 : size),
    'accept-ranges': 'bytes',
    'content-disposition': `${file.inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
    'x-content-type-options': 'nosniff',
    'cache-control': 'private, no-cache',
  });
  if (range) headers.set('content-range', `bytes ${range.start}-${range.end}/${size}`);
  const body = request.method === 'HEAD' ? null : (Readable.toWeb(stream) as ReadableStream<Uint8Array>);
  if (!body) stream.destroy();
  return new Response(body, { status: range ? 206 : 200, headers });
}
