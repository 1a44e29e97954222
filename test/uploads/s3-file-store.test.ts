import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createS3FileStore } from '../../src/modules/uploads/s3-file-store';
import { fileStoreContract } from './file-store.contract';

// The FileStore contract against a local S3-compatible server (s3rver, from the npm registry), through the AWS SDK as
// against a real bucket.

let server: S3rver;
let folder: string;
let endpoint: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'lectern-s3rver-'));
  server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: folder,
    configureBuckets: [{ name: 'lectern', configs: [] }],
  });
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

it("reports a bucket out of room (MinIO's XMinioStorageFull, a 507) as StorageUnavailableError (full)", async () => {
  const refusal =
    '<?xml version="1.0" encoding="UTF-8"?><Error><Code>XMinioStorageFull</Code><Message>Storage backend has reached its ' +
    'minimum free drive threshold. Please delete a few objects to proceed.</Message><RequestId>1</RequestId></Error>';
  const full = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(507, { 'content-type': 'application/xml' }).end(refusal));
  });
  await new Promise<void>((resolve) => full.listen(0, '127.0.0.1', resolve));
  const store = createS3FileStore({
    bucket: 'lectern',
    region: 'us-east-1',
    endpoint: `http://127.0.0.1:${(full.address() as AddressInfo).port}`,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    prefix: 'test/',
  });
  try {
    await expect(store.write('f-full', [Buffer.from('no room')])).rejects.toMatchObject({
      name: 'StorageUnavailableError',
      condition: 'full',
    });
  } finally {
    await store.close();
    await new Promise((resolve) => full.close(resolve));
  }
});
