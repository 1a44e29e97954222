import { randomBytes } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { lookup } from 'mime-types';
import yauzl from 'yauzl';
import type { WebPackageLimits } from '../../config';
import { ValidationError, httpError } from '../../core/errors';
import { type FileStore, StorageUnavailableError } from '../uploads/file-store';

/** One unpacked file, stored under a generated key. */
export interface UnpackedFile {
  path: string;
  storageKey: string;
  size: number;
  contentType: string;
}

/** An entry's output below this many bytes is not judged by its ratio: small files may compress arbitrarily well. */
const ratioFloorBytes = 64 * 1024;
const longestPath = 1_000;

const unixFileType = 0o170000;
const unixRegularFile = 0o100000;
const unixDirectory = 0o040000;
const madeOnUnix = 3;

const unsafe = (message: string) => new ValidationError([{ field: 'uploadId', message }]);
const overLimit = (message: string) => httpError(413, 'PAYLOAD_TOO_LARGE', `The package is refused: ${message}`);

/**
 * A path inside the package: relative, `/`-separated, no `.` or `..` segment, no control characters. yauzl checks
 * absolute paths and `..` too; this says which rule broke, and holds whatever yauzl's version lets through.
 */
export function packagePathProblem(path: string): string | null {
  if (path.length === 0 || path.length > longestPath) return `must be 1 to ${longestPath} characters`;
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) return 'must not be absolute';
  if (path.includes('\\')) return 'must not contain a backslash';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  if (/[\u0000-\u001f\u007f]/.test(path)) return 'must not contain control characters';
  if (path.split('/').some((segment) => segment === '' || segment === '.' || segment === '..'))
    return 'must not contain empty, . or .. segments';
  return null;
}

/** yauzl reads the zip where it lies, through ranges of the stored upload, so the archive is never held whole. */
class StoredZipReader extends yauzl.RandomAccessReader {
  /** Ranges being read. An entry abandoned part way (a refusal, a failed write) leaves its range open in yauzl. */
  private readonly reading = new Set<Readable>();
  private released = false;

  constructor(
    private readonly store: FileStore,
    private readonly key: string,
  ) {
    super();
  }

  _readStreamForRange(start: number, end: number): Readable {
    const through = new PassThrough();
    if (end <= start) {
      through.end();
      return through;
    }
    this.store.read(this.key, { start, end: end - 1 }).then(
      (stream) => {
        if (!stream) return through.destroy(new Error('the upload has no stored file'));
        if (this.released) return stream.destroy();
        this.reading.add(stream.once('close', () => this.reading.delete(stream)));
        stream.on('error', (error) => through.destroy(error)).pipe(through);
      },
      (error: Error) => through.destroy(error),
    );
    return through;
  }

  /** Closes the ranges still open once the unpacking is over, which would otherwise hold their files open. */
  release(): void {
    this.released = true;
    for (const stream of this.reading) stream.destroy();
  }
}

const openZip = (reader: StoredZipReader, size: number) =>
  new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromRandomAccessReader(
      reader,
      size,
      { lazyEntries: true, autoClose: false, strictFileNames: true, validateEntrySizes: true },
      (error, zip) => (error ? reject(error) : resolve(zip)),
    ),
  );

const openEntry = (zip: yauzl.ZipFile, entry: yauzl.Entry) =>
  new Promise<Readable>((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream))),
  );

/** The kind of entry its Unix mode names (zips made elsewhere carry none): only files and directories are unpacked. */
function entryKind(entry: yauzl.Entry): 'file' | 'directory' | 'other' {
  const mode = entry.externalFileAttributes >>> 16;
  const type = mode & unixFileType;
  if (entry.versionMadeBy >> 8 === madeOnUnix || type !== 0) {
    if (type === unixDirectory) return 'directory';
    if (type !== 0 && type !== unixRegularFile) return 'other';
  }
  return entry.fileName.endsWith('/') ? 'directory' : 'file';
}

/**
 * The inflated bytes of one entry, counted as they come: more than the total allows, or more per compressed byte than
 * the ratio allows, stops the inflation there. Headers are not trusted for either.
 */
async function* inflated(stream: Readable, entry: yauzl.Entry, limits: WebPackageLimits, unpacked: { bytes: number }) {
  let bytes = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      unpacked.bytes += chunk.length;
      if (unpacked.bytes > limits.maxBytes) throw overLimit(`it unpacks to more than ${limits.maxBytes} bytes`);
      if (bytes > ratioFloorBytes && bytes > Math.max(1, entry.compressedSize) * limits.maxRatio) {
        throw overLimit(`${entry.fileName} inflates more than ${limits.maxRatio} times its compressed size`);
      }
      yield chunk;
    }
  } finally {
    stream.destroy();
  }
}

const contentTypeOf = (path: string) => {
  const type = lookup(path) || 'application/octet-stream';
  return /^text\/|javascript|json|xml|svg/.test(type) ? `${type}; charset=utf-8` : type;
};

/**
 * The zip's failures in its own terms (corrupt, encrypted, unsafe names) are the uploader's to fix: a 400. Storage with
 * no room for the unpacked files is the server's (507).
 */
function asPackageError(error: unknown): unknown {
  if (
    error instanceof ValidationError ||
    error instanceof StorageUnavailableError ||
    (error as { extensions?: unknown }).extensions
  )
    return error;
  return unsafe(`is not a usable zip archive: ${(error as Error).message}`);
}

/**
 * Unpacks the zip stored under `zipKey` into the file store, one generated key per file. Refuses (and keeps nothing
 * of) an archive with an unsafe entry (absolute or `..` paths, links and other special files, encryption) or one over
 * the limits on file count, total size and compression ratio.
 */
export async function unpackZip(
  store: FileStore,
  zipKey: string,
  zipSize: number,
  limits: WebPackageLimits,
): Promise<UnpackedFile[]> {
  const files: UnpackedFile[] = [];
  const reader = new StoredZipReader(store, zipKey);
  const zip = await openZip(reader, zipSize).catch((error) => {
    reader.release();
    throw asPackageError(error);
  });
  try {
    // Folders are not files, but each entry costs a read: the central directory's count is refused early when absurd.
    if (zip.entryCount > limits.maxFiles * 2) throw overLimit(`it holds more than ${limits.maxFiles * 2} entries`);
    const paths = new Set<string>();
    const unpacked = { bytes: 0 };
    const entries = (async function* () {
      for (;;) {
        const next = new Promise<yauzl.Entry | null>((resolve, reject) => {
          zip
            .once('entry', resolve)
            .once('end', () => resolve(null))
            .once('error', reject);
          zip.readEntry();
        });
        const entry = await next;
        zip.removeAllListeners('entry').removeAllListeners('end').removeAllListeners('error');
        if (!entry) return;
        yield entry;
      }
    })();
    for await (const entry of entries) {
      const kind = entryKind(entry);
      const path = entry.fileName.replace(/\/$/, '');
      const problem = packagePathProblem(path);
      if (problem) throw unsafe(`entry ${JSON.stringify(entry.fileName)}: its path ${problem}`);
      if (kind === 'other')
        throw unsafe(`entry ${path} is a symbolic link or special file; only files and folders are unpacked`);
      if (kind === 'directory') continue;
      if (entry.isEncrypted()) throw unsafe(`entry ${path} is encrypted`);
      if (paths.has(path)) throw unsafe(`entry ${path} appears twice`);
      paths.add(path);
      if (paths.size > limits.maxFiles) throw overLimit(`it holds more than ${limits.maxFiles} files`);
      if (unpacked.bytes + entry.uncompressedSize > limits.maxBytes)
        throw overLimit(`it unpacks to more than ${limits.maxBytes} bytes`);
      const storageKey = `w-${randomBytes(16).toString('hex')}`;
      const before = unpacked.bytes;
      const stream = await openEntry(zip, entry);
      files.push({ path, storageKey, size: 0, contentType: contentTypeOf(path) });
      await store.write(storageKey, inflated(stream, entry, limits, unpacked));
      files[files.length - 1]!.size = unpacked.bytes - before;
    }
    return files;
  } catch (error) {
    await Promise.all(files.map((file) => store.remove(file.storageKey)));
    throw asPackageError(error);
  } finally {
    zip.close();
    reader.release();
  }
}
