/**
 * What fuzzed requests act on: a district with a school, a building, users of each role, groups, a section, a group
 * category, posts in every realm, and credentials for five actors. Writes and deletes wear a stage out (a revoked
 * token, a deleted school), so it is replaced every few hundred requests and whenever an actor's credential stops working.
 */
import { encryptSecret, hashToken, randomToken } from '../../src/auth/secrets';
import { db } from '../../src/db/database';
import { newSigningSecret } from '../../src/webhooks/signing';
import type { ExistingId, ObjectKind } from '../support/arbitraries';
import { RestClient } from '../support/client';
import {
  createAlbum,
  createAlbumItem,
  createBlogPosts,
  createCalendarEvent,
  createGroup,
  createGradingGroup,
  createGroupCategory,
  createPage,
  createStoredUploads,
  createSection,
  createWorld,
} from '../support/factories';
import type { TestServer } from '../support/harness';

export const actors = ['districtAdmin', 'schoolAdmin', 'teacher', 'student', 'outsider'] as const;
export type Actor = (typeof actors)[number];

/** The realms of a stage, in the order of its `realm` ids; its `post`, `event`, `page` and `album` ids are one of each in each, in the same order. */
export const stageRealmTypes = ['DISTRICT', 'SCHOOL', 'GROUP', 'SECTION', 'USER'] as const;

export interface Stage {
  rest: Record<Actor, RestClient>;
  tokens: Record<Actor, string>;
  /** The id an ExistingId names on this stage, for a request of `actor`. */
  resolve(id: ExistingId, actor: Actor): number;
}

async function createStage(server: TestServer): Promise<Stage> {
  const world = await createWorld();
  const { district, school, building, otherSchool, farSchool, otherDistrict, teacher, student, schoolAdmin } = world;
  const open = await createGroup(school.id, { privacyLevel: 'EVERYONE', admins: [teacher.id], members: [student.id] });
  const closed = await createGroup(building.id, {
    privacyLevel: 'GROUP',
    admins: [schoolAdmin.id],
    members: [world.parent.id],
  });
  const category = await createGroupCategory(district.id);
  const section = await createSection(school.id, [{ userId: teacher.id, admin: true }, { userId: student.id }]);
  const realmIds = { DISTRICT: district.id, SCHOOL: school.id, GROUP: open.id, SECTION: section.id, USER: student.id };
  // Codes a fuzzed join can name (kind `accesscode`): each section's and group's id.
  await db().section.update({ where: { id: section.id }, data: { accessCode: String(section.id) } });
  for (const group of [open, closed])
    await db().group.update({ where: { id: group.id }, data: { accessCode: String(group.id) } });
  const realms = stageRealmTypes.map((type) => ({ type, id: realmIds[type] }));
  // The district administrator administers triggers: webhook targets of the school.
  await db().user.update({ where: { id: world.districtAdmin.id }, data: { triggerAdmin: true } });
  // A real sealed secret: a sample event (sendSampleEvent) signs with it.
  const secret = encryptSecret(newSigningSecret(), server.serverKey);
  const target = await db().triggerTarget.create({
    data: { schoolId: school.id, url: 'https://receiver.test/hook', secret },
  });
  const posts = (
    await Promise.all(realms.map((realm) => createBlogPosts(realm, 1, { authorId: world.districtAdmin.id })))
  ).flat();
  const events = await Promise.all(
    realms.map((realm) =>
      createCalendarEvent(realm, { start: new Date('2026-09-01T15:00:00Z'), authorId: world.districtAdmin.id }),
    ),
  );
  // Pages belong to groups and sections only; realms of other kinds name the group's page.
  const groupPage = await createPage({ type: 'GROUP', id: open.id });
  const sectionPage = await createPage({ type: 'SECTION', id: section.id });
  const pages = stageRealmTypes.map((type) => (type === 'SECTION' ? sectionPage : groupPage));
  const enrollments = await db().enrollment.findMany({
    where: { sectionId: section.id },
    select: { id: true, userId: true },
  });
  const memberships = await db().groupMembership.findMany({ where: { groupId: open.id }, select: { id: true } });
  const gradingGroup = await createGradingGroup(
    section.id,
    enrollments.map((enrollment) => enrollment.id),
  );
  const assignment = await db().assignment.create({ data: { sectionId: section.id, title: 'Quiz' } });
  const period = await db().gradingPeriod.create({
    data: { schoolId: school.id, title: 'Term', startsOn: new Date('2026-09-01'), endsOn: new Date('2026-12-20') },
  });
  const scale = await db().gradingScale.create({
    data: {
      schoolId: school.id,
      title: 'Letters',
      levels: [
        { grade: 'P', minimum: 50 },
        { grade: 'F', minimum: 0 },
      ],
    },
  });
  const gradingScale = await db().gradingScale.create({
    data: { schoolId: school.id, title: 'Letters', levels: [{ grade: 'A', minimum: 0 }] },
  });
  const gradingCategory = await db().gradingCategory.create({
    data: { sectionId: section.id, title: 'Homework', defaultGradingScaleId: gradingScale.id },
  });
  // Albums live in groups and sections: the group's stands in for the realms that have none (their paths are 403).
  const groupAlbum = await createAlbum({ type: 'GROUP', id: open.id }, { settingMemberPost: true });
  const sectionAlbum = await createAlbum({ type: 'SECTION', id: section.id });
  const albums = realms.map((realm) => (realm.type === 'SECTION' ? sectionAlbum : groupAlbum));
  const items = new Map(
    await Promise.all(
      [groupAlbum, sectionAlbum].map(
        async (album) => [album.id, await createAlbumItem(album.id, teacher.id, { kind: 'IMAGE' })] as const,
      ),
    ),
  );
  const comments = new Map(
    await Promise.all(
      [...items.values()].map(
        async (item) =>
          [
            item.id,
            await db().albumComment.create({ data: { contentId: item.id, authorId: student.id, comment: 'fuzz' } }),
          ] as const,
      ),
    ),
  );

  // Each actor's credentials written in two statements for all: issued one by one (issueApiClient, issueAccessToken:
  // a transaction and an event each) they took half the time a stage takes, and every fuzzed mutation gets a stage.
  const issued = actors.map((actor) => ({
    actor,
    userId: world[actor].id,
    consumerKey: randomToken(16),
    consumerSecret: randomToken(24),
    token: randomToken(32),
  }));
  const clients = await db().apiClient.createManyAndReturn({
    data: issued.map(({ userId, consumerKey, consumerSecret }) => ({
      userId,
      name: 'fuzz',
      consumerKey,
      encryptedSecret: encryptSecret(consumerSecret, server.serverKey),
    })),
    select: { id: true },
  });
  const accessTokens = await db().accessToken.createManyAndReturn({
    data: issued.map(({ userId, token }) => ({ userId, name: 'fuzz', tokenHash: hashToken(token) })),
    select: { id: true },
  });
  const rest = {} as Record<Actor, RestClient>;
  const tokens = {} as Record<Actor, string>;
  for (const { actor, consumerKey, consumerSecret, token } of issued) {
    rest[actor] = new RestClient(server, consumerKey, consumerSecret);
    tokens[actor] = token;
  }
  const credentials = clients.flatMap((client, index) => [client.id, accessTokens[index]!.id]);

  const users = [
    world.districtAdmin,
    schoolAdmin,
    teacher,
    student,
    world.parent,
    world.otherSchoolStudent,
    world.outsider,
  ];
  // Pending invites (to groups and sections) and friend requests for every actor, which answering uses up.
  const inviting = await Promise.all([...Array(6)].map(() => createGroup(school.id)));
  const enrolling = await Promise.all([...Array(2)].map(() => createSection(school.id, [])));
  const invites = await db().invite.createManyAndReturn({
    data: actors.flatMap((actor) => [
      ...inviting.map((group) => ({ userId: world[actor].id, groupId: group.id })),
      ...enrolling.map((section) => ({ userId: world[actor].id, sectionId: section.id })),
    ]),
    select: { id: true, userId: true },
  });
  const friendRequests = await db().friendRequest.createManyAndReturn({
    data: actors.flatMap((actor) =>
      users
        .filter((user) => user.id !== world[actor].id)
        .map((user) => ({ requesterId: user.id, userId: world[actor].id })),
    ),
    select: { id: true, userId: true },
  });
  const idsFor = (rows: { id: number; userId: number }[], actor: Actor) =>
    rows.filter((row) => row.userId === world[actor].id).map((row) => row.id);
  const pending = Object.fromEntries(
    actors.map((actor) => [actor, { invite: idsFor(invites, actor), friendRequest: idsFor(friendRequests, actor) }]),
  ) as Record<Actor, { invite: number[]; friendRequest: number[] }>;
  // Fresh files of each actor's for content creates: a create attaches them, so there are plenty.
  const uploads = await createStoredUploads(actors.flatMap((actor) => Array<number>(24).fill(world[actor].id)));
  const uploadsOf = Object.fromEntries(
    actors.map((actor) => [actor, uploads.filter((upload) => upload.ownerId === world[actor].id)]),
  ) as Record<Actor, { id: number; ownerId: number }[]>;
  const ids: Record<Exclude<ObjectKind, 'self' | 'invite' | 'friendRequest' | 'upload'>, number[]> = {
    district: [district.id, otherDistrict.id],
    school: [school.id, building.id, otherSchool.id, farSchool.id],
    building: [building.id],
    user: users.map((user) => user.id),
    group: [open.id, closed.id],
    section: [section.id],
    course: [section.courseId],
    post: posts.map((post) => post.id),
    event: events.map((event) => event.id),
    page: pages.map((page) => page.id),
    enrollment: enrollments.map((enrollment) => enrollment.id),
    membership: memberships.map((membership) => membership.id),
    gradinggroup: [gradingGroup.id],
    gradingcategory: [gradingCategory.id],
    gradingscale: [gradingScale.id],
    album: albums.map((album) => album.id),
    content: albums.map((album) => items.get(album.id)!.id),
    comment: albums.map((album) => comments.get(items.get(album.id)!.id)!.id),
    category: [category.id],
    credential: credentials,
    realm: realms.map((realm) => realm.id),
    target: [target.id],
    assignment: [assignment.id],
    learner: [enrollments.find((enrollment) => enrollment.userId === student.id)!.id],
    period: [period.id],
    scale: [scale.id],
    accesscode: [section.id, open.id, closed.id],
  };
  const any = Object.values(ids).flat();
  return {
    rest,
    tokens,
    resolve: ({ kind, index }, actor) => {
      if (kind === 'self') return world[actor].id;
      const pool =
        kind === 'any'
          ? any
          : kind === 'invite' || kind === 'friendRequest'
            ? pending[actor][kind]
            : kind === 'upload'
              ? uploadsOf[actor].map((upload) => upload.id)
              : ids[kind];
      return pool[index % pool.length]!;
    },
  };
}

/** The current stage, replaced after `renewEvery` requests or once an actor's credential stopped working. */
export class Stages {
  private current: Promise<Stage> | null = null;
  private requests = 0;

  constructor(
    private readonly server: TestServer,
    private readonly renewEvery = 300,
  ) {}

  stage(): Promise<Stage> {
    if (!this.current || this.requests++ >= this.renewEvery) {
      this.requests = 0;
      this.current = createStage(this.server);
    }
    return this.current;
  }

  /** A 401 means the request revoked its own credential or deleted its user: the next request gets a new stage. */
  renew(): void {
    this.current = null;
  }
}
