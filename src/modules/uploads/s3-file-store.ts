import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Readable } from 'node:stream';
import type { S3Settings } from '../../config';
import { type ByteRange, type FileStore, StorageUnavailableError } from './file-store';
import { assertStorageKey } from './folder-file-store';

const isMissing = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404);

/** A bucket out of room: MinIO's `XMinioStorageFull`, or any 507 Insufficient Storage. */
const isFull = (error: unknown) =>
  error instanceof S3ServiceException && (error.name === 'XMinioStorageFull' || error.$metadata.httpStatusCode === 507);

/** Part size of multipart writes: S3's minimum, so that a write holds little in memory. */
const partSize = 5 * 1024 * 1024;

/**
 * Files in an S3-compatible bucket, through the AWS SDK. A write is a multipart upload streamed part by part (one part
 * in flight, so memory stays near 5 MB whatever the file's size), and an object appears only once it completes; a
 * failed write aborts the upload, leaving nothing.
 */
export function createS3FileStore(settings: S3Settings): FileStore {
  const client = new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: settings.forcePathStyle,
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
    // Checksums only where S3 requires them: S3-compatible services differ in the newer checksum headers they accept.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = settings.bucket;
  const objectKey = (key: string) => {
    assertStorageKey(key);
    return `${settings.prefix}${key}`;
  };
  return {
    async write(key, source) {
      const upload = new Upload({
        client,
        params: { Bucket, Key: objectKey(key), Body: Readable.from(source) },
        partSize,
        queueSize: 1,
        leavePartsOnError: false,
      });
      try {
        await upload.done();
      } catch (error) {
        throw isFull(error) ? new StorageUnavailableError('full', error) : error;
      }
    },
    async read(key, range?: ByteRange) {
      try {
        const answer = await client.send(
          new GetObjectCommand({
            Bucket,
            Key: objectKey(key),
            ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
          }),
        );
        return answer.Body as Readable;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async size(key) {
      try {
        return (await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }))).ContentLength ?? 0;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },
    async close() {
      client.destroy();
    },
  };
}
