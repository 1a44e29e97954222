import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { encodeGlobalId } from '../../src/core/global-id';
import { db } from '../../src/db/database';
import { fileStore } from '../../src/modules/uploads/file-store';
import { clientsFor } from '../support/client';
import {
  type World,
  createAlbum,
  createGroup,
  createSection,
  createStoredUpload,
  createWorld,
  watchDomainEvents,
} from '../support/factories';
import { useTestServer } from '../support/harness';
import { md5, plainBytes, uploadFile } from '../support/uploads';
import { v1 } from '../support/wire';
import { expectNothingWritten } from '../support/writes';

const server = useTestServer();
const clients = clientsFor(server);
const as = clients.rest;
let w: World;
let group: { id: number };
let section: { id: number };
let png: Buffer;

type Person = 'teacher' | 'student' | 'parent' | 'outsider' | 'schoolAdmin';

beforeAll(async () => {
  w = await createWorld();
  group = await createGroup(w.school.id, { admins: [w.teacher.id], members: [w.student.id] });
  section = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }, { userId: w.student.id }]);
  png = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#ff8800' } })
    .png()
    .toBuffer();
  await clients.restFor(['teacher', 'student', 'parent', 'outsider', 'schoolAdmin'], w);
  await clients.graphqlFor(['teacher', 'student'], w);
});

const url = (path: string) => `${v1}${path}`;
const wav = () =>
  Buffer.concat([Buffer.from('RIFF'), Buffer.from([36, 0, 0, 0]), Buffer.from('WAVEfmt '), randomBytes(2000)]);
const mp4 = () =>
  Buffer.concat([
    Buffer.from([0, 0, 0, 0x18]),
    Buffer.from('ftypisom'),
    Buffer.from([0, 0, 2, 0]),
    Buffer.from('isomiso2'),
    randomBytes(5000),
  ]);

const upload = async (person: Person, bytes: Buffer, filename?: string) =>
  uploadFile(await as(w[person]), bytes, filename);

const groupAlbum = (fields: Parameters<typeof createAlbum>[1] = {}) =>
  createAlbum({ type: 'GROUP', id: group.id }, fields);
const base = (albumId: number) => `/groups/${group.id}/albums/${albumId}`;

/** Reads a response body's bytes. */
const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer());
/** A signed GET of an absolute URL (content_url, thumbnail_url) as `person`. */
async function fetchAs(person: Person, target: string, headers: Record<string, string> = {}) {
  const client = await as(w[person]);
  return server.app.fetch(
    new Request(target, { headers: { authorization: client.authorization('GET', target), ...headers } }),
  );
}

describe('album content', () => {
  it('adds an image, a video and an audio file in one request (201, content array), with derived counts and cover', async () => {
    const album = await groupAlbum();
    const [image, video, audio] = [
      await upload('teacher', png, 'orange.png'),
      await upload('teacher', mp4(), 'clip.mp4'),
      await upload('teacher', wav(), 'song.wav'),
    ];
    const events = await watchDomainEvents();
    const teacher = await as(w.teacher);
    const created = await teacher.post(`${base(album.id)}/content`, {
      'file-attachment': { id: [video, image, audio] },
      extras: [{ fid: image, caption: 'Orange', display_order: 7 }],
    });
    expect(created.status).toBe(201);
    const items = created.json.content;
    expect(items).toHaveLength(3);
    const imageItem = items.find((item: { type: string }) => item.type === 'image');
    expect(imageItem).toEqual({
      id: expect.any(Number),
      album_id: album.id,
      type: 'image',
      caption: 'Orange',
      display_order: 7,
      created: expect.any(Number),
      album_cover: 1,
      converted_url: null,
      converted_filesize: null,
      converted_md5_checksum: null,
      content_url: url(`/album/${album.id}/content/${imageItem.id}/file`),
      content_filesize: String(png.length),
      content_md5_checksum: md5(png),
      thumbnail_url: url(`/album/${album.id}/content/${imageItem.id}/thumbnail`),
      thumbnail_dimensions: '240x180',
      content_dimensions: '640x480',
    });
    expect(items.map((item: { type: string }) => item.type).sort()).toEqual(['audio', 'image', 'video']);
    const videoItem = items.find((item: { type: string }) => item.type === 'video');
    expect(videoItem).toMatchObject({
      album_cover: 0,
      thumbnail_url: '',
      thumbnail_dimensions: '',
      content_dimensions: '',
      caption: '',
    });
    expect((await events()).map((event) => event[0])).toEqual([
      'album_content.create',
      'album_content.create',
      'album_content.create',
    ]);
    expect(await db().upload.count({ where: { id: { in: [image, video, audio] }, attachedAt: { not: null } } })).toBe(
      3,
    );

    const viewed = (await teacher.get(`/album/${album.id}`)).json.album[0];
    expect(viewed).toMatchObject({
      photo_count: 1,
      video_count: 1,
      audio_count: 1,
      cover_image_url: imageItem.content_url,
    });
    // Display order first: the image (7) after the others, which were appended in the order sent.
    expect(viewed.content.map((item: { type: string }) => item.type)).toEqual(['video', 'audio', 'image']);
  });

  it("reads the platform's XML form: nested ids and repeated extras", async () => {
    const album = await groupAlbum();
    const [first, second] = [
      await upload('teacher', png, 'a.png'),
      await upload('teacher', plainBytes(300), 'notes.txt'),
    ];
    const created = await (await as(w.teacher)).post(
      `${base(album.id)}/content`,
      `<body><file-attachment><id><id>${first}</id><id>${second}</id></id></file-attachment>` +
        `<extras><fid>${second}</fid><caption>Notes &amp; more</caption></extras></body>`,
    );
    expect(created.status).toBe(201);
    expect(created.json.content.map((item: { type: string; caption: string }) => [item.type, item.caption])).toEqual([
      ['image', ''],
      // HTML, sanitized on write: a bare & is kept as its entity.
      ['file', 'Notes &amp; more'],
    ]);
  });

  it('fails the whole request, naming the file, for an unknown, foreign, attached or empty upload, writing nothing', async () => {
    const album = await groupAlbum();
    const teacher = await as(w.teacher);
    const mine = await upload('teacher', png, 'ok.png');
    const studentsFile = await upload('student', png, 'theirs.png');
    const attached = (await createStoredUpload(w.teacher.id, { attached: true })).id;
    const pending = (
      await teacher.post('/upload', { filename: 'later.bin', filesize: 5, md5_checksum: md5(Buffer.from('later')) })
    ).json.id;
    const cases: [unknown, string, string][] = [
      [
        { 'file-attachment': { id: [mine, 2_000_000_000] } },
        'file-attachment/id.1',
        'file 2000000000 was not found among your uploads',
      ],
      [
        { 'file-attachment': { id: [mine, studentsFile] } },
        'file-attachment/id.1',
        `file ${studentsFile} was not found among your uploads`,
      ],
      [{ 'file-attachment': { id: [attached, mine] } }, 'file-attachment/id.0', `file ${attached} is attached already`],
      [{ 'file-attachment': { id: [mine, mine] } }, 'file-attachment/id.1', `file ${mine} is attached already`],
      [{ 'file-attachment': { id: [pending] } }, 'file-attachment/id.0', `file ${pending} has no stored bytes yet`],
      [
        { 'file-attachment': { id: [mine] }, extras: [{ fid: 77 }] },
        'extras.0.fid',
        'file 77 is not among the files sent',
      ],
      [{ 'file-attachment': { id: [] } }, 'files', 'name at least one uploaded file'],
      [{ extras: [] }, 'file-attachment/id', 'is required'],
      [{ 'file-attachment': { id: ['x'] } }, 'file-attachment/id', 'must be a file id'],
    ];
    await expectNothingWritten(async () => {
      for (const [body, field, message] of cases) {
        const refused = await teacher.post(`${base(album.id)}/content`, body);
        expect(refused.status, JSON.stringify(body)).toBe(400);
        expect(refused.json.issues, JSON.stringify(body)).toContainEqual({
          field: field === 'files' ? 'file-attachment/id' : field,
          message,
        });
      }
    });
  });

  it('lets members add content only while setting_member_post is 1; readers who are not members never', async () => {
    const closed = await groupAlbum();
    const open = await groupAlbum({ settingMemberPost: true });
    const studentsFile = await upload('student', png, 's.png');
    const student = await as(w.student);
    await expectNothingWritten(async () => {
      expect(
        (await student.post(`${base(closed.id)}/content`, { 'file-attachment': { id: [studentsFile] } })).status,
      ).toBe(403);
    });
    expect((await student.post(`${base(open.id)}/content`, { 'file-attachment': { id: [studentsFile] } })).status).toBe(
      201,
    );
    const parentsFile = await upload('parent', png, 'p.png');
    expect(
      (await (await as(w.parent)).post(`${base(open.id)}/content`, { 'file-attachment': { id: [parentsFile] } }))
        .status,
    ).toBe(403);
  });

  it('views an item in the album envelope, updates its caption (204), and moves the cover when it is deleted', async () => {
    const album = await groupAlbum();
    const teacher = await as(w.teacher);
    const files = [await upload('teacher', png, '1.png'), await upload('teacher', png, '2.png')];
    const [first, second] = (await teacher.post(`${base(album.id)}/content`, { 'file-attachment': { id: files } })).json
      .content;
    expect([first.album_cover, second.album_cover]).toEqual([1, 0]);

    const path = `${base(album.id)}/content/${first.id}`;
    const viewed = await (await as(w.student)).get(path);
    expect(viewed.status).toBe(200);
    expect(viewed.json).toEqual({
      album: [{ ...first, cover_image_url: first.content_url }],
      total: 1,
      links: { self: url(path) },
    });
    expect((await teacher.put(path, { caption: 'First light' })).status).toBe(204);
    expect((await teacher.get(`/album/${album.id}/content/${first.id}`)).json.album[0].caption).toBe('First light');
    await expectNothingWritten(async () => {
      expect((await (await as(w.student)).put(path, { caption: 'Mine now' })).status).toBe(403);
      expect((await teacher.put(`${base(album.id)}/content/${second.id + 1000}`, { caption: 'x' })).status).toBe(404);
    });

    const { storageKey, thumbnailKey } = await db().upload.findUniqueOrThrow({ where: { id: files[0]! } });
    const comment = await teacher.post(`${path}/comments`, { comment: 'Going' });
    const events = await watchDomainEvents();
    expect((await teacher.delete(path)).status).toBe(204);
    expect((await events()).map((event) => event[0])).toEqual(['album_content.delete']);
    expect((await teacher.get(path)).status).toBe(404);
    expect(await db().albumComment.count({ where: { id: comment.json.id } })).toBe(0);
    // The file and its thumbnail are gone once the delete committed; the cover moved to the other image.
    expect(await db().upload.count({ where: { id: files[0]! } })).toBe(0);
    expect(await fileStore().size(storageKey)).toBeNull();
    expect(await fileStore().size(thumbnailKey!)).toBeNull();
    const after = (await teacher.get(`/album/${album.id}`)).json.album[0];
    expect(after).toMatchObject({ photo_count: 1, cover_image_url: second.content_url });
    expect(after.content[0]).toMatchObject({ id: second.id, album_cover: 1 });
  });

  it('serves content_url and thumbnail_url with type and length, ranges of video, only to those who see the album', async () => {
    const album = await groupAlbum();
    const video = mp4();
    const files = [await upload('teacher', png, 'board.png'), await upload('teacher', video, 'talk.mp4')];
    const [image, clip] = (
      await (await as(w.teacher)).post(`${base(album.id)}/content`, { 'file-attachment': { id: files } })
    ).json.content;

    const whole = await fetchAs('parent', image.content_url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('image/png');
    expect(whole.headers.get('content-length')).toBe(String(png.length));
    expect(whole.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await bytesOf(whole)).equals(png)).toBe(true);
    const thumbnail = await fetchAs('student', image.thumbnail_url);
    expect(thumbnail.headers.get('content-type')).toBe('image/jpeg');
    expect(await sharp(await bytesOf(thumbnail)).metadata()).toMatchObject({ width: 240, height: 180 });

    const part = await fetchAs('student', clip.content_url, { range: 'bytes=10-19' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-type')).toBe('video/mp4');
    expect(part.headers.get('content-range')).toBe(`bytes 10-19/${video.length}`);
    expect((await bytesOf(part)).equals(video.subarray(10, 20))).toBe(true);
    const tail = await fetchAs('student', clip.content_url, { range: 'bytes=-5' });
    expect((await bytesOf(tail)).equals(video.subarray(video.length - 5))).toBe(true);
    const beyond = await fetchAs('student', clip.content_url, { range: `bytes=${video.length}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${video.length}`);
    expect(
      (await fetchAs('student', clip.thumbnail_url || url(`/album/${album.id}/content/${clip.id}/thumbnail`))).status,
    ).toBe(404);

    expect((await fetchAs('outsider', image.content_url)).status).toBe(404);
    const sectionAlbum = await createAlbum({ type: 'SECTION', id: section.id });
    const sectionFile = await upload('teacher', png, 's.png');
    const [sectionItem] = (
      await (
        await as(w.teacher)
      ).post(`/sections/${section.id}/albums/${sectionAlbum.id}/content`, { 'file-attachment': { id: [sectionFile] } })
    ).json.content;
    expect((await fetchAs('parent', sectionItem.content_url)).status).toBe(403);
    const hidden = await groupAlbum({ published: false });
    const hiddenFile = await upload('teacher', png, 'h.png');
    const [hiddenItem] = (
      await (await as(w.teacher)).post(`${base(hidden.id)}/content`, { 'file-attachment': { id: [hiddenFile] } })
    ).json.content;
    expect((await fetchAs('student', hiddenItem.content_url)).status).toBe(404);
    expect((await fetchAs('teacher', hiddenItem.content_url)).status).toBe(200);
  });
});

describe('album comments', () => {
  it('creates (201, links.self), lists paged, views, and deletes by author or administrator, also at legacy paths', async () => {
    const album = await groupAlbum();
    const teacher = await as(w.teacher);
    const [item] = (
      await teacher.post(`${base(album.id)}/content`, { 'file-attachment': { id: [await upload('teacher', png)] } })
    ).json.content;
    const comments = `${base(album.id)}/content/${item.id}/comments`;
    const student = await as(w.student);
    const events = await watchDomainEvents();
    const created = await student.post(comments, { comment: 'Great & bright' });
    expect(created.status).toBe(201);
    const stored = await db().albumComment.findUniqueOrThrow({ where: { id: created.json.id } });
    const comment = {
      id: created.json.id,
      content_id: item.id,
      uid: w.student.id,
      // HTML, sanitized on write: a bare & is kept as its entity.
      comment: 'Great &amp; bright',
      created: Math.floor(stored.createdAt.getTime() / 1000),
      status: 1,
      links: { self: url(`/album/${album.id}/content/${item.id}/comment/${created.json.id}`) },
    };
    expect(created.json).toEqual(comment);
    const second = (
      await teacher.post(`/album/${album.id}/content/${item.id}/comments`, '<body><comment>Thanks</comment></body>')
    ).json;

    const page = await (await as(w.parent)).get(`${comments}?limit=1`);
    expect(page.json).toEqual({
      comment: [comment],
      total: 2,
      links: { self: url(`${comments}?limit=1&start=0`), next: url(`${comments}?limit=1&start=1`) },
    });
    expect((await student.get(`${comments}/${comment.id}`)).json).toEqual(comment);
    expect((await student.get(`/album/${album.id}/content/${item.id}/comment/${second.id}`)).json.comment).toBe(
      'Thanks',
    );

    await expectNothingWritten(async () => {
      expect((await student.delete(`${comments}/${second.id}`)).status).toBe(403);
      expect((await student.post(comments, { comment: '' })).status).toBe(400);
      expect((await (await as(w.outsider)).post(comments, { comment: 'hi' })).status).toBe(404);
    });
    expect((await student.delete(`/album/${album.id}/content/${item.id}/comment/${comment.id}`)).status).toBe(204);
    expect((await teacher.delete(`${comments}/${second.id}`)).status).toBe(204);
    expect((await student.get(`${comments}/${second.id}`)).status).toBe(404);
    expect((await events()).map((event) => event[0])).toEqual([
      'album_comment.create',
      'album_comment.create',
      'album_comment.delete',
      'album_comment.delete',
    ]);
  });

  it('refuses comments with 403 while the album has comments off, for everyone', async () => {
    const album = await groupAlbum({ settingComments: false });
    const teacher = await as(w.teacher);
    const [item] = (
      await teacher.post(`${base(album.id)}/content`, { 'file-attachment': { id: [await upload('teacher', png)] } })
    ).json.content;
    await expectNothingWritten(async () => {
      for (const person of ['teacher', 'student', 'schoolAdmin'] as const) {
        expect(
          (await (await as(w[person])).post(`${base(album.id)}/content/${item.id}/comments`, { comment: 'hi' })).status,
        ).toBe(403);
      }
    });
    expect((await teacher.get(`${base(album.id)}/content/${item.id}/comments`)).json.total).toBe(0);
  });
});

describe('deleting the realm', () => {
  it("removes the group's albums, content, comments and stored files", async () => {
    const doomed = await createGroup(w.school.id, { admins: [w.teacher.id], members: [w.student.id] });
    const album = await createAlbum({ type: 'GROUP', id: doomed.id });
    const kept = await groupAlbum();
    const teacher = await as(w.teacher);
    const file = await upload('teacher', png, 'x.png');
    const [item] = (
      await teacher.post(`/groups/${doomed.id}/albums/${album.id}/content`, { 'file-attachment': { id: [file] } })
    ).json.content;
    await teacher.post(`/album/${album.id}/content/${item.id}/comments`, { comment: 'bye' });
    const { storageKey, thumbnailKey } = await db().upload.findUniqueOrThrow({ where: { id: file } });

    expect((await teacher.delete(`/groups/${doomed.id}`)).status).toBe(204);
    expect(await db().album.count({ where: { id: album.id } })).toBe(0);
    expect(await db().albumContent.count({ where: { albumId: album.id } })).toBe(0);
    expect(await db().albumComment.count({ where: { contentId: item.id } })).toBe(0);
    expect(await db().upload.count({ where: { id: file } })).toBe(0);
    expect(await fileStore().size(storageKey)).toBeNull();
    expect(await fileStore().size(thumbnailKey!)).toBeNull();
    expect(await db().album.count({ where: { id: kept.id } })).toBe(1);
  });
});

describe('GraphQL twin', () => {
  it('creates an album, adds content, reads counts, cover and items, and comments, through payloads', async () => {
    const graphql = await clients.graphql(w.teacher);
    const realm = { type: 'GROUP', id: String(group.id) };
    const created = await graphql(
      `mutation($realm: RealmInput!) { createAlbum(input: { realm: $realm, title: "Twin", settingMemberPost: true }) {
        album { id: databaseId published settingComments } userErrors { code } } }`,
      { realm },
    );
    const album = created.data.createAlbum.album;
    expect(created.data.createAlbum).toEqual({
      album: { id: album.id, published: true, settingComments: true },
      userErrors: [],
    });
    const file = await upload('teacher', png, 'g.png');
    const add = `mutation($input: CreateAlbumContentInput!) { createAlbumContent(input: $input) {
      albumContents { id: databaseId kind caption albumCover contentDimensions }
      album { photoCount coverImageUrl }
      userErrors { field code message } } }`;
    const added = await graphql(add, {
      input: { albumId: album.id, files: [String(file)], extras: [{ fid: String(file), caption: 'Twin photo' }] },
    });
    const itemId = added.data.createAlbumContent.albumContents[0].id;
    // The album comes back as it now is, with the count and cover the new item changed.
    expect(added.data.createAlbumContent).toEqual({
      albumContents: [
        { id: itemId, kind: 'IMAGE', caption: 'Twin photo', albumCover: true, contentDimensions: '640x480' },
      ],
      album: { photoCount: 1, coverImageUrl: url(`/album/${album.id}/content/${itemId}/file`) },
      userErrors: [],
    });
    // The same file again: attached already, so nothing is added, and the member at fault is named.
    expect(
      (await graphql(add, { input: { albumId: album.id, files: [String(file)] } })).data.createAlbumContent,
    ).toEqual({
      albumContents: null,
      album: null,
      userErrors: [{ field: ['input', 'files', '0'], code: 'INVALID', message: expect.any(String) }],
    });
    const read = await (await clients.graphql(w.student))(
      `query($realm: RealmInput!) { albums(realm: $realm, limit: 200) { items { id: databaseId photoCount videoCount coverImageUrl contents { id: databaseId contentUrl } } } }`,
      { realm },
    );
    const twin = read.data.albums.items.find((item: { id: string }) => item.id === album.id);
    expect(twin).toEqual({
      id: album.id,
      photoCount: 1,
      videoCount: 0,
      coverImageUrl: url(`/album/${album.id}/content/${itemId}/file`),
      contents: [{ id: itemId, contentUrl: url(`/album/${album.id}/content/${itemId}/file`) }],
    });
    const commented = await graphql(
      `mutation($albumId: ID!, $contentId: ID!) { createAlbumComment(input: { albumId: $albumId, contentId: $contentId, comment: "Nice" }) {
        albumComment { id: databaseId comment authorId albumId } userErrors { code } } }`,
      { albumId: album.id, contentId: itemId },
    );
    const commentId = commented.data.createAlbumComment.albumComment.id;
    expect(commented.data.createAlbumComment).toEqual({
      albumComment: { id: commentId, comment: 'Nice', authorId: String(w.teacher.id), albumId: album.id },
      userErrors: [],
    });
    const uncommented = await graphql(
      `mutation($input: DeleteAlbumCommentInput!) { deleteAlbumComment(input: $input) { deletedAlbumCommentId userErrors { code } } }`,
      { input: { albumId: album.id, contentId: itemId, id: commentId } },
    );
    expect(uncommented.data.deleteAlbumComment).toEqual({
      deletedAlbumCommentId: encodeGlobalId('AlbumComment', Number(commentId)),
      userErrors: [],
    });

    // Removing the only item takes the album's count and cover with it.
    const removed = await graphql(
      `mutation($input: DeleteAlbumContentInput!) { deleteAlbumContent(input: $input) {
        deletedAlbumContentId album { photoCount coverImageUrl } userErrors { code } } }`,
      { input: { albumId: encodeGlobalId('Album', Number(album.id)), id: itemId } },
    );
    expect(removed.data.deleteAlbumContent).toEqual({
      deletedAlbumContentId: encodeGlobalId('AlbumContent', Number(itemId)),
      album: { photoCount: 0, coverImageUrl: null },
      userErrors: [],
    });
    const remove = `mutation($input: DeleteAlbumInput!) { deleteAlbum(input: $input) {
      deletedAlbumId userErrors { field code message } } }`;
    expect((await graphql(remove, { input: { id: album.id } })).data.deleteAlbum).toEqual({
      deletedAlbumId: encodeGlobalId('Album', Number(album.id)),
      userErrors: [],
    });
    expect((await graphql(remove, { input: { id: album.id } })).data.deleteAlbum).toEqual({
      deletedAlbumId: null,
      userErrors: [{ field: ['input', 'id'], code: 'NOT_FOUND', message: `Album ${album.id} was not found` }],
    });
  });

  it('answers updateAlbumContent with the item and its album, whose cover moved to it', async () => {
    const graphql = await clients.graphql(w.teacher);
    const album = await groupAlbum();
    const [first, second] = [await upload('teacher', png, 'a.png'), await upload('teacher', png, 'b.png')];
    const added = await graphql(
      `mutation($input: CreateAlbumContentInput!) { createAlbumContent(input: $input) { albumContents { id: databaseId albumCover } } }`,
      { input: { albumId: String(album.id), files: [String(first), String(second)] } },
    );
    const [cover, other] = added.data.createAlbumContent.albumContents;
    expect([cover.albumCover, other.albumCover]).toEqual([true, false]);
    const update = `mutation($input: UpdateAlbumContentInput!) { updateAlbumContent(input: $input) {
      albumContent { id: databaseId albumCover } album { coverImageUrl contents { id: databaseId albumCover } }
      userErrors { field code message } } }`;
    const moved = await graphql(update, { input: { albumId: String(album.id), id: other.id, albumCover: true } });
    expect(moved.data.updateAlbumContent).toEqual({
      albumContent: { id: other.id, albumCover: true },
      album: {
        coverImageUrl: url(`/album/${album.id}/content/${other.id}/file`),
        contents: [
          { id: cover.id, albumCover: false },
          { id: other.id, albumCover: true },
        ],
      },
      userErrors: [],
    });
    const missing = await graphql(update, { input: { albumId: String(album.id), id: '999999', caption: 'x' } });
    expect(missing.data.updateAlbumContent).toEqual({
      albumContent: null,
      album: null,
      userErrors: [{ field: ['input', 'id'], code: 'NOT_FOUND', message: 'AlbumContent 999999 was not found' }],
    });
  });

  it('reads a page of albums with their content in as many SQL statements for 20 albums as for 5', async () => {
    const owner = await createGroup(w.school.id, { admins: [w.teacher.id] });
    for (let i = 0; i < 20; i++) {
      const album = await createAlbum({ type: 'GROUP', id: owner.id });
      for (let j = 0; j < 3; j++) {
        const upload = await createStoredUpload(w.teacher.id, { kind: j ? 'IMAGE' : 'VIDEO', attached: true });
        await db().albumContent.create({ data: { albumId: album.id, uploadId: upload.id, albumCover: j === 1 } });
      }
    }
    const graphql = await clients.graphql(w.teacher);
    const query = `query($realm: RealmInput!, $limit: Int!) { albums(realm: $realm, limit: $limit) { total items {
      id: databaseId photoCount videoCount audioCount coverImageUrl contents { id: databaseId kind filesize contentUrl thumbnailUrl contentDimensions } } } }`;
    const statementsFor = async (limit: number) => {
      const before = server.database.statementCount;
      const result = await graphql(query, { realm: { type: 'GROUP', id: String(owner.id) }, limit });
      expect(result.errors).toBeUndefined();
      expect(result.data.albums.items).toHaveLength(limit);
      return server.database.statementCount - before;
    };
    await statementsFor(1);
    const [five, twenty] = [await statementsFor(5), await statementsFor(20)];
    expect(twenty).toBe(five);
    const teacher = await as(w.teacher);
    const restStatements = async (limit: number) => {
      const before = server.database.statementCount;
      expect((await teacher.get(`/groups/${owner.id}/albums?limit=${limit}&withcontent=1`)).json.album).toHaveLength(
        limit,
      );
      return server.database.statementCount - before;
    };
    await restStatements(1);
    expect(await restStatements(20)).toBe(await restStatements(5));
  });
});
