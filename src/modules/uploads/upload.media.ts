import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import type { FileKind } from '../../generated/prisma/enums';
import type { FileStore } from './file-store';

/** Bytes of a file's head that content sniffing reads (file-type's own minimum for reliable detection). */
export const sniffBytes = 4100;

/** The longest side of a thumbnail, in pixels. */
export const thumbnailSize = 240;

/** What a stored file is, read from its bytes rather than from its name or the uploader's Content-Type. */
export interface MediaFacts {
  kind: FileKind;
  mimeType: string;
  width: number | null;
  height: number | null;
  /** An image's thumbnail; `pending` when the storage refused to write it (it is made again later). */
  thumbnail: { key: string; width: number; height: number; pending: boolean } | null;
}

// Raster formats libvips decodes. SVG is left out: it would be rendered by a second parser, for no benefit here.
const imageTypes = new Set([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/tiff',
  'image/avif',
  'image/heif',
]);
const imageName = /\.(jpe?g|png|gif|webp|tiff?|avif|heic|heif)$/i;

/**
 * Classifies a stored file: an image when libvips decodes it (dimensions read, a JPEG thumbnail written next to it
 * under `thumbnailKey`), audio or video by the type its bytes show, anything else a plain file. A file named or
 * sniffed as an image that does not decode is a plain file; one whose thumbnail the storage refuses is still an image,
 * its thumbnail pending.
 */
export async function examineFile(
  store: FileStore,
  key: string,
  head: Uint8Array,
  filename: string,
  thumbnailKey: string,
): Promise<MediaFacts> {
  const sniffed = await fileTypeFromBuffer(head).catch(() => undefined);
  const mimeType = sniffed?.mime ?? 'application/octet-stream';
  if (imageTypes.has(mimeType) || (!sniffed && imageName.test(filename))) {
    const image = await decodeImage(store, key);
    if (image) {
      const pending = await store.write(thumbnailKey, [image.thumbnail.data]).then(
        () => false,
        // Any failure to write it (no room, a read-only disk, a bucket out of reach): the image stays one.
        () => true,
      );
      const thumbnail = {
        key: thumbnailKey,
        width: image.thumbnail.info.width,
        height: image.thumbnail.info.height,
        pending,
      };
      return {
        kind: 'IMAGE',
        mimeType: sniffed?.mime ?? `image/${image.format}`,
        width: image.width,
        height: image.height,
        thumbnail,
      };
    }
  }
  const kind = mimeType.startsWith('video/') ? 'VIDEO' : mimeType.startsWith('audio/') ? 'AUDIO' : 'FILE';
  return { kind, mimeType, width: null, height: null, thumbnail: null };
}

/** Writes the thumbnail of a stored image again (one the storage refused before); fails as the write does. */
export async function writeThumbnail(store: FileStore, key: string, thumbnailKey: string): Promise<void> {
  const image = await decodeImage(store, key);
  if (!image) throw new Error(`stored image ${key} no longer decodes`);
  await store.write(thumbnailKey, [image.thumbnail.data]);
}

/**
 * An image's dimensions and its thumbnail's bytes, or null when libvips refuses it (truncated, corrupt, or not an image
 * at all). A failure to read the stored file is no verdict on the image: it is thrown.
 */
async function decodeImage(store: FileStore, key: string) {
  const readFailures: unknown[] = [];
  try {
    const metadata = await (await decoderOf(store, key, readFailures)).metadata();
    if (!metadata.width || !metadata.height) return null;
    // Dimensions as the image is shown: EXIF orientation 5-8 swaps them.
    const { width, height } = metadata.autoOrient ?? metadata;
    const thumbnail = await (await decoderOf(store, key, readFailures))
      .rotate()
      .resize(thumbnailSize, thumbnailSize, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 80 })
      .toBuffer({ resolveWithObject: true });
    return { format: metadata.format, width, height, thumbnail };
  } catch (_error) {
    if (readFailures.length) throw readFailures[0];
    return null;
  }
}

/**
 * A libvips pipeline fed from the stored file; libvips' pixel limit (268 megapixels) refuses decompression bombs.
 * Failures of the store rather than of the decoder are noted in `readFailures`.
 */
async function decoderOf(store: FileStore, key: string, readFailures: unknown[]): Promise<sharp.Sharp> {
  const source = await store.read(key).catch((error: unknown) => {
    readFailures.push(error);
    throw error;
  });
  if (!source) {
    const missing = new Error(`stored file ${key} is missing`);
    readFailures.push(missing);
    throw missing;
  }
  const decoder = sharp();
  source.on('error', (error) => {
    readFailures.push(error);
    decoder.destroy(error);
  });
  return source.pipe(decoder);
}
