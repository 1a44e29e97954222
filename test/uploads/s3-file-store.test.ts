import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll } from 'vitest';
import { createS3FileStore } from '../../src/modules/uploads/s3-file-store';
import { fileStoreContract } from './file-store.contract';

// The FileStore contract against a local S3-compatible server (s3rver, from the npm registry), through the AWS SDK as
// against a real bucket.

let server: S3rver;
let folder: string;
let endpoint: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'lectern-s3rver-'));
  server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: folder, configureBuckets: [{ name: 'lectern', configs: [] }] });
  const address = await server.run();
  endpoint = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await server?.close();
  await rm(folder, { recursive: true, force: true });
});

fileStoreContract('S3 store', async () =>
  createS3FileStore({
    bucket: 'lectern',
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    // s3rver's fixed development credentials.
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    prefix: 'test/',
  }),
);
