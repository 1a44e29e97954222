import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import type { RealmType } from '../../src/generated/prisma/enums';
import { clientsFor } from '../support/client';
import {
  type World,
  createAlbum,
  createGroup,
  createSection,
  createWorld,
  watchDomainEvents,
} from '../support/factories';
import { useTestServer } from '../support/harness';
import { uploadFile } from '../support/uploads';
import { v1, xmlHead } from '../support/wire';
import { expectNothingWritten } from '../support/writes';

const server = useTestServer();
const clients = clientsFor(server);
const as = clients.rest;
let w: World;
let section: { id: number };
let group: { id: number };
let png: Buffer;

type Person = 'teacher' | 'student' | 'parent' | 'outsider' | 'schoolAdmin';

beforeAll(async () => {
  w = await createWorld();
  // The teacher administers both realms; the student is a plain member of both; the parent reads the group only.
  section = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }, { userId: w.student.id }]);
  group = await createGroup(w.school.id, { admins: [w.teacher.id], members: [w.student.id] });
  png = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#208040' } })
    .png()
    .toBuffer();
  await clients.restFor(['teacher', 'student', 'parent', 'outsider', 'schoolAdmin'], w);
});

const url = (path: string) => `${v1}${path}`;

const upload = async (person: Person, bytes: Buffer, filename?: string) =>
  uploadFile(await as(w[person]), bytes, filename);

interface RealmCase {
  name: string;
  type: RealmType;
  prefix: string;
  id(): number;
}
const realms: RealmCase[] = [
  { name: 'section', type: 'SECTION', prefix: 'sections', id: () => section.id },
  { name: 'group', type: 'GROUP', prefix: 'groups', id: () => group.id },
];

describe.each(realms)('albums in the $name realm', (realm) => {
  const base = () => `/${realm.prefix}/${realm.id()}/albums`;

  it('creates (201, album.create), views in the list envelope in JSON and XML, links.self the legacy /album/{id}', async () => {
    const teacher = await as(w.teacher);
    const events = await watchDomainEvents();
    const created = await teacher.post(base(), {
      title: `Trip ${realm.name}`,
      description: 'Fall & spring',
      setting_comments: '0',
      published: 1,
    });
    expect(created.status).toBe(201);
    const id = created.json.id;
    const stored = await db().album.findUniqueOrThrow({ where: { id } });
    const album = {
      id,
      title: `Trip ${realm.name}`,
      // HTML, sanitized on write: a bare & is kept as its entity.
      description: 'Fall &amp; spring',
      setting_comments: 0,
      setting_member_post: 0,
      published: 1,
      photo_count: 0,
      video_count: 0,
      audio_count: 0,
      cover_image_url: '',
      created: Math.floor(stored.createdAt.getTime() / 1000),
      available: 1,
      completed: 0,
      completion_status: '',
      links: { self: url(`/album/${id}`) },
    };
    expect(created.json).toEqual(album);
    expect(stored).toMatchObject({
      realmType: realm.type,
      realmId: realm.id(),
      creatorId: w.teacher.id,
      settingComments: false,
    });
    expect(await events()).toEqual([
      ['album.create', realm.type, realm.id(), id, w.teacher.id, w.district.id, w.school.id],
    ]);

    const viewed = await (await as(w.student)).get(`${base()}/${id}`);
    expect(viewed.status).toBe(200);
    expect(viewed.json).toEqual({
      album: [{ ...album, content: [] }],
      total: 1,
      links: { self: url(`${base()}/${id}`) },
    });
    const xml = await teacher.get(`${base()}/${id}`, { accept: 'xml' });
    expect(xml.text).toContain(
      `${xmlHead}<result><album><id>${id}</id><title>Trip ${realm.name}</title><description>Fall &amp;amp; spring</description>`,
    );
    expect(xml.text).toContain('<cover_image_url /><created>');
    expect(xml.text).toContain(
      `</album><total>1</total><links><self>${url(`${base()}/${id}`)}</self></links></result>`,
    );
  });

  it("lists albums paged; withcontent=1 includes each album's content", async () => {
    const teacher = await as(w.teacher);
    const before = await db().album.count({ where: { realmType: realm.type, realmId: realm.id() } });
    const albums = [];
    for (const title of ['One', 'Two', 'Three']) albums.push((await teacher.post(base(), { title })).json);
    const fileId = await upload('teacher', png, 'pic.png');
    expect(
      (await teacher.post(`${base()}/${albums[0].id}/content`, { 'file-attachment': { id: [fileId] } })).status,
    ).toBe(201);

    const page = await (await as(w.student)).get(`${base()}?start=${before}&limit=2&withcontent=1`);
    expect(page.status).toBe(200);
    expect(page.json.total).toBe(before + 3);
    expect(page.json.album.map((album: { title: string }) => album.title)).toEqual(['One', 'Two']);
    expect(page.json.album[0].content).toHaveLength(1);
    expect(page.json.album[0].content[0]).toMatchObject({ type: 'image', content_dimensions: '400x300' });
    expect(page.json.album[0]).toMatchObject({
      photo_count: 1,
      cover_image_url: page.json.album[0].content[0].content_url,
    });
    expect(page.json.album[1].content).toEqual([]);
    expect(page.json.links).toEqual({
      self: url(`${base()}?start=${before}&limit=2&withcontent=1`),
      next: url(`${base()}?start=${before + 2}&limit=2&withcontent=1`),
    });
    const plain = await (await as(w.student)).get(`${base()}?start=${before}`);
    expect(plain.json.album[0]).not.toHaveProperty('content');
    expect(plain.json.links).toEqual({ self: url(`${base()}?start=${before}&limit=20`) });
  });

  it('updates (204, album.update) and deletes (204, then 404, album.delete), also at the legacy path', async () => {
    const teacher = await as(w.teacher);
    const { id } = (await teacher.post(base(), { title: 'Draft' })).json;
    const events = await watchDomainEvents();
    const updated = await teacher.put(`${base()}/${id}`, { title: 'Final', setting_member_post: 1 });
    expect(updated.status).toBe(204);
    expect(updated.text).toBe('');
    expect((await teacher.put(`/album/${id}`, '<body><description>Legacy &amp; XML</description></body>')).status).toBe(
      204,
    );
    expect((await teacher.get(`/album/${id}`)).json.album[0]).toMatchObject({
      title: 'Final',
      setting_member_post: 1,
      description: 'Legacy &amp; XML',
    });
    expect((await teacher.delete(`/album/${id}`)).status).toBe(204);
    expect((await teacher.get(`${base()}/${id}`)).status).toBe(404);
    expect((await events()).map((event) => event[0])).toEqual(['album.update', 'album.update', 'album.delete']);
  });

  it("refuses readers' album writes (403) and hides the realm from outsiders (404), writing nothing", async () => {
    const { id } = await createAlbum({ type: realm.type, id: realm.id() });
    const [student, outsider] = [await as(w.student), await as(w.outsider)];
    await expectNothingWritten(async () => {
      expect((await student.post(base(), { title: 'Nope' })).status).toBe(403);
      expect((await student.put(`${base()}/${id}`, { title: 'Nope' })).status).toBe(403);
      expect((await student.delete(`/album/${id}`)).status).toBe(403);
      const answers = [
        await outsider.get(base()),
        await outsider.get(`${base()}/${id}`),
        await outsider.get(`/album/${id}`),
        await outsider.post(base(), { title: 'x' }),
      ];
      expect(answers.map((answer) => answer.status)).toEqual([404, 404, 404, 404]);
    });
  });

  it('hides an unpublished album from non-administrators, in lists and views', async () => {
    const hidden = await createAlbum({ type: realm.type, id: realm.id() }, { published: false, title: 'Unpublished' });
    const student = await as(w.student);
    expect((await student.get(`${base()}/${hidden.id}`)).status).toBe(404);
    expect((await student.get(`/album/${hidden.id}`)).status).toBe(404);
    const listed = (await student.get(`${base()}?limit=200`)).json.album.map((album: { id: number }) => album.id);
    expect(listed).not.toContain(hidden.id);
    const teacher = await as(w.teacher);
    expect((await teacher.get(`${base()}/${hidden.id}`)).json.album[0].published).toBe(0);
    expect((await teacher.get(`${base()}?limit=200`)).json.album.map((album: { id: number }) => album.id)).toContain(
      hidden.id,
    );
  });

  it('rejects bad album input with 400 naming the field, and an album of another realm with 404', async () => {
    const teacher = await as(w.teacher);
    const other = realm.type === 'GROUP' ? `/sections/${section.id}/albums` : `/groups/${group.id}/albums`;
    const { id } = await createAlbum({ type: realm.type, id: realm.id() });
    await expectNothingWritten(async () => {
      const cases: [unknown, string][] = [
        [{}, 'title'],
        [{ title: '' }, 'title'],
        [{ title: 'x', published: 2 }, 'published'],
        [{ title: 'x', setting_comments: 'yes' }, 'setting_comments'],
      ];
      for (const [body, field] of cases) {
        const refused = await teacher.post(base(), body);
        expect(refused.status, JSON.stringify(body)).toBe(400);
        expect(refused.json.issues[0].field).toBe(field);
      }
      expect((await teacher.put(`${base()}/${id}`, { title: null })).status).toBe(400);
      expect((await teacher.get(`${other}/${id}`)).status).toBe(404);
      expect((await teacher.delete(`${other}/${id}`)).status).toBe(404);
    });
  });
});

describe('albums elsewhere', () => {
  it('are refused with 403 in realms that do not keep albums', async () => {
    const admin = await as(w.schoolAdmin);
    expect((await admin.get(`/schools/${w.school.id}/albums`)).status).toBe(403);
    expect((await admin.post(`/districts/${w.district.id}/albums`, { title: 'x' })).status).toBe(403);
  });
});
