import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { encodeGlobalId } from '../../src/core/global-id';
import { db } from '../../src/db/database';
import { deleteRealmContents } from '../../src/core/realm-content';
import { writeTransaction } from '../../src/outbox/record';
import { fileStore } from '../../src/modules/uploads/file-store';
import { launchGrant, launchPath } from '../../src/modules/web-packages/web-package.launch';
import { clientsFor } from '../support/client';
import { type World, createSection, createWorld, watchDomainEvents } from '../support/factories';
import { useTestServer } from '../support/harness';
import { uploadFile } from '../support/uploads';
import { v1, xmlHead } from '../support/wire';
import { expectNothingWritten } from '../support/writes';
import { buildZip, declareSize, renameEntry, siteZip } from '../support/zips';

const server = useTestServer({
  WEB_PACKAGE_MAX_FILES: '10',
  WEB_PACKAGE_MAX_BYTES: '2mb',
  WEB_PACKAGE_MAX_RATIO: '50',
});
const clients = clientsFor(server);
let w: World;
let section: { id: number };
let otherSection: { id: number };

type Person = 'teacher' | 'student' | 'parent' | 'outsider' | 'schoolAdmin' | 'otherSchoolStudent';

beforeAll(async () => {
  w = await createWorld();
  section = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }, { userId: w.student.id }]);
  otherSection = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }]);
  await clients.restFor(['teacher', 'student', 'parent', 'outsider', 'schoolAdmin'], w);
  await clients.graphqlFor(['teacher', 'student'], w);
});

const createDocument = `mutation($input: CreateWebPackageInput!) {
  createWebPackage(input: $input) {
    webPackage { id: databaseId title creatorId sectionId entryPath url }
    userErrors { field code message }
  }
}`;

/** Uploads the zip as `person` and makes a package of it in `sectionId`: the GraphQL answer. */
async function createPackage(person: Person, zip: Buffer, sectionId = section.id, title = 'Lab') {
  const uploadId = await uploadFile(await clients.rest(w[person]), zip, 'site.zip');
  const graphql = await clients.graphql(w[person]);
  return {
    uploadId,
    response: await graphql(createDocument, {
      input: { sectionId: String(sectionId), title, uploadId: String(uploadId) },
    }),
  };
}

async function createdPackage(zip?: Buffer, sectionId = section.id) {
  const { response } = await createPackage('teacher', zip ?? (await siteZip()), sectionId);
  expect(response.data?.createWebPackage?.userErrors).toEqual([]);
  return response.data.createWebPackage.webPackage as { id: string; url: string; entryPath: string };
}

/** The keys the file store was asked to write while `action` ran. */
async function keysWrittenBy<T>(action: () => Promise<T>) {
  const write = vi.spyOn(fileStore(), 'write');
  try {
    const result = await action();
    return { result, keys: write.mock.calls.map(([key]) => key) };
  } finally {
    write.mockRestore();
  }
}

/** Creates a package of the zip as the teacher, expecting nothing to be written: the answer and the keys tried. */
async function attemptRefused(zip: Buffer) {
  const uploadId = await uploadFile(await clients.rest(w.teacher), zip, 'site.zip');
  const graphql = await clients.graphql(w.teacher);
  return keysWrittenBy(() =>
    expectNothingWritten(() =>
      graphql(createDocument, { input: { sectionId: String(section.id), title: 'x', uploadId: String(uploadId) } }),
    ),
  );
}

const open = (target: string, init?: RequestInit) =>
  server.app.fetch(new Request(new URL(target, 'http://lectern.test'), init));

describe('createWebPackage', () => {
  it('unpacks a zipped site into the section, attaches the upload and records web_package.create', async () => {
    const events = await watchDomainEvents();
    const { uploadId, response } = await createPackage('teacher', await siteZip());
    const created = response.data.createWebPackage.webPackage;
    expect(created).toMatchObject({
      title: 'Lab',
      creatorId: String(w.teacher.id),
      sectionId: String(section.id),
      entryPath: 'index.html',
    });
    expect(created.url).toMatch(
      new RegExp(`^http://lectern\\.test/web-packages/${created.id}/${w.teacher.id}-\\d+-[\\w-]{43}/index\\.html$`),
    );
    expect((await db().upload.findUniqueOrThrow({ where: { id: uploadId } })).attachedAt).not.toBeNull();
    const files = await db().webPackageFile.findMany({
      where: { packageId: Number(created.id) },
      orderBy: { path: 'asc' },
    });
    expect(files.map(({ path, size, contentType }) => ({ path, size, contentType }))).toEqual([
      { path: 'css/site.css', size: 21, contentType: 'text/css; charset=utf-8' },
      { path: 'index.html', size: expect.any(Number), contentType: 'text/html; charset=utf-8' },
      { path: 'js/app.js', size: 19, contentType: 'text/javascript; charset=utf-8' },
    ]);
    expect(await events()).toEqual([
      ['web_package.create', 'SECTION', section.id, Number(created.id), w.teacher.id, w.district.id, w.school.id],
    ]);
  });

  it('opens the index.html of the one folder a zipped folder holds', async () => {
    const created = await createdPackage(
      await buildZip([
        { name: 'lab/index.html', data: '<p>x</p>' },
        { name: 'lab/a.png', data: 'x' },
      ]),
    );
    expect(created.entryPath).toBe('lab/index.html');
  });

  it("refuses a student (FORBIDDEN) and an upload that is not the viewer's stored, unattached one, writing nothing", async () => {
    const zip = await siteZip();
    const studentUpload = await uploadFile(await clients.rest(w.student), zip, 'site.zip');
    const student = await expectNothingWritten(() =>
      clients.graphql(w.student).then((graphql) =>
        graphql(createDocument, {
          input: { sectionId: String(section.id), title: 'x', uploadId: String(studentUpload) },
        }),
      ),
    );
    // A refused mutation is partial data: 200, its field null, the error FORBIDDEN.
    expect([student.status, student.data]).toEqual([200, { createWebPackage: null }]);
    expect(student.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const teacher = await clients.graphql(w.teacher);
    const notTheirs = await expectNothingWritten(() =>
      teacher(createDocument, {
        input: { sectionId: String(section.id), title: 'x', uploadId: String(studentUpload) },
      }),
    );
    expect(notTheirs.data.createWebPackage).toEqual({
      webPackage: null,
      userErrors: [
        { field: ['input', 'uploadId'], code: 'INVALID', message: expect.stringContaining('not among your') },
      ],
    });
    const noTitle = await teacher(createDocument, {
      input: { sectionId: String(section.id), title: '', uploadId: String(studentUpload) },
    });
    expect(noTitle.data.createWebPackage.userErrors).toEqual([
      { field: ['input', 'title'], code: 'REQUIRED', message: 'is required' },
    ]);
    const hidden = await teacher(createDocument, {
      input: { sectionId: '999999999', title: 'x', uploadId: String(studentUpload) },
    });
    expect(hidden.data.createWebPackage.userErrors).toEqual([
      { field: ['input', 'sectionId'], code: 'NOT_FOUND', message: 'Section 999999999 was not found' },
    ]);
  });

  const unsafe: [string, () => Promise<Buffer>, string][] = [
    [
      'a ../ entry',
      async () =>
        renameEntry(
          await buildZip([
            { name: 'index.html', data: 'x' },
            { name: 'xx/evil', data: 'x' },
          ]),
          'xx/evil',
          '../evil',
        ),
      'uploadId',
    ],
    [
      'an absolute path',
      async () =>
        renameEntry(
          await buildZip([
            { name: 'index.html', data: 'x' },
            { name: 'xetc/passwd', data: 'x' },
          ]),
          'xetc/passwd',
          '/etc/passwd',
        ),
      'uploadId',
    ],
    [
      'a symbolic link',
      () =>
        buildZip([
          { name: 'index.html', data: 'x' },
          { name: 'link', data: '/etc/passwd', mode: 0o120777 },
        ]),
      'uploadId',
    ],
    [
      'a device file',
      () =>
        buildZip([
          { name: 'index.html', data: 'x' },
          { name: 'dev', data: '', mode: 0o020666 },
        ]),
      'uploadId',
    ],
    [
      'an entry longer than its header declares',
      async () =>
        declareSize(
          await buildZip([
            { name: 'index.html', data: 'x' },
            { name: 'big.bin', data: Buffer.alloc(200_000) },
          ]),
          'big.bin',
          1_000,
        ),
      'uploadId',
    ],
    ['bytes that are no zip', async () => randomBytes(3000), 'uploadId'],
    ['a zip without an HTML page', () => buildZip([{ name: 'notes.txt', data: 'x' }]), 'uploadId'],
  ];
  it.each(unsafe)('refuses %s with userErrors, keeping no row and no file', async (_name, zip, field) => {
    const { result, keys } = await attemptRefused(await zip());
    expect(result.data.createWebPackage).toEqual({
      webPackage: null,
      userErrors: [{ field: ['input', field], code: 'INVALID', message: expect.any(String) }],
    });
    for (const key of keys) expect(await fileStore().size(key)).toBeNull();
  });

  const overLimit: [string, () => Promise<Buffer>, RegExp][] = [
    [
      'a zip bomb (zeros over the ratio limit)',
      () =>
        buildZip([
          { name: 'index.html', data: 'x' },
          { name: 'bomb.bin', data: Buffer.alloc(1_500_000) },
        ]),
      /inflates more than 50 times/,
    ],
    [
      'more files than WEB_PACKAGE_MAX_FILES',
      () => buildZip(Array.from({ length: 11 }, (_, i) => ({ name: `page${i}.html`, data: 'x' }))),
      /more than 10 files/,
    ],
    [
      'more than twice WEB_PACKAGE_MAX_FILES entries, folders included',
      () =>
        buildZip([
          { name: 'index.html', data: 'x' },
          ...Array.from({ length: 20 }, (_, i) => ({ name: `f${i}/`, data: '' })),
        ]),
      /more than 20 entries/,
    ],
    [
      'more bytes than WEB_PACKAGE_MAX_BYTES',
      () =>
        buildZip([
          { name: 'index.html', data: randomBytes(1_200_000) },
          { name: 'b.bin', data: randomBytes(1_200_000) },
        ]),
      /more than 2097152 bytes/,
    ],
  ];
  it.each(overLimit)('refuses %s with PAYLOAD_TOO_LARGE, keeping no row and no file', async (_name, zip, message) => {
    const { result, keys } = await attemptRefused(await zip());
    // A refused mutation is partial data: 200, its field null, the error PAYLOAD_TOO_LARGE.
    expect([result.status, result.data]).toEqual([200, { createWebPackage: null }]);
    expect(result.errors?.[0]?.extensions?.code).toBe('PAYLOAD_TOO_LARGE');
    expect(result.errors?.[0]?.message).toMatch(message);
    for (const key of keys) expect(await fileStore().size(key)).toBeNull();
  });
});

describe('GET /sections/{id}/web_packages', () => {
  it("lists the section's packages as `web`, paged, in JSON and XML", async () => {
    const fresh = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }, { userId: w.student.id }]);
    const [first, second] = [await createdPackage(undefined, fresh.id), await createdPackage(undefined, fresh.id)];
    const student = await clients.rest(w.student);
    const list = await student.get(`/sections/${fresh.id}/web_packages?limit=1`);
    expect(list.status).toBe(200);
    expect(list.json).toEqual({
      web: [
        {
          id: Number(first.id),
          title: 'Lab',
          uid: w.teacher.id,
          url: expect.stringContaining(`/web-packages/${first.id}/${w.student.id}-`),
          links: { self: `${v1}/sections/${fresh.id}/web_packages/${first.id}` },
        },
      ],
      total: 2,
      links: {
        self: `${v1}/sections/${fresh.id}/web_packages?limit=1&start=0`,
        next: `${v1}/sections/${fresh.id}/web_packages?limit=1&start=1`,
      },
    });
    const xml = await student.get(`/sections/${fresh.id}/web_packages?start=1`, { accept: 'xml' });
    expect(xml.text).toMatch(
      new RegExp(
        `^${xmlHead.replace(/[?]/g, '\\?')}<result><web><id>${second.id}</id><title>Lab</title><uid>${w.teacher.id}</uid><url>http://lectern.test/web-packages/${second.id}/`,
      ),
    );
    expect(xml.text).toContain('<total>2</total>');
  });

  it('refuses the list to those outside the section (403 in its school, 404 beyond) and answers 403 for another realm type', async () => {
    const statusFor = async (person: Person) =>
      (await (await clients.rest(w[person])).get(`/sections/${section.id}/web_packages`)).status;
    expect([await statusFor('parent'), await statusFor('outsider')]).toEqual([403, 404]);
    expect((await (await clients.rest(w.teacher)).get(`/groups/1/web_packages`)).status).toBe(403);
  });
});

describe('GET and DELETE /sections/{id}/web_packages/{id}', () => {
  it("views a package; another section's path, an unknown id and a malformed id are 404", async () => {
    const created = await createdPackage();
    const student = await clients.rest(w.student);
    const view = await student.get(`/sections/${section.id}/web_packages/${created.id}`);
    expect(view.status).toBe(200);
    expect(view.json).toMatchObject({
      id: Number(created.id),
      title: 'Lab',
      uid: w.teacher.id,
      links: { self: `${v1}/sections/${section.id}/web_packages/${created.id}` },
    });
    const teacher = await clients.rest(w.teacher);
    expect((await teacher.get(`/sections/${otherSection.id}/web_packages/${created.id}`)).status).toBe(404);
    expect((await teacher.get(`/sections/${section.id}/web_packages/999999999`)).status).toBe(404);
    expect((await teacher.get(`/sections/${section.id}/web_packages/abc`)).status).toBe(404);
    expect(
      (await (await clients.rest(w.outsider)).get(`/sections/${section.id}/web_packages/${created.id}`)).status,
    ).toBe(404);
  });

  it("deletes (204) for the section's teacher only, records web_package.delete and removes the files after commit", async () => {
    const created = await createdPackage();
    const id = Number(created.id);
    const keys = (await db().webPackageFile.findMany({ where: { packageId: id } })).map((file) => file.storageKey);
    const { uploadId } = await db().webPackage.findUniqueOrThrow({ where: { id } });
    const refused = await expectNothingWritten(async () =>
      (await clients.rest(w.student)).delete(`/sections/${section.id}/web_packages/${id}`),
    );
    expect(refused.status).toBe(403);
    const events = await watchDomainEvents();
    const deleted = await (await clients.rest(w.teacher)).delete(`/sections/${section.id}/web_packages/${id}`);
    expect(deleted.status).toBe(204);
    expect(await events()).toEqual([
      ['web_package.delete', 'SECTION', section.id, id, w.teacher.id, w.district.id, w.school.id],
    ]);
    expect(await db().webPackage.count({ where: { id } })).toBe(0);
    await vi.waitFor(async () => {
      for (const key of keys) expect(await fileStore().size(key)).toBeNull();
      expect(await db().upload.count({ where: { id: uploadId } })).toBe(0);
    });
    expect((await open(created.url)).status).toBe(404);
    expect((await (await clients.rest(w.teacher)).delete(`/sections/${section.id}/web_packages/${id}`)).status).toBe(
      404,
    );
  });

  it('twin: deleteWebPackage answers the global id of the package, then a second delete is NOT_FOUND', async () => {
    const { id } = await createdPackage();
    const graphql = await clients.graphql(w.teacher);
    const remove = `mutation($id: ID!, $sectionId: ID) {
      deleteWebPackage(input: { id: $id, sectionId: $sectionId }) { deletedWebPackageId userErrors { field code message } }
    }`;
    const globalId = encodeGlobalId('WebPackage', Number(id));
    expect((await graphql(remove, { id: globalId, sectionId: String(section.id) })).data.deleteWebPackage).toEqual({
      deletedWebPackageId: globalId,
      userErrors: [],
    });
    expect((await graphql(remove, { id: globalId })).data.deleteWebPackage).toEqual({
      deletedWebPackageId: null,
      userErrors: [{ field: ['input', 'id'], code: 'NOT_FOUND', message: `WebPackage ${id} was not found` }],
    });
  });

  it('goes with its section: rows at once, files after commit', async () => {
    const fresh = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }]);
    const created = await createdPackage(undefined, fresh.id);
    const keys = (await db().webPackageFile.findMany({ where: { packageId: Number(created.id) } })).map(
      (file) => file.storageKey,
    );
    await writeTransaction((tx) => deleteRealmContents(tx, [{ type: 'SECTION', ids: [fresh.id] }]));
    expect(await db().webPackage.count({ where: { id: Number(created.id) } })).toBe(0);
    await vi.waitFor(async () => {
      for (const key of keys) expect(await fileStore().size(key)).toBeNull();
    });
  });
});

describe('the launch URL', () => {
  it("serves the site to the section's members with its content types and sandboxing headers, setting no cookie", async () => {
    const created = await createdPackage();
    const page = await open(created.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('<title>Lab</title>');
    expect(page.headers.get('content-security-policy')).toMatch(
      /^sandbox allow-scripts allow-forms allow-popups\b.*default-src 'self'/,
    );
    expect(page.headers.get('content-security-policy')).not.toContain('allow-same-origin');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('set-cookie')).toBeNull();
    const css = await open(created.url.replace(/index\.html$/, 'css/site.css'));
    expect([css.status, css.headers.get('content-type'), await css.text()]).toEqual([
      200,
      'text/css; charset=utf-8',
      'body { color: teal; }',
    ]);
    const part = await open(created.url.replace(/index\.html$/, 'css/site.css'), { headers: { range: 'bytes=0-3' } });
    expect([part.status, part.headers.get('content-range'), await part.text()]).toEqual([206, 'bytes 0-3/21', 'body']);
    expect((await open(created.url, { headers: { range: 'bytes=5000-' } })).status).toBe(416);
    const top = await open(created.url.replace(/index\.html$/, ''));
    expect([top.status, top.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    const head = await open(created.url, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length')]).toEqual([200, page.headers.get('content-length')]);
    expect((await open(created.url, { method: 'POST' })).status).toBe(405);

    const student = await (await clients.rest(w.student)).get(`/sections/${section.id}/web_packages/${created.id}`);
    expect((await open(student.json.url)).status).toBe(200);
  });

  it("opens nothing with another package's grant, a grant of someone outside the section (403 or 404), a forged or expired grant", async () => {
    const [one, two] = [await createdPackage(), await createdPackage()];
    const grantOf = (url: string) => new URL(url).pathname.split('/')[3]!;
    // The teacher's grant for package one, used for package two.
    expect((await open(launchPath(Number(two.id), grantOf(one.url), 'index.html'))).status).toBe(403);
    // Signed properly, but for a user who does not read the section.
    const statusFor = async (person: Person) =>
      (
        await open(
          launchPath(Number(one.id), launchGrant(server.serverKey, Number(one.id), w[person].id), 'index.html'),
        )
      ).status;
    // As on /v1: a section seen in one's school but not enrolled in is a 403, one beyond is not found.
    expect([await statusFor('parent'), await statusFor('outsider'), await statusFor('otherSchoolStudent')]).toEqual([
      403, 404, 404,
    ]);
    const forged = grantOf(one.url).replace(/^\d+/, String(w.student.id));
    expect((await open(launchPath(Number(one.id), forged, 'index.html'))).status).toBe(403);
    const expired = launchGrant(server.serverKey, Number(one.id), w.teacher.id, Date.now() - 48 * 3_600_000);
    expect((await open(launchPath(Number(one.id), expired, 'index.html'))).status).toBe(403);
  });

  it('answers 404 for traversal, encoded or not, and for files the package does not have', async () => {
    const [one, two] = [await createdPackage(), await createdPackage()];
    const base = one.url.replace(/index\.html$/, '');
    const pathOf = (suffix: string) => `${new URL(base).pathname}${suffix}`;
    for (const suffix of [
      '%2e%2e/%2e%2e/%2e%2e/etc/passwd',
      `..%2f..%2f${two.id}%2findex.html`,
      '%2E%2E%2F%2E%2E%2Fgraphql',
      'css%2fsite.css',
      '%00index.html',
      'missing.html',
      'css/',
    ]) {
      expect((await server.app.fetch(new Request(`http://lectern.test${pathOf(suffix)}`))).status, suffix).toBe(404);
    }
    // The URL parser resolves plain ../ before the path is matched: it lands outside the grant's folder.
    expect((await open(`${base}../../${two.id}/index.html`)).status).not.toBe(200);
  });
});
