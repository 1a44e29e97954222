import { createHash, randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '../../src/db/database';
import { fileStore } from '../../src/modules/uploads/file-store';
import { sweepUploads } from '../../src/modules/uploads/upload.service';
import { clientsFor, refusal } from '../support/client';
import { type World, createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';
import { plainBytes } from '../support/uploads';
import { v1, xmlHead } from '../support/wire';
import { expectNothingWritten } from '../support/writes';

// A small limit keeps the over-limit requests cheap; the sweep's window is an hour.
const server = useTestServer({ UPLOAD_LIMIT: '2mb', UPLOAD_UNATTACHED_TTL: '1h' });
const clients = clientsFor(server);
let w: World;

beforeAll(async () => {
  w = await createWorld();
  // Issuing a credential writes a row: issued here, not inside a request that must write nothing.
  await clients.restFor(['teacher', 'student'], w);
  await clients.graphqlFor(['teacher', 'student'], w);
});

const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');
const announce = (bytes: Uint8Array, filename = 'notes.bin') => ({
  filename,
  filesize: bytes.length,
  md5_checksum: md5(bytes),
});

/** Step one as the teacher (or `user`): the answer's id and location. */
async function announced(bytes: Uint8Array, filename?: string, user = w.teacher) {
  const created = await (await clients.rest(user)).post('/upload', announce(bytes, filename));
  expect(created.status).toBe(201);
  return created.json as { id: number; upload_location: string };
}

const put = async (
  id: number,
  bytes: Uint8Array,
  options: { user?: { id: number }; headers?: Record<string, string> } = {},
) => (await clients.rest(options.user ?? w.teacher)).put(`/upload/${id}`, bytes, { headers: options.headers });

const storedRow = (id: number) => db().upload.findUniqueOrThrow({ where: { id } });

/** Bytes file-type recognises: a WAV header, an MP4 `ftyp` box. */
const wavBytes = () =>
  Buffer.concat([Buffer.from('RIFF'), Buffer.from([36, 0, 0, 0]), Buffer.from('WAVEfmt '), randomBytes(200)]);
const mp4Bytes = () =>
  Buffer.concat([
    Buffer.from([0, 0, 0, 0x18]),
    Buffer.from('ftypisom'),
    Buffer.from([0, 0, 2, 0]),
    Buffer.from('isomiso2'),
    randomBytes(300),
  ]);

describe('POST /v1/upload (step one)', () => {
  it('answers 201 with the file id, the echoed members and an absolute upload location, in JSON and XML', async () => {
    const bytes = randomBytes(100);
    const teacher = await clients.rest(w.teacher);
    const created = await teacher.post('/upload', announce(bytes, 'Field trip.JPG'));
    expect(created.status).toBe(201);
    const { id, timestamp } = created.json;
    expect(created.json).toEqual({
      id: expect.any(Number),
      upload_location: `${v1}/upload/${id}`,
      filename: 'Field trip.JPG',
      filesize: 100,
      md5_checksum: md5(bytes),
      timestamp: expect.any(Number),
      status: 'pending',
      type: '',
      mime_type: '',
      content_dimensions: '',
    });
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(60);
    expect(await storedRow(id)).toMatchObject({ ownerId: w.teacher.id, status: 'PENDING', filename: 'Field trip.JPG' });

    const xml = await teacher.post(
      '/upload',
      `<body><filename>a.txt</filename><filesize>3</filesize><md5_checksum>${md5(Buffer.from('abc')).toUpperCase()}</md5_checksum></body>`,
      { accept: 'xml' },
    );
    expect(xml.status).toBe(201);
    expect(xml.text).toContain(`${xmlHead}<result><id>`);
    expect(xml.text).toContain(`<md5_checksum>${md5(Buffer.from('abc'))}</md5_checksum>`);
  });

  it.each([
    [{ filesize: 3, md5_checksum: md5(Buffer.from('abc')) }, 'filename'],
    [{ filename: 'a', md5_checksum: md5(Buffer.from('abc')) }, 'filesize'],
    [{ filename: 'a', filesize: 3 }, 'md5_checksum'],
    [{ filename: 'a', filesize: 'three', md5_checksum: md5(Buffer.from('abc')) }, 'filesize'],
    [{ filename: 'a', filesize: -1, md5_checksum: md5(Buffer.from('abc')) }, 'filesize'],
    [{ filename: 'a', filesize: 2.5, md5_checksum: md5(Buffer.from('abc')) }, 'filesize'],
    [{ filename: 'a', filesize: 3, md5_checksum: 'not-a-checksum' }, 'md5_checksum'],
    [{ filename: '', filesize: 3, md5_checksum: md5(Buffer.from('abc')) }, 'filename'],
  ])('refuses %j with 400 naming %s, writing nothing', async (body, field) => {
    const teacher = await clients.rest(w.teacher);
    const refused = await expectNothingWritten(() => teacher.post('/upload', body));
    expect(refused.status).toBe(400);
    expect(refused.json.issues.map((issue: { field: string }) => issue.field)).toEqual([field]);
  });

  it('refuses a file announced larger than UPLOAD_LIMIT with 413', async () => {
    const teacher = await clients.rest(w.teacher);
    const refused = await expectNothingWritten(() =>
      teacher.post('/upload', {
        filename: 'film.mp4',
        filesize: 2 * 1024 * 1024 + 1,
        md5_checksum: md5(Buffer.from('x')),
      }),
    );
    expect(refused.status).toBe(413);
  });

  // Issue 37: past 32 bits the size failed GraphQL's Int coercion, a 400 that did not say why.
  it.each([
    ['json', { filename: 'film.mp4', filesize: 2 ** 31, md5_checksum: md5(Buffer.from('x')) }],
    ['json', { filename: 'film.mp4', filesize: 1e21, md5_checksum: md5(Buffer.from('x')) }],
    [
      'xml',
      `<body><filename>film.mp4</filename><filesize>2147483648</filesize><md5_checksum>${md5(Buffer.from('x'))}</md5_checksum></body>`,
    ],
    [
      'xml',
      `<body><filename>film.mp4</filename><filesize>${'9'.repeat(30)}</filesize><md5_checksum>${md5(Buffer.from('x'))}</md5_checksum></body>`,
    ],
  ] as const)('refuses a file announced at 2 GiB or more with 413 too (%s)', async (accept, body) => {
    const teacher = await clients.rest(w.teacher);
    const refused = await expectNothingWritten(() => teacher.post('/upload', body, { accept }));
    expect(refused.status).toBe(413);
    const message = accept === 'json' ? refused.json.error : /<error>([^<]*)<\/error>/.exec(refused.text)?.[1];
    expect(message).toBe(`The file exceeds the upload limit of ${2 * 1024 * 1024} bytes`);
  });

  it('needs a credential (401)', async () => {
    const response = await server.fetch('/v1/upload', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(announce(Buffer.from('x'))),
    });
    expect(response.status).toBe(401);
  });
});

describe('PUT /v1/upload/{id} (step two)', () => {
  it('stores the raw bytes, answers with the file object, and refuses a second write with 409', async () => {
    const bytes = plainBytes(300_000);
    const { id } = await announced(bytes);
    const stored = await put(id, bytes, { headers: { 'content-type': 'text/plain' } });
    expect(stored.status).toBe(200);
    expect(stored.json).toMatchObject({
      id,
      status: 'stored',
      type: 'file',
      mime_type: 'application/octet-stream',
      filesize: 300_000,
    });
    const row = await storedRow(id);
    expect(row).toMatchObject({ status: 'STORED', kind: 'FILE', storedAt: expect.any(Date) });
    expect(await fileStore().size(row.storageKey)).toBe(300_000);

    const again = await expectNothingWritten(() => put(id, bytes));
    expect(again.status).toBe(409);
  });

  it('never uses the file name as a storage path', async () => {
    const bytes = Buffer.from('not where you think');
    const { id } = await announced(bytes, '../../../etc/passwd');
    expect((await put(id, bytes)).status).toBe(200);
    expect((await storedRow(id)).storageKey).toMatch(/^f-[0-9a-f]{32}$/);
  });

  it.each([
    { name: 'a wrong checksum', spoil: (bytes: Buffer) => Buffer.from(bytes).fill(1, 0, 1), field: 'md5_checksum' },
    { name: 'fewer bytes', spoil: (bytes: Buffer) => bytes.subarray(0, 999), field: 'filesize' },
    { name: 'more bytes', spoil: (bytes: Buffer) => Buffer.concat([bytes, randomBytes(70_000)]), field: 'filesize' },
  ])(
    'answers $name with 400 naming $field, keeps nothing, and still takes the right bytes after',
    async ({ spoil, field }) => {
      const bytes = randomBytes(1000);
      bytes[0] = 0;
      const { id } = await announced(bytes);
      const written = vi.spyOn(fileStore(), 'write');
      const refused = await expectNothingWritten(() => put(id, spoil(bytes)));
      expect(refused.status).toBe(400);
      expect(refused.json.issues.map((issue: { field: string }) => issue.field)).toEqual([field]);
      const keys = written.mock.calls.map(([key]) => key);
      written.mockRestore();
      expect(keys).toHaveLength(1);
      expect(await fileStore().size(keys[0]!)).toBeNull();
      expect((await put(id, bytes)).status).toBe(200);
    },
  );

  it("stores one of two concurrent PUTs of an upload and refuses the other with 409, keeping only the winner's file", async () => {
    const bytes = randomBytes(200_000);
    const { id } = await announced(bytes);
    const written = vi.spyOn(fileStore(), 'write');
    const answers = await Promise.all([put(id, bytes), put(id, bytes)]);
    const keys = written.mock.calls.map(([key]) => key);
    written.mockRestore();
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const { storageKey } = await storedRow(id);
    expect(await fileStore().size(storageKey)).toBe(bytes.length);
    const losers = keys.filter((key) => key !== storageKey && !key.endsWith('-thumb'));
    for (const key of losers) expect(await fileStore().size(key)).toBeNull();
  });

  it('answers 413 when Content-Length is over UPLOAD_LIMIT, before reading the body', async () => {
    const bytes = randomBytes(10);
    const { id } = await announced(bytes);
    const refused = await expectNothingWritten(() => put(id, randomBytes(2 * 1024 * 1024 + 1)));
    expect(refused.status).toBe(413);
  });

  it("hides another user's upload (404) and an unknown one", async () => {
    const bytes = randomBytes(10);
    const { id } = await announced(bytes);
    expect((await expectNothingWritten(() => put(id, bytes, { user: w.student }))).status).toBe(404);
    expect((await put(2_000_000_000, bytes)).status).toBe(404);
    expect((await put(99_999_999_999, bytes)).status).toBe(404);
  });

  it("reads a decodable image's dimensions and writes its thumbnail", async () => {
    const png = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#3366aa' } })
      .png()
      .toBuffer();
    const { id } = await announced(png, 'board.png');
    const stored = await put(id, png);
    expect(stored.json).toMatchObject({ type: 'image', mime_type: 'image/png', content_dimensions: '640x480' });
    const row = await storedRow(id);
    expect(row).toMatchObject({ kind: 'IMAGE', width: 640, height: 480, thumbnailWidth: 240, thumbnailHeight: 180 });
    const thumbnail = await fileStore().read(row.thumbnailKey!);
    const chunks: Buffer[] = [];
    for await (const chunk of thumbnail!) chunks.push(chunk as Buffer);
    expect(await sharp(Buffer.concat(chunks)).metadata()).toMatchObject({ format: 'jpeg', width: 240, height: 180 });
  });

  it('reads dimensions as an image is shown (EXIF orientation)', async () => {
    const jpeg = await sharp({ create: { width: 300, height: 100, channels: 3, background: '#000' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const { id } = await announced(jpeg, 'phone.jpg');
    expect((await put(id, jpeg)).json.content_dimensions).toBe('100x300');
  });

  it('keeps a file that claims to be an image but does not decode as a plain file', async () => {
    const png = await sharp({ create: { width: 50, height: 50, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const truncated = png.subarray(0, 60);
    for (const [bytes, name] of [
      [plainBytes(500), 'photo.jpg'],
      [truncated, 'cut.png'],
    ] as const) {
      const { id } = await announced(bytes, name);
      const stored = await put(id, bytes);
      expect(stored.status).toBe(200);
      expect(stored.json).toMatchObject({ type: 'file', content_dimensions: '' });
      expect((await storedRow(id)).thumbnailKey).toBeNull();
    }
  });

  it('does not take a failure to read the stored bytes back for an image that does not decode', async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366aa' } })
      .png()
      .toBuffer();
    const { id } = await announced(png, 'board.png');
    const read = vi
      .spyOn(fileStore(), 'read')
      .mockRejectedValueOnce(Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' }));
    try {
      expect((await put(id, png)).status).toBe(500);
    } finally {
      read.mockRestore();
    }
    // Nothing was kept, and no plain file stands for the image: the same bytes are stored as one when read back.
    expect(await storedRow(id)).toMatchObject({ status: 'PENDING', kind: null });
    expect((await put(id, png)).json).toMatchObject({ type: 'image', content_dimensions: '40x30' });
  });

  it('classifies audio and video by the type their bytes show, not their names', async () => {
    const audio = wavBytes();
    const { id: audioId } = await announced(audio, 'song.txt');
    expect((await put(audioId, audio)).json).toMatchObject({ type: 'audio', mime_type: 'audio/wav' });
    const video = mp4Bytes();
    const { id: videoId } = await announced(video, 'clip');
    expect((await put(videoId, video)).json).toMatchObject({ type: 'video', mime_type: 'video/mp4' });
  });

  it('takes a chunked body streamed in many pieces', async () => {
    const parts = Array.from({ length: 40 }, () => randomBytes(16_384));
    const bytes = Buffer.concat(parts);
    const { id } = await announced(bytes);
    const teacher = await clients.rest(w.teacher);
    const url = `${v1}/upload/${id}`;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = parts.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const response = await server.app.fetch(
      new Request(url, {
        method: 'PUT',
        headers: { authorization: teacher.authorization('PUT', url), 'content-type': 'video/mp4' },
        body,
        duplex: 'half',
      } as RequestInit),
    );
    expect(response.status).toBe(200);
    expect((await storedRow(id)).status).toBe('STORED');
  });
});

describe('GraphQL twin', () => {
  it('createUpload answers with the uploadUrl, which takes the bytes with a bearer token', async () => {
    const graphql = await clients.graphql(w.student);
    const bytes = plainBytes(64);
    const created = await graphql(
      `mutation($input: CreateUploadInput!) { createUpload(input: $input) {
        upload { id: databaseId uploadUrl status filesize } userErrors { code } } }`,
      { input: { filename: 'g.bin', filesize: 64, md5Checksum: md5(bytes) } },
    );
    const upload = created.data.createUpload.upload;
    expect(created.data.createUpload).toEqual({
      upload: { id: upload.id, status: 'PENDING', filesize: 64, uploadUrl: `${v1}/upload/${upload.id}` },
      userErrors: [],
    });

    const overGraphql = await graphql(
      `mutation($input: ReceiveUploadContentInput!) { receiveUploadContent(input: $input) {
        upload { status } userErrors { field code message } } }`,
      { input: { id: upload.id } },
    );
    expect(overGraphql.data.receiveUploadContent).toEqual({
      upload: null,
      userErrors: [
        {
          field: ['input', 'id'],
          code: 'INVALID',
          message: "send the file's bytes with PUT to the upload's uploadUrl, or as contentBase64",
        },
      ],
    });

    const { token } = await import('../../src/modules/access/access.service').then((access) =>
      access.issueAccessToken({ userId: w.student.id, name: 'upload' }),
    );
    const stored = await server.app.fetch(
      new Request(upload.uploadUrl, { method: 'PUT', headers: { authorization: `Bearer ${token}` }, body: bytes }),
    );
    expect(stored.status).toBe(200);
    const read = await graphql(`query($id: ID!) { upload(id: $id) { status kind attached } }`, { id: upload.id });
    expect(read.data.upload).toEqual({ status: 'STORED', kind: 'FILE', attached: false });
    const other = await (await clients.graphql(w.teacher))(`query($id: ID!) { upload(id: $id) { id: databaseId } }`, {
      id: upload.id,
    });
    expect(other.data.upload).toBeNull();
  });

  it('createUpload refuses a bad checksum with a ValidationError and an oversized file with PAYLOAD_TOO_LARGE', async () => {
    const graphql = await clients.graphql(w.student);
    const bad = await graphql(
      `mutation($input: CreateUploadInput!) { createUpload(input: $input) { upload { id } userErrors { field code } } }`,
      { input: { filename: 'g.bin', filesize: 1, md5Checksum: 'zz' } },
    );
    expect(bad.data.createUpload).toEqual({
      upload: null,
      userErrors: [{ field: ['input', 'md5Checksum'], code: 'INVALID_FORMAT' }],
    });
    const big = await graphql(
      `mutation($input: CreateUploadInput!) { createUpload(input: $input) { upload { id } } }`,
      {
        input: { filename: 'g.bin', filesize: 3 * 1024 * 1024, md5Checksum: md5(Buffer.from('x')) },
      },
    );
    // A refused mutation is partial data: 200, its field null, the error PAYLOAD_TOO_LARGE.
    expect([big.status, big.data]).toEqual([200, { createUpload: null }]);
    expect(big.errors?.[0]?.extensions?.code).toBe('PAYLOAD_TOO_LARGE');
    // Past 32 bits, as a literal or a variable, and a fraction.
    const literal = await graphql(
      `mutation { createUpload(input: { filename: "g.bin", filesize: 2147483648, md5Checksum: "${md5(Buffer.from('x'))}" }) { upload { id } } }`,
    );
    // The field is nullable: its failure does not null the rest of the document.
    expect(refusal(literal)).toEqual({
      status: 200,
      data: { createUpload: null },
      code: 'PAYLOAD_TOO_LARGE',
      message: `The file exceeds the upload limit of ${2 * 1024 * 1024} bytes`,
    });
    const huge = await graphql(
      `mutation($input: CreateUploadInput!) { createUpload(input: $input) { upload { id } } }`,
      {
        input: { filename: 'g.bin', filesize: 1e21, md5Checksum: md5(Buffer.from('x')) },
      },
    );
    expect(refusal(huge)).toMatchObject({ status: 200, data: { createUpload: null }, code: 'PAYLOAD_TOO_LARGE' });
    const fraction = await graphql(
      `mutation($input: CreateUploadInput!) { createUpload(input: $input) { userErrors { field code message } } }`,
      { input: { filename: 'g.bin', filesize: 1.5, md5Checksum: md5(Buffer.from('x')) } },
    );
    expect(fraction.data.createUpload).toEqual({
      userErrors: [{ field: ['input', 'filesize'], code: 'INVALID', message: 'must be an integer' }],
    });
  });

  it('receiveUploadContent takes a small file as contentBase64, checked like a PUT', async () => {
    const graphql = await clients.graphql(w.teacher);
    const bytes = randomBytes(3000);
    const created = await graphql(
      `mutation($input: CreateUploadInput!) { createUpload(input: $input) { upload { id } } }`,
      {
        input: { filename: 'small.bin', filesize: bytes.length, md5Checksum: md5(bytes) },
      },
    );
    const id = created.data.createUpload.upload.id;
    const receive = `mutation($id: ID!, $content: String) {
      receiveUploadContent(input: { id: $id, contentBase64: $content }) { upload { status } userErrors { field code } } }`;
    const answer = async (content: string) => (await graphql(receive, { id, content })).data.receiveUploadContent;
    expect(await answer('not base64!')).toEqual({
      upload: null,
      userErrors: [{ field: ['input', 'contentBase64'], code: 'INVALID' }],
    });
    expect(await answer(randomBytes(3000).toString('base64'))).toEqual({
      upload: null,
      userErrors: [{ field: ['input', 'md5Checksum'], code: 'INVALID' }],
    });
    expect(await answer(bytes.toString('base64'))).toEqual({ upload: { status: 'STORED' }, userErrors: [] });
    expect(await answer(bytes.toString('base64'))).toEqual({
      upload: null,
      userErrors: [{ field: ['input', 'id'], code: 'CONFLICT' }],
    });
  });
});

describe('the sweep of unattached uploads', () => {
  it('removes uploads left unattached past UPLOAD_UNATTACHED_TTL, with their files, and keeps the rest', async () => {
    const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    const old = await announced(png, 'old.png');
    await put(old.id, png);
    const neverSent = await announced(randomBytes(5));
    const attached = await announced(png, 'kept.png');
    await put(attached.id, png);
    await db().upload.update({ where: { id: attached.id }, data: { attachedAt: new Date() } });
    const oldRow = await storedRow(old.id);
    const later = new Date(Date.now() + 3_600_000 + 60_000);
    const fresh = await announced(randomBytes(5));
    await db().upload.update({ where: { id: fresh.id }, data: { createdAt: new Date(later.getTime() - 60_000) } });

    expect(await sweepUploads(later)).toBeGreaterThanOrEqual(2);
    expect(await db().upload.findMany({ where: { id: { in: [old.id, neverSent.id] } } })).toEqual([]);
    expect(await fileStore().size(oldRow.storageKey)).toBeNull();
    expect(await fileStore().size(oldRow.thumbnailKey!)).toBeNull();
    expect(await db().upload.count({ where: { id: { in: [attached.id, fresh.id] } } })).toBe(2);
    expect(await fileStore().size((await storedRow(attached.id)).storageKey)).toBe(png.length);
    expect(await sweepUploads(new Date())).toBe(0);
  });
});
