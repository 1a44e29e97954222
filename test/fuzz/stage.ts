/**
 * What fuzzed requests act on: a district with a school, a building, users of each role, groups, a section, a group
 * category, posts in every realm, and credentials for five actors. Writes and deletes wear a stage out (a revoked
 * token, a deleted school), so it is replaced every few hundred requests and whenever an actor's credential stops working.
 */
import { issueAccessToken, issueApiClient } from '../../src/modules/access/access.service';
import { db } from '../../src/db/database';
import type { ExistingId, ObjectKind } from '../support/arbitraries';
import { RestClient } from '../support/client';
import { createBlogPosts, createGroup, createGroupCategory, createSection, createWorld } from '../support/factories';
import type { TestServer } from '../support/harness';

export const actors = ['districtAdmin', 'schoolAdmin', 'teacher', 'student', 'outsider'] as const;
export type Actor = (typeof actors)[number];

/** The realms of a stage, in the order of its `realm` ids; its `post` ids are one post in each, in the same order. */
export const stageRealmTypes = ['DISTRICT', 'SCHOOL', 'GROUP', 'SECTION', 'USER'] as const;

export interface Stage {
  rest: Record<Actor, RestClient>;
  tokens: Record<Actor, string>;
  /** The id an ExistingId names on this stage. */
  resolve(id: ExistingId): number;
}

async function createStage(server: TestServer): Promise<Stage> {
  const world = await createWorld();
  const { district, school, building, otherSchool, farSchool, otherDistrict, teacher, student, schoolAdmin } = world;
  const open = await createGroup(school.id, { privacyLevel: 'EVERYONE', admins: [teacher.id], members: [student.id] });
  const closed = await createGroup(building.id, { privacyLevel: 'GROUP', admins: [schoolAdmin.id], members: [world.parent.id] });
  const category = await createGroupCategory(district.id);
  const section = await createSection(school.id, [{ userId: teacher.id, admin: true }, { userId: student.id }]);
  const realmIds = { DISTRICT: district.id, SCHOOL: school.id, GROUP: open.id, SECTION: section.id, USER: student.id };
  const realms = stageRealmTypes.map((type) => ({ type, id: realmIds[type] }));
  // The district administrator administers triggers: webhook targets of the school.
  await db().user.update({ where: { id: world.districtAdmin.id }, data: { triggerAdmin: true } });
  const target = await db().triggerTarget.create({ data: { schoolId: school.id, url: 'https://receiver.test/hook', secret: 'sealed' } });
  const posts = (await Promise.all(realms.map((realm) => createBlogPosts(realm, 1, { authorId: world.districtAdmin.id })))).flat();

  const rest = {} as Record<Actor, RestClient>;
  const tokens = {} as Record<Actor, string>;
  const credentials: number[] = [];
  for (const actor of actors) {
    const client = await issueApiClient(server.serverKey, { userId: world[actor].id, name: 'fuzz' });
    const token = await issueAccessToken({ userId: world[actor].id, name: 'fuzz' });
    rest[actor] = new RestClient(server, client.consumerKey, client.consumerSecret);
    tokens[actor] = token.token;
    credentials.push(client.id, token.id);
  }

  const users = [world.districtAdmin, schoolAdmin, teacher, student, world.parent, world.otherSchoolStudent, world.outsider];
  const ids: Record<ObjectKind, number[]> = {
    district: [district.id, otherDistrict.id],
    school: [school.id, building.id, otherSchool.id, farSchool.id],
    building: [building.id],
    user: users.map((user) => user.id),
    group: [open.id, closed.id],
    section: [section.id],
    post: posts.map((post) => post.id),
    category: [category.id],
    credential: credentials,
    realm: realms.map((realm) => realm.id),
    target: [target.id],
  };
  const any = Object.values(ids).flat();
  return {
    rest,
    tokens,
    resolve: ({ kind, index }) => {
      const pool = kind === 'any' ? any : ids[kind];
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
