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
  thumbnail: { key: string; width: number; height: number } | null;
}

// Raster formats libvips decodes. SVG is left out: it would be rendered by a second parser, for no benefit here.
const imageTypes = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/tiff', 'image/avif', 'image/heif']);
const imageName = /\.(jpe?g|png|gif|webp|tiff?|avif|heic|heif)$/i;

/**
 * Classifies a stored file: an image when libvips decodes it (dimensions read, a JPEG thumbnail written next to it
 * under `thumbnailKey`), audio or video by the type its bytes show, anything else a plain file. A file named or
 * sniffed as an image that does not decode is a plain file.
 */
export async function examineFile(store: FileStore, key: string, head: Uint8Array, filename: string, thumbnailKey: string): Promise<MediaFacts> {
  const sniffed = await fileTypeFromBuffer(head).catch(() => undefined);
  const mimeType = sniffed?.mime ?? 'application/octet-stream';
  if (imageTypes.has(mimeType) || (!sniffed && imageName.test(filename))) {
    const image = await describeImage(store, key, thumbnailKey);
    if (image) return { kind: 'IMAGE', mimeType: sniffed?.mime ?? `image/${image.format}`, ...image.facts };
  }
  const kind = mimeType.startsWith('video/') ? 'VIDEO' : mimeType.startsWith('audio/') ? 'AUDIO' : 'FILE';
  return { kind, mimeType, width: null, height: null, thumbnail: null };
}

async function describeImage(store: FileStore, key: string, thumbnailKey: string) {
  try {
    const metadata = await (await decoderOf(store, key)).metadata();
    if (!metadata.width || !metadata.height) return null;
    // Dimensions as the image is shown: EXIF orientation 5-8 swaps them.
    const { width, height } = metadata.autoOrient ?? metadata;
    const thumbnail = await (await decoderOf(store, key))
      .rotate()
      .resize(thumbnailSize, thumbnailSize, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 80 })
      .toBuffer({ resolveWithObject: true });
    await store.write(thumbnailKey, [thumbnail.data]);
    return {
      format: metadata.format,
      facts: { width, height, thumbnail: { key: thumbnailKey, width: thumbnail.info.width, height: thumbnail.info.height } },
    };
  } catch {
    // libvips refused it (truncated, corrupt, or not an image at all): it is kept as a plain file.
    return null;
  }
}

/** A libvips pipeline fed from the stored file; libvips' pixel limit (268 megapixels) refuses decompression bombs. */
async function decoderOf(store: FileStore, key: string): Promise<sharp.Sharp> {
  const source = await store.read(key);
  if (!source) throw new Error(`stored file ${key} is missing`);
  const decoder = sharp();
  source.on('error', (error) => decoder.destroy(error));
  return source.pipe(decoder);
}
