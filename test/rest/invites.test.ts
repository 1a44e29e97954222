import { TZDate } from '@date-fns/tz';
import { beforeAll, describe, expect, it } from 'vitest';
import { encodeGlobalId } from '../../src/core/global-id';
import { db } from '../../src/db/database';
import { type GraphQLClient, type RestClient, clientsFor, forbidden, refusal } from '../support/client';
import {
  type World,
  createDistrict,
  createGroup,
  createInvite,
  createSchool,
  createSection,
  createUser,
  createWorld,
  watchDomainEvents,
} from '../support/factories';
import { useTestServer } from '../support/harness';
import { el, v1, xmlHead } from '../support/wire';
import { expectNothingWritten } from '../support/writes';

const server = useTestServer();
const clients = clientsFor(server);
const cast = [
  'teacher',
  'student',
  'parent',
  'schoolAdmin',
  'districtAdmin',
  'otherSchoolStudent',
  'outsider',
] as const;
type Person = (typeof cast)[number];
let w: World;
let as: Record<Person, RestClient>;
let gql: Record<Person, GraphQLClient>;

/** Every cast client is issued up front: issuing one records a domain event, which would disturb the event assertions. */
beforeAll(async () => {
  w = await createWorld();
  as = await clients.restFor(cast, w);
  gql = await clients.graphqlFor(cast, w);
});

/** A student of the world's school with nothing pending yet, and their REST client (issued now, before any event watch). */
async function invitee() {
  const user = await createUser(w.school.id, 'STUDENT');
  return { user, rest: await clients.rest(user) };
}
const teachersGroup = (title?: string) => createGroup(w.school.id, { admins: [w.teacher.id], title });
const teachersSection = () => createSection(w.school.id, [{ userId: w.teacher.id, admin: true }]);

const addressedOnly = 'Only the user it is addressed to may do this';
const unixTime = (date: Date) => Math.floor(date.getTime() / 1000);
type Row = { id: number; createdAt: Date };

/** A group invite on the wire, as the platform's example shows one: ids and `created` integers. */
const groupInviteWire = (invite: Row, group: { id: number; title: string; pictureUrl: string }) => ({
  group_id: group.id,
  group_name: group.title,
  picture_url: group.pictureUrl,
  school_name: w.school.title,
  school_id: w.school.id,
  id: invite.id,
  created: unixTime(invite.createdAt),
});
/** A course invite on the wire: the section's id an integer, and no picture. */
const sectionInviteWire = (invite: Row, section: { id: number; title: string }) => ({
  section_id: section.id,
  section_name: section.title,
  picture_url: '',
  school_name: w.school.title,
  school_id: w.school.id,
  id: invite.id,
  created: unixTime(invite.createdAt),
});
/** One invite as XML, its members in the order the wire objects above list them. */
const inviteXml = (invite: Record<string, unknown>) =>
  `<invite>${Object.entries(invite)
    .map(([name, value]) => el(name, value))
    .join('')}</invite>`;
const listXml = (items: string, total: number, self: string) =>
  `${xmlHead}<result>${items}<total>${total}</total><links><self>${self.replace(/&/g, '&amp;')}</self></links></result>`;

const ids = (response: { json: { invite: { id: number }[] } }) => response.json.invite.map((invite) => invite.id);
/** The data of the invite events of one invite, oldest first. */
const inviteEventData = (inviteId: number) =>
  db().domainEvent.findMany({
    where: { objectId: inviteId, type: { startsWith: 'invite.' } },
    orderBy: { id: 'asc' },
    select: { type: true, data: true },
  });

describe('GET /users/{id}/invites/{realm}', () => {
  it("lists group invites under groups and group, in JSON and XML, with the wire types of the platform's example", async () => {
    const { user, rest } = await invitee();
    const made = await teachersGroup('Chess & Go');
    const group = await db().group.update({
      where: { id: made.id },
      data: { pictureUrl: 'https://img.test/chess.png?size=2&crop=1' },
    });
    const invite = await createInvite(user.id, { groupId: group.id }, { inviterId: w.teacher.id });
    // A course invite is listed under sections only.
    await createInvite(user.id, { sectionId: (await teachersSection()).id });
    const wire = groupInviteWire(invite, group);

    for (const segment of ['groups', 'group']) {
      const path = `/users/${user.id}/invites/${segment}`;
      const listed = await rest.get(path);
      expect(listed.status).toBe(200);
      expect(listed.json).toEqual({ invite: [wire], total: 1, links: { self: `${v1}${path}?start=0&limit=20` } });
      const xml = await rest.get(path, { accept: 'xml' });
      expect([xml.status, xml.headers.get('content-type')]).toEqual([200, 'text/xml; charset=utf-8']);
      expect(xml.text).toBe(listXml(inviteXml(wire), 1, `${v1}${path}?start=0&limit=20`));
      expect(xml.text).toContain(
        '<group_name>Chess &amp; Go</group_name><picture_url>https://img.test/chess.png?size=2&amp;crop=1</picture_url>',
      );
    }
  });

  it('lists course invites under sections and section: section_id an integer, picture_url empty', async () => {
    const { user, rest } = await invitee();
    const section = await teachersSection();
    const invite = await createInvite(user.id, { sectionId: section.id }, { inviterId: w.teacher.id });
    await createInvite(user.id, { groupId: (await teachersGroup()).id });
    const wire = sectionInviteWire(invite, section);

    for (const segment of ['sections', 'section']) {
      const path = `/users/${user.id}/invites/${segment}`;
      const listed = await rest.get(path);
      expect(listed.json).toEqual({ invite: [wire], total: 1, links: { self: `${v1}${path}?start=0&limit=20` } });
      expect(typeof listed.json.invite[0].section_id).toBe('number');
      const xml = await rest.get(path, { accept: 'xml' });
      expect(xml.text).toBe(listXml(inviteXml(wire), 1, `${v1}${path}?start=0&limit=20`));
      expect(xml.text).toContain('<picture_url />');
    }
  });

  it('pages with start and limit: total, links.self, and links.next only while more follow', async () => {
    const { user, rest } = await invitee();
    const invites: Row[] = [];
    for (let index = 0; index < 3; index++)
      invites.push(await createInvite(user.id, { groupId: (await teachersGroup()).id }));
    const path = `/users/${user.id}/invites/groups`;

    const first = await rest.get(`${path}?start=0&limit=2`);
    expect([ids(first), first.json.total]).toEqual([[invites[0]!.id, invites[1]!.id], 3]);
    expect(first.json.links).toEqual({ self: `${v1}${path}?start=0&limit=2`, next: `${v1}${path}?start=2&limit=2` });
    const last = await rest.get(`${path}?start=2&limit=2`);
    expect(last.json).toEqual({
      invite: [expect.objectContaining({ id: invites[2]!.id })],
      total: 3,
      links: { self: `${v1}${path}?start=2&limit=2` },
    });
    const lastXml = await rest.get(`${path}?start=2&limit=2`, { accept: 'xml' });
    expect(
      [...lastXml.text.matchAll(/<invite><group_id>\d+<\/group_id>.*?<id>(\d+)<\/id>/g)].map((match) =>
        Number(match[1]),
      ),
    ).toEqual([invites[2]!.id]);
    expect(lastXml.text).toContain(
      `<total>3</total><links><self>${v1}${path}?start=2&amp;limit=2</self></links></result>`,
    );
    const past = await rest.get(`${path}?start=5`);
    expect(past.json).toEqual({ invite: [], total: 3, links: { self: `${v1}${path}?start=5&limit=20` } });
    expect((await rest.get(`${path}?start=5`, { accept: 'xml' })).text).toContain('<result><invite /><total>3</total>');
    expect((await rest.get(`${path}?limit=0`)).status).toBe(400);
  });

  it('answers 400 naming the realm segment for any other word, on GET and PUT, writing nothing', async () => {
    const { user, rest } = await invitee();
    const invite = await createInvite(user.id, { groupId: (await teachersGroup()).id });
    const refusedWord = (word: string) => ({
      error: `realm: '${word}' must be one of groups, group, sections, section`,
      issues: [{ field: 'realm', message: 'must be one of groups, group, sections, section' }],
    });
    await expectNothingWritten(async () => {
      for (const word of ['bogus', 'courses']) {
        const listed = await rest.get(`/users/${user.id}/invites/${word}`);
        expect([listed.status, listed.json]).toEqual([400, refusedWord(word)]);
        const answered = await rest.put(`/users/${user.id}/invites/${word}/${invite.id}`, {
          invite: { invite_action: 'accept' },
        });
        expect([answered.status, answered.json]).toEqual([400, refusedWord(word)]);
      }
      const xml = await rest.get(`/users/${user.id}/invites/bogus`, { accept: 'xml' });
      expect(xml.text).toBe(
        `${xmlHead}<result><error>realm: 'bogus' must be one of groups, group, sections, section</error>` +
          '<issues><field>realm</field><message>must be one of groups, group, sections, section</message></issues></result>',
      );
    });
  });

  it('shows a user their own invites and their district administrators too; others who see the user 403, others 404', async () => {
    const group = await teachersGroup();
    const invite = await createInvite(w.student.id, { groupId: group.id }, { inviterId: w.teacher.id });
    const path = `/users/${w.student.id}/invites/groups`;
    await expectNothingWritten(async () => {
      const own = await as.student.get(path);
      expect(ids(own)).toContain(invite.id);
      expect((await as.districtAdmin.get(path)).json).toEqual(own.json);
      for (const person of ['teacher', 'parent', 'schoolAdmin'] as const) {
        const refused = await as[person].get(path);
        expect([person, refused.status, refused.json]).toEqual([person, 403, { error: addressedOnly }]);
      }
      for (const person of ['otherSchoolStudent', 'outsider'] as const) {
        const hidden = await as[person].get(path);
        expect([person, hidden.status, hidden.json]).toEqual([person, 404, { error: 'Not found' }]);
      }
      expect((await as.districtAdmin.get('/users/999999/invites/groups')).status).toBe(404);
    });
  });
});

describe("created_offset: only invites created after it, read in the district's time zone", () => {
  const second = 1000;
  const minute = 60 * second;
  const day = 24 * 60 * minute;
  interface Place {
    schoolId: number;
    groups: [{ id: number }, { id: number }];
    reader: RestClient;
  }
  const places: Record<string, Place> = {};

  /** A district in `zone` (UTC when null), set through GraphQL, straight in the database, or left at its default. */
  async function placeIn(zone: string | null, setBy: 'graphql' | 'db' | 'default'): Promise<Place> {
    const district = await createDistrict();
    const school = await createSchool(district.id);
    const admin = await createUser(school.id, 'DISTRICT_ADMIN');
    if (setBy === 'graphql') {
      const update = `mutation($id: ID!, $zone: String!) { updateDistrict(input: { id: $id, timeZone: $zone }) { district { timeZone } } }`;
      const updated = await (await clients.graphql(admin))(update, { id: String(district.id), zone });
      expect(updated.data.updateDistrict).toEqual({ district: { timeZone: zone } });
    }
    if (setBy === 'db') await db().district.update({ where: { id: district.id }, data: { timeZone: zone! } });
    const groups = [await createGroup(school.id), await createGroup(school.id)] as Place['groups'];
    return { schoolId: school.id, groups, reader: await clients.rest(admin) };
  }

  beforeAll(async () => {
    places.UTC = await placeIn(null, 'default');
    places['Asia/Kathmandu'] = await placeIn('Asia/Kathmandu', 'graphql');
    places['America/Chicago'] = await placeIn('America/Chicago', 'db');
  });

  /** The instant a wall-clock time on the zone's clock names, `daysBack` days before today there. */
  function wallClock(zone: string, daysBack: number, hours = 0) {
    const today = new TZDate(Date.now(), zone);
    return new Date(+new TZDate(today.getFullYear(), today.getMonth(), today.getDate() - daysBack, hours, 0, 0, zone));
  }
  /** strtotime's "last monday": the Monday before today on the zone's clock (a week back when today is one). */
  const daysSinceMonday = (zone: string) => (new TZDate(Date.now(), zone).getDay() + 6) % 7 || 7;
  const exactly = (instant: Date | string): [Date, Date] => [
    new Date(instant),
    new Date(new Date(instant).getTime() + second),
  ];
  const around = (instant: Date, margin: number): [Date, Date] => [
    new Date(instant.getTime() - margin),
    new Date(instant.getTime() + margin),
  ];

  // Each case names the last instant that is left out and one shortly after it that is listed.
  it.each<[zone: string, text: string, bounds: () => [Date, Date]]>([
    ['UTC', '2010-05-14 23:44:32', () => exactly('2010-05-14T23:44:32Z')],
    ['UTC', '2010-05-14', () => exactly('2010-05-14T00:00:00Z')],
    ['UTC', '@1273880672', () => exactly('2010-05-14T23:44:32Z')],
    ['UTC', 'yesterday', () => around(wallClock('UTC', 1), minute)],
    ['Asia/Kathmandu', '2010-05-14 23:44:32', () => exactly('2010-05-14T17:59:32Z')],
    ['Asia/Kathmandu', '2010-05-14', () => exactly('2010-05-13T18:15:00Z')],
    ['Asia/Kathmandu', 'yesterday', () => around(wallClock('Asia/Kathmandu', 1), minute)],
    ['Asia/Kathmandu', '3 days ago', () => around(new Date(Date.now() - 3 * day), 30 * minute)],
    [
      'Asia/Kathmandu',
      'last monday 9am',
      () => around(wallClock('Asia/Kathmandu', daysSinceMonday('Asia/Kathmandu'), 9), minute),
    ],
    // Central daylight time in May, whatever the season the test runs in.
    ['America/Chicago', '2010-05-14 23:44:32', () => exactly('2010-05-15T04:44:32Z')],
    ['America/Chicago', 'yesterday', () => around(wallClock('America/Chicago', 1), minute)],
  ])('%s: "%s" leaves out the invite created at the boundary and lists the one after', async (zone, text, bounds) => {
    const place = places[zone]!;
    const user = await createUser(place.schoolId, 'STUDENT');
    const [leftOut, listed] = bounds();
    await createInvite(user.id, { groupId: place.groups[0].id }, { createdAt: leftOut });
    const after = await createInvite(user.id, { groupId: place.groups[1].id }, { createdAt: listed });
    const path = `/users/${user.id}/invites/groups?created_offset=${encodeURIComponent(text)}`;
    const response = await place.reader.get(path);
    expect(response.status).toBe(200);
    expect([ids(response), response.json.total]).toEqual([[after.id], 1]);
    expect(response.json.links.self).toBe(
      `${v1}/users/${user.id}/invites/groups?created_offset=${encodeURIComponent(text).replace(/%20/g, '+')}&start=0&limit=20`,
    );
  });

  it('lists everything without created_offset or with an empty one; the district shows its time zone', async () => {
    const place = places['Asia/Kathmandu']!;
    const user = await createUser(place.schoolId, 'STUDENT');
    const invites = [
      await createInvite(user.id, { groupId: place.groups[0].id }, { createdAt: new Date('2001-01-01T00:00:00Z') }),
      await createInvite(user.id, { groupId: place.groups[1].id }),
    ];
    for (const query of ['', '?created_offset=']) {
      expect(ids(await place.reader.get(`/users/${user.id}/invites/groups${query}`))).toEqual(
        invites.map((invite) => invite.id),
      );
    }
    const districtId = (await db().school.findUniqueOrThrow({ where: { id: place.schoolId } })).districtId;
    const admin = await db().user.findFirstOrThrow({ where: { schoolId: place.schoolId, role: 'DISTRICT_ADMIN' } });
    const read = await (await clients.graphql(admin))(
      `query($id: ID!) { district(id: $id) { id: databaseId timeZone } }`,
      { id: String(districtId) },
    );
    expect(read.data.district).toEqual({ id: String(districtId), timeZone: 'Asia/Kathmandu' });
  });

  it('answers 400 naming created_offset for text that is not a date, never an empty list', async () => {
    const { user, rest } = await invitee();
    await createInvite(user.id, { groupId: (await teachersGroup()).id });
    for (const text of ['gibberish', '2010-05-14 lorem', 'next blursday']) {
      const reason = `'${text}' is not a date or time this server can read, such as 2010-05-14 23:44:32 or 3 days ago`;
      const refused = await rest.get(`/users/${user.id}/invites/sections?created_offset=${encodeURIComponent(text)}`);
      expect([refused.status, refused.json]).toEqual([
        400,
        { error: `created_offset: ${reason}`, issues: [{ field: 'created_offset', message: reason }] },
      ]);
    }
    const xml = await rest.get(`/users/${user.id}/invites/groups?created_offset=soonish`, { accept: 'xml' });
    const reason = "'soonish' is not a date or time this server can read, such as 2010-05-14 23:44:32 or 3 days ago";
    expect([xml.status, xml.text]).toEqual([
      400,
      `${xmlHead}<result><error>created_offset: ${reason}</error><issues><field>created_offset</field><message>${reason}</message></issues></result>`,
    ]);
  });

  it('refuses a time zone that is not an IANA name with a userError naming input.timeZone, changing nothing', async () => {
    const update = `mutation($id: ID!) { updateDistrict(input: { id: $id, timeZone: "Mars/Olympus" }) {
      district { id } userErrors { field code message } } }`;
    const refused = await expectNothingWritten(() => gql.districtAdmin(update, { id: String(w.district.id) }));
    expect(refused.data.updateDistrict).toEqual({
      district: null,
      userErrors: [
        {
          field: ['input', 'timeZone'],
          code: 'INVALID',
          message: 'must be an IANA time zone, such as America/Chicago',
        },
      ],
    });
  });
});

describe('PUT /users/{id}/invites/{realm}/{id}', () => {
  it('accepts a group invite (documented JSON): 204, the user is a member, the invite is gone, events recorded', async () => {
    const { user, rest } = await invitee();
    const group = await teachersGroup();
    const invite = await createInvite(user.id, { groupId: group.id }, { inviterId: w.teacher.id });
    const events = await watchDomainEvents();
    const answered = await rest.put(`/users/${user.id}/invites/groups/${invite.id}`, {
      invite: { invite_action: 'accept' },
    });
    expect([answered.status, answered.text]).toEqual([204, '']);
    const membership = await db().groupMembership.findUniqueOrThrow({
      where: { groupId_userId: { groupId: group.id, userId: user.id } },
    });
    expect(membership.admin).toBe(false);
    expect(await db().invite.findUnique({ where: { id: invite.id } })).toBeNull();
    expect(await events()).toEqual([
      ['group_member.create', 'GROUP', group.id, membership.id, user.id, w.district.id, w.school.id],
      ['invite.accept', 'GROUP', group.id, invite.id, user.id, w.district.id, w.school.id],
    ]);
    expect(await inviteEventData(invite.id)).toEqual([{ type: 'invite.accept', data: { userId: user.id } }]);
    expect((await rest.get(`/users/${user.id}/invites/groups`)).json).toMatchObject({ invite: [], total: 0 });
    const members = await gql.teacher(
      `query($id: ID!) { group(id: $id) { members { user { id: databaseId } admin } } }`,
      { id: String(group.id) },
    );
    expect(members.data.group.members).toContainEqual({ user: { id: String(user.id) }, admin: false });
  });

  it('accepts a course invite (flat JSON): 204, an active student enrollment, enrollment.create and invite.accept', async () => {
    const { user, rest } = await invitee();
    const section = await teachersSection();
    const invite = await createInvite(user.id, { sectionId: section.id }, { inviterId: w.teacher.id });
    const events = await watchDomainEvents();
    const answered = await rest.put(`/users/${user.id}/invites/sections/${invite.id}`, { invite_action: 'accept' });
    expect([answered.status, answered.text]).toEqual([204, '']);
    const enrollment = await db().enrollment.findUniqueOrThrow({
      where: { sectionId_userId: { sectionId: section.id, userId: user.id } },
    });
    expect(enrollment).toMatchObject({ admin: false, status: 'ACTIVE' });
    expect(await db().invite.findUnique({ where: { id: invite.id } })).toBeNull();
    expect(await events()).toEqual([
      ['enrollment.create', 'SECTION', section.id, enrollment.id, user.id, w.district.id, w.school.id],
      ['invite.accept', 'SECTION', section.id, invite.id, user.id, w.district.id, w.school.id],
    ]);
  });

  it('accepts a course invite in XML: an enrollment waiting as INVITE_PENDING becomes ACTIVE, no second one is made', async () => {
    const { user, rest } = await invitee();
    const section = await teachersSection();
    const invite = await createInvite(user.id, { sectionId: section.id });
    const pending = await db().enrollment.create({
      data: { sectionId: section.id, userId: user.id, status: 'INVITE_PENDING' },
    });
    const events = await watchDomainEvents();
    const body = '<request><invite><invite_action>accept</invite_action></invite></request>';
    const answered = await rest.put(`/users/${user.id}/invites/section/${invite.id}`, body, { accept: 'xml' });
    expect([answered.status, answered.text]).toEqual([204, '']);
    expect(await db().enrollment.findMany({ where: { sectionId: section.id, userId: user.id } })).toEqual([
      { ...pending, status: 'ACTIVE' },
    ]);
    expect(await events()).toContainEqual([
      'invite.accept',
      'SECTION',
      section.id,
      invite.id,
      user.id,
      w.district.id,
      w.school.id,
    ]);
  });

  it('accepts an invite to a group the user has joined since: the membership stays as it is', async () => {
    const { user, rest } = await invitee();
    const group = await teachersGroup();
    const invite = await createInvite(user.id, { groupId: group.id });
    const membership = await db().groupMembership.create({ data: { groupId: group.id, userId: user.id, admin: true } });
    const events = await watchDomainEvents();
    expect((await rest.put(`/users/${user.id}/invites/groups/${invite.id}`, { invite_action: 'accept' })).status).toBe(
      204,
    );
    expect(await db().groupMembership.findMany({ where: { groupId: group.id, userId: user.id } })).toEqual([
      membership,
    ]);
    expect(await events()).toEqual([
      ['invite.accept', 'GROUP', group.id, invite.id, user.id, w.district.id, w.school.id],
    ]);
  });

  it.each([
    ['documented JSON', 'groups', { invite: { invite_action: 'deny' } }],
    ['flat JSON', 'group', { invite_action: 'deny' }],
    ['documented XML', 'sections', '<request><invite><invite_action>deny</invite_action></invite></request>'],
    ['flat XML', 'section', '<request><invite_action> deny </invite_action></request>'],
  ])('denies in %s: 204, the invite is gone, nobody joins, invite.deny', async (_form, segment, body) => {
    const { user, rest } = await invitee();
    const kind = segment.startsWith('group') ? 'GROUP' : 'SECTION';
    const realmId = kind === 'GROUP' ? (await teachersGroup()).id : (await teachersSection()).id;
    const invite = await createInvite(user.id, kind === 'GROUP' ? { groupId: realmId } : { sectionId: realmId });
    const events = await watchDomainEvents();
    const answered = await rest.put(`/users/${user.id}/invites/${segment}/${invite.id}`, body);
    expect([answered.status, answered.text]).toEqual([204, '']);
    expect(await db().invite.findUnique({ where: { id: invite.id } })).toBeNull();
    expect(await db().groupMembership.count({ where: { userId: user.id } })).toBe(0);
    expect(await db().enrollment.count({ where: { userId: user.id } })).toBe(0);
    expect(await events()).toEqual([['invite.deny', kind, realmId, invite.id, user.id, w.district.id, w.school.id]]);
    expect(await inviteEventData(invite.id)).toEqual([{ type: 'invite.deny', data: { userId: user.id } }]);
  });

  it("answers 404 for an answered or unknown invite, another user's, and one of the other realm kind, writing nothing", async () => {
    const { user, rest } = await invitee();
    const group = await teachersGroup();
    const section = await teachersSection();
    const answered = await createInvite(user.id, { groupId: group.id });
    expect((await rest.put(`/users/${user.id}/invites/groups/${answered.id}`, { invite_action: 'deny' })).status).toBe(
      204,
    );
    const toGroup = await createInvite(user.id, { groupId: (await teachersGroup()).id });
    const toSection = await createInvite(user.id, { sectionId: section.id });
    const someoneElses = await createInvite(w.student.id, { groupId: group.id });
    const base = `/users/${user.id}/invites`;
    await expectNothingWritten(async () => {
      for (const [path, id] of [
        [`${base}/groups/${answered.id}`, answered.id],
        [`${base}/groups/999999`, 999999],
        [`${base}/groups/4000000000`, 4000000000],
        [`${base}/groups/${someoneElses.id}`, someoneElses.id],
        [`${base}/sections/${toGroup.id}`, toGroup.id],
        [`${base}/groups/${toSection.id}`, toSection.id],
      ] as const) {
        const response = await rest.put(path, { invite: { invite_action: 'accept' } });
        expect([path, response.status, response.json]).toEqual([path, 404, { error: `Invite ${id} was not found` }]);
      }
    });
    expect(await db().invite.count({ where: { id: { in: [toGroup.id, toSection.id, someoneElses.id] } } })).toBe(3);
  });

  it('answers 400 naming the member for a missing or unknown action, writing nothing', async () => {
    const { user, rest } = await invitee();
    const invite = await createInvite(user.id, { groupId: (await teachersGroup()).id });
    const path = `/users/${user.id}/invites/groups/${invite.id}`;
    const refusal400 = (field: string, message: string) => ({
      error: `${field}: ${message}`,
      issues: [{ field, message }],
    });
    await expectNothingWritten(async () => {
      for (const [body, field, message] of [
        [{}, 'invite/invite_action', 'is required: accept or deny'],
        [{ invite: {} }, 'invite/invite_action', 'is required: accept or deny'],
        [{ invite_action: 'maybe' }, 'invite_action', 'must be one of accept, deny'],
        [{ invite: { invite_action: 'ACCEPT!' } }, 'invite/invite_action', 'must be one of accept, deny'],
        [
          '<request><invite><invite_action>later</invite_action></invite></request>',
          'invite/invite_action',
          'must be one of accept, deny',
        ],
      ] as const) {
        const response = await rest.put(path, body);
        expect([response.status, response.json]).toEqual([400, refusal400(field, message)]);
      }
    });
  });

  it('lets only the invited user answer: 403 for the inviter and administrators, 404 where the user is hidden', async () => {
    const invite = await createInvite(
      w.student.id,
      { groupId: (await teachersGroup()).id },
      { inviterId: w.teacher.id },
    );
    const path = `/users/${w.student.id}/invites/groups/${invite.id}`;
    await expectNothingWritten(async () => {
      for (const person of ['teacher', 'schoolAdmin', 'districtAdmin', 'parent'] as const) {
        const refused = await as[person].put(path, { invite: { invite_action: 'accept' } });
        expect([person, refused.status, refused.json]).toEqual([person, 403, { error: addressedOnly }]);
      }
      for (const person of ['otherSchoolStudent', 'outsider'] as const) {
        const hidden = await as[person].put(path, { invite: { invite_action: 'accept' } });
        expect([person, hidden.status, hidden.json]).toEqual([
          person,
          404,
          { error: `User ${w.student.id} was not found` },
        ]);
      }
      // As for a user who does not exist.
      const missing = await as.districtAdmin.put(`/users/999999/invites/groups/${invite.id}`, {
        invite: { invite_action: 'accept' },
      });
      expect([missing.status, missing.json]).toEqual([404, { error: 'User 999999 was not found' }]);
      // The district administrator reads the invite they may not answer.
      expect(ids(await as.districtAdmin.get(`/users/${w.student.id}/invites/groups`))).toContain(invite.id);
    });
  });

  describe.each([
    { segment: 'groups', kind: 'GROUP' as const },
    { segment: 'sections', kind: 'SECTION' as const },
  ])('two accepts of one $segment invite racing each other', ({ segment, kind }) => {
    it.skipIf(!process.env.TEST_DATABASE_URL)(
      'make exactly one membership: one 204 and one 404 (PostgreSQL)',
      async () => {
        const { user, rest } = await invitee();
        const realmId = kind === 'GROUP' ? (await teachersGroup()).id : (await teachersSection()).id;
        const invite = await createInvite(user.id, kind === 'GROUP' ? { groupId: realmId } : { sectionId: realmId });
        const events = await watchDomainEvents();
        const path = `/users/${user.id}/invites/${segment}/${invite.id}`;
        const answers = await Promise.all([
          rest.put(path, { invite: { invite_action: 'accept' } }),
          rest.put(path, { invite_action: 'accept' }),
        ]);
        expect(answers.map((answer) => answer.status).sort((a, b) => a - b)).toEqual([204, 404]);
        const memberships =
          kind === 'GROUP'
            ? await db().groupMembership.count({ where: { groupId: realmId, userId: user.id } })
            : await db().enrollment.count({ where: { sectionId: realmId, userId: user.id } });
        expect(memberships).toBe(1);
        const joined = kind === 'GROUP' ? 'group_member.create' : 'enrollment.create';
        expect((await events()).map(([type]) => type)).toEqual([joined, 'invite.accept']);
      },
    );
  });
});

describe('GraphQL twins', () => {
  const createInviteDoc = `mutation($realm: RealmInput!, $userId: ID!) { createInvite(input: { realm: $realm, userId: $userId }) {
    invite { id: databaseId realm user { id: databaseId } inviter { id: databaseId } group { id: databaseId } section { id: databaseId } }
    userErrors { field code message } } }`;
  const answerInviteDoc = `mutation($userId: ID!, $realm: InviteRealm!, $id: ID!, $action: RequestAction!) {
    answerInvite(input: { userId: $userId, realm: $realm, id: $id, action: $action }) {
      answeredInvite { id action realm realmId } deletedInviteId
      group { id: databaseId memberCount } section { id: databaseId } userErrors { field code message } } }`;
  /** createInvite's payload when it wrote nothing. */
  const refused = (field: string[], code: string, message: string) => ({
    invite: null,
    userErrors: [{ field: ['input', ...field], code, message }],
  });
  const invitesDoc = `query($userId: ID!, $realm: InviteRealm!, $createdAfterText: String, $start: Int, $limit: Int) {
    invites(userId: $userId, realm: $realm, createdAfterText: $createdAfterText, start: $start, limit: $limit) {
      total start limit items { id: databaseId createdAt realm user { id: databaseId } inviter { id: databaseId } group { id: databaseId title } section { id: databaseId title } } } }`;
  const realm = (type: string, id: number) => ({ type, id: String(id) });

  it('createInvite: a group or section administrator invites a user they see; invite.create; the invitee lists it', async () => {
    const { user, rest } = await invitee();
    const group = await teachersGroup();
    const section = await teachersSection();
    const events = await watchDomainEvents();
    const toGroup = (await gql.teacher(createInviteDoc, { realm: realm('GROUP', group.id), userId: String(user.id) }))
      .data.createInvite.invite;
    expect(toGroup).toEqual({
      id: toGroup.id,
      realm: 'GROUP',
      user: { id: String(user.id) },
      inviter: { id: String(w.teacher.id) },
      group: { id: String(group.id) },
      section: null,
    });
    const toSection = (
      await gql.teacher(createInviteDoc, { realm: realm('SECTION', section.id), userId: String(user.id) })
    ).data.createInvite.invite;
    expect(toSection).toMatchObject({
      realm: 'SECTION',
      group: null,
      section: { id: String(section.id) },
    });
    const [groupInviteId, sectionInviteId] = [Number(toGroup.id), Number(toSection.id)];
    expect(await events()).toEqual([
      ['invite.create', 'GROUP', group.id, groupInviteId, w.teacher.id, w.district.id, w.school.id],
      ['invite.create', 'SECTION', section.id, sectionInviteId, w.teacher.id, w.district.id, w.school.id],
    ]);
    expect(await inviteEventData(groupInviteId)).toEqual([{ type: 'invite.create', data: { userId: user.id } }]);
    expect(await db().invite.findUniqueOrThrow({ where: { id: groupInviteId } })).toMatchObject({
      userId: user.id,
      groupId: group.id,
      sectionId: null,
      inviterId: w.teacher.id,
    });
    expect(ids(await rest.get(`/users/${user.id}/invites/groups`))).toEqual([groupInviteId]);
    expect(ids(await rest.get(`/users/${user.id}/invites/sections`))).toEqual([sectionInviteId]);
  });

  it('createInvite refuses a duplicate or a member (CONFLICT), a district (INVALID), others, writing nothing', async () => {
    const { user } = await invitee();
    const group = await teachersGroup();
    await createInvite(user.id, { groupId: group.id });
    const joined = await createGroup(w.school.id, { admins: [w.teacher.id], members: [user.id] });
    const section = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }, { userId: user.id }]);
    const studentsGroup = await createGroup(w.school.id, { admins: [w.teacher.id], members: [w.student.id] });
    const invite = (client: GraphQLClient, type: string, id: number, userId = user.id) =>
      client(createInviteDoc, { realm: realm(type, id), userId: String(userId) });
    await expectNothingWritten(async () => {
      expect((await invite(gql.teacher, 'GROUP', group.id)).data.createInvite).toEqual(
        refused(['userId'], 'CONFLICT', 'The user already has a pending invite to this realm'),
      );
      expect((await invite(gql.teacher, 'GROUP', joined.id)).data.createInvite).toEqual(
        refused(['userId'], 'CONFLICT', 'The user is already a member of this group'),
      );
      expect((await invite(gql.teacher, 'SECTION', section.id)).data.createInvite).toEqual(
        refused(['userId'], 'CONFLICT', 'The user is already a member of this section'),
      );
      const district = (await invite(gql.districtAdmin, 'DISTRICT', w.district.id)).data.createInvite;
      expect(district).toEqual(
        refused(['realm', 'type'], 'INVALID', 'must be GROUP or SECTION: invites are to groups and course sections'),
      );
      // A member who does not administer the group may not invite to it.
      expect(refusal(await invite(gql.student, 'GROUP', studentsGroup.id))).toEqual({
        ...forbidden('You may not change this group'),
        data: { createInvite: null },
      });
      expect((await invite(gql.teacher, 'GROUP', group.id, w.outsider.id)).data.createInvite).toEqual(
        refused(['userId'], 'NOT_FOUND', `User ${w.outsider.id} was not found`),
      );
    });
  });

  it("answerInvite: accepts and denies the viewer's own invites, answering the realm; an answered one is NOT_FOUND", async () => {
    const { user } = await invitee();
    const answer = await clients.graphql(user);
    const group = await teachersGroup();
    const section = await teachersSection();
    const [toGroup, toSection] = [
      await createInvite(user.id, { groupId: group.id }),
      await createInvite(user.id, { sectionId: section.id }),
    ];
    const vars = (invite: Row, kind: string, action: string) => ({
      userId: String(user.id),
      realm: kind,
      id: String(invite.id),
      action,
    });

    await expectNothingWritten(async () => {
      expect(refusal(await gql.teacher(answerInviteDoc, vars(toGroup, 'GROUP', 'ACCEPT')))).toEqual({
        ...forbidden(addressedOnly),
        data: { answerInvite: null },
      });
      expect((await gql.outsider(answerInviteDoc, vars(toGroup, 'GROUP', 'ACCEPT'))).data.answerInvite).toEqual({
        answeredInvite: null,
        deletedInviteId: null,
        group: null,
        section: null,
        userErrors: [{ field: ['input', 'userId'], code: 'NOT_FOUND', message: `User ${user.id} was not found` }],
      });
      expect((await answer(answerInviteDoc, vars(toGroup, 'SECTION', 'ACCEPT'))).data.answerInvite.userErrors).toEqual([
        expect.objectContaining({ code: 'NOT_FOUND', message: `Invite ${toGroup.id} was not found` }),
      ]);
    });
    const membersBefore = await db().groupMembership.count({ where: { groupId: group.id } });
    // The group joined comes back with its member count as it now is, for a client cache to refresh.
    expect((await answer(answerInviteDoc, vars(toGroup, 'GROUP', 'ACCEPT'))).data.answerInvite).toEqual({
      answeredInvite: {
        id: encodeGlobalId('Invite', toGroup.id),
        action: 'ACCEPT',
        realm: 'GROUP',
        realmId: encodeGlobalId('Group', group.id),
      },
      deletedInviteId: encodeGlobalId('Invite', toGroup.id),
      group: { id: String(group.id), memberCount: membersBefore + 1 },
      section: null,
      userErrors: [],
    });
    expect(await db().groupMembership.count({ where: { groupId: group.id, userId: user.id } })).toBe(1);
    expect((await answer(answerInviteDoc, vars(toSection, 'SECTION', 'DENY'))).data.answerInvite).toEqual({
      answeredInvite: {
        id: encodeGlobalId('Invite', toSection.id),
        action: 'DENY',
        realm: 'SECTION',
        realmId: encodeGlobalId('Section', section.id),
      },
      deletedInviteId: encodeGlobalId('Invite', toSection.id),
      group: null,
      section: { id: String(section.id) },
      userErrors: [],
    });
    expect(await db().enrollment.count({ where: { sectionId: section.id, userId: user.id } })).toBe(0);
    const again = await expectNothingWritten(() => answer(answerInviteDoc, vars(toGroup, 'GROUP', 'DENY')));
    expect(again.data.answerInvite.userErrors).toEqual([
      expect.objectContaining({ code: 'NOT_FOUND', message: `Invite ${toGroup.id} was not found` }),
    ]);
  });

  it('invites: the same list as /v1; null when hidden, FORBIDDEN for others, BAD_USER_INPUT for unreadable createdAfterText', async () => {
    const { user, rest } = await invitee();
    const read = await clients.graphql(user);
    const groups = [await teachersGroup(), await teachersGroup()];
    const invites = [
      await createInvite(
        user.id,
        { groupId: groups[0]!.id },
        { inviterId: w.teacher.id, createdAt: new Date('2010-05-14T12:00:00Z') },
      ),
      await createInvite(user.id, { groupId: groups[1]!.id }),
    ];
    const listed = await read(invitesDoc, { userId: String(user.id), realm: 'GROUP', limit: 1 });
    expect(listed.data.invites).toEqual({
      total: 2,
      start: 0,
      limit: 1,
      items: [
        {
          id: String(invites[0]!.id),
          createdAt: '2010-05-14T12:00:00.000Z',
          realm: 'GROUP',
          user: { id: String(user.id) },
          inviter: { id: String(w.teacher.id) },
          group: { id: String(groups[0]!.id), title: groups[0]!.title },
          section: null,
        },
      ],
    });
    const rest1 = (await rest.get(`/users/${user.id}/invites/groups?limit=1`)).json.invite[0];
    expect(rest1).toEqual({
      ...groupInviteWire(invites[0]!, groups[0]!),
      created: unixTime(new Date(listed.data.invites.items[0].createdAt)),
    });
    const after = await read(invitesDoc, { userId: String(user.id), realm: 'GROUP', createdAfterText: '2010-05-14' });
    expect(after.data.invites.items.map((item: { id: string }) => item.id)).toEqual(
      invites.map((invite) => String(invite.id)),
    );
    expect(
      (await read(invitesDoc, { userId: String(user.id), realm: 'GROUP', createdAfterText: '2010-05-15' })).data.invites
        .total,
    ).toBe(1);

    const unreadable = await read(invitesDoc, {
      userId: String(user.id),
      realm: 'SECTION',
      createdAfterText: 'the other day-ish',
    });
    expect(unreadable.data).toEqual({ invites: null });
    expect(unreadable.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'createdAfterText' });
    expect(unreadable.errors?.[0]?.message).toMatch(/^createdAfterText: 'the other day-ish' is not a date/);
    expect((await gql.outsider(invitesDoc, { userId: String(user.id), realm: 'GROUP' })).data).toEqual({
      invites: null,
    });
    const refused = await gql.teacher(invitesDoc, { userId: String(user.id), realm: 'GROUP' });
    expect([refused.data, refused.errors?.[0]?.extensions?.code, refused.errors?.[0]?.message]).toEqual([
      { invites: null },
      'FORBIDDEN',
      addressedOnly,
    ]);
    expect((await gql.districtAdmin(invitesDoc, { userId: String(user.id), realm: 'GROUP' })).data.invites.total).toBe(
      2,
    );
  });

  it('invites and invitesConnection take createdAfter as a DateTime; never with createdAfterText', async () => {
    const { user } = await invitee();
    const read = await clients.graphql(user);
    const groups = [await teachersGroup(), await teachersGroup()];
    await createInvite(
      user.id,
      { groupId: groups[0]!.id },
      { inviterId: w.teacher.id, createdAt: new Date('2010-05-14T12:00:00Z') },
    );
    const later = await createInvite(user.id, { groupId: groups[1]!.id });
    const since = `query($userId: ID!, $createdAfter: DateTime, $createdAfterText: String) {
      invites(userId: $userId, realm: GROUP, createdAfter: $createdAfter, createdAfterText: $createdAfterText) { items { id: databaseId } }
      invitesConnection(userId: $userId, realm: GROUP, createdAfter: $createdAfter) { totalCount nodes { databaseId } } }`;
    const userId = String(user.id);
    expect((await read(since, { userId, createdAfter: '2010-05-14T12:00:00Z' })).data).toEqual({
      invites: { items: [{ id: String(later.id) }] },
      invitesConnection: { totalCount: 1, nodes: [{ databaseId: String(later.id) }] },
    });
    expect(
      (await read(since, { userId, createdAfter: '2010-05-14T11:59:59Z' })).data.invitesConnection.totalCount,
    ).toBe(2);
    const both = await read(since, { userId, createdAfter: '2010-05-14T12:00:00Z', createdAfterText: 'yesterday' });
    expect(both.data.invites).toBeNull();
    expect(both.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'createdAfterText' });
  });
});
