import { beforeAll, describe, expect, it } from 'vitest';
import { encodeGlobalId } from '../../src/core/global-id';
import { db } from '../../src/db/database';
import { type GraphQLClient, type RestClient, clientsFor, forbidden, refusal } from '../support/client';
import { type World, createGroup, createSection, createWorld, unique, watchDomainEvents } from '../support/factories';
import { useTestServer } from '../support/harness';
import { placeholders } from '../support/placeholders';
import { expectNothingWritten } from '../support/writes';

const server = useTestServer();
const clients = clientsFor(server);

const cast = [
  'districtAdmin',
  'schoolAdmin',
  'teacher',
  'student',
  'parent',
  'otherSchoolStudent',
  'outsider',
] as const;
type Person = (typeof cast)[number];
let world: World;
let gql: Record<Person, GraphQLClient>;
let rest: Record<'student' | 'parent', RestClient>;

/** Every credential is issued up front: issuing one records a domain event, which would disturb the event assertions. */
beforeAll(async () => {
  world = await createWorld();
  gql = await clients.graphqlFor(cast, world);
  rest = await clients.restFor(['student', 'parent'], world);
});

const userFields =
  'id: databaseId username schoolUid nameFirst nameLast email role triggerAdmin school { id: databaseId } building { id: databaseId }';
const userErrors = 'userErrors { field code message }';
const createUserDoc = `mutation($input: CreateUserInput!) { createUser(input: $input) { user { ${userFields} } ${userErrors} } }`;
const createSectionDoc = `mutation($input: CreateSectionInput!) { createSection(input: $input) {
  section { id: databaseId title sectionCode course { id: databaseId title courseCode school { id: databaseId } } } ${userErrors} } }`;
const createEnrollmentDoc = `mutation($input: CreateEnrollmentInput!) { createEnrollment(input: $input) {
  enrollment { id: databaseId admin status user { id: databaseId } section { id: databaseId } }
  section { id: databaseId enrollments { user { id: databaseId } } } ${userErrors} } }`;
/** A payload that wrote nothing: its object member null, and why. */
const refused = (member: string, ...errors: { field: string[] | null; code: string; message: string }[]) => ({
  [member]: null,
  userErrors: errors,
});
const inInput = (field: string, code: string, message: string) => ({ field: ['input', field], code, message });
const addMemberDoc = `mutation($input: AddGroupMemberInput!) { addGroupMember(input: $input) {
  groupMembership { id: databaseId admin user { id: databaseId } } ${userErrors} } }`;
const removeMemberDoc = `mutation($input: RemoveGroupMemberInput!) { removeGroupMember(input: $input) {
  deletedGroupMembershipId ${userErrors} } }`;
const sectionDoc = `query($id: ID!) { section(id: $id) { id: databaseId title enrollments { admin status user { id: databaseId } } } }`;

const id = (object: { id: number }) => String(object.id);
/** Tables are written before the world exists: OTHER and BUILDING stand for its other school and its building. */
const resolve = placeholders(() => ({ OTHER: world.otherSchool, BUILDING: world.building }));

describe('createUser', () => {
  it('lets a school administrator create a teacher in a building of their school, with a user.create event', async () => {
    const events = await watchDomainEvents();
    const username = unique('ada');
    const input = {
      username,
      schoolUid: 'T-100',
      nameFirst: '  Ada ',
      nameLast: 'Lovelace',
      email: 'ada@example.test',
      role: 'TEACHER',
      buildingId: id(world.building),
    };
    const { data } = await gql.schoolAdmin(createUserDoc, { input });
    const created = data.createUser.user;
    expect(data.createUser.userErrors).toEqual([]);
    expect(created).toEqual({
      id: expect.stringMatching(/^\d+$/),
      username,
      schoolUid: 'T-100',
      nameFirst: 'Ada',
      nameLast: 'Lovelace',
      email: 'ada@example.test',
      role: 'TEACHER',
      triggerAdmin: false,
      school: { id: id(world.school) },
      building: { id: id(world.building) },
    });
    const userId = Number(created.id);
    expect(await events()).toEqual([
      ['user.create', 'SCHOOL', world.school.id, userId, world.schoolAdmin.id, world.district.id, world.school.id],
    ]);
    expect(
      (await gql.schoolAdmin(`query($id: ID!) { user(id: $id) { ${userFields} } }`, { id: created.id })).data.user,
    ).toEqual(created);
    expect(
      await db().user.findUnique({
        where: { id: userId },
        select: { schoolId: true, buildingId: true, username: true },
      }),
    ).toEqual({ schoolId: world.school.id, buildingId: world.building.id, username });
  });

  it("defaults to the viewer's school; explicit nulls mean left out", async () => {
    const username = unique('sam');
    const input = {
      username,
      nameFirst: 'Sam',
      nameLast: 'Student',
      role: 'STUDENT',
      schoolId: null,
      buildingId: null,
      schoolUid: null,
      email: null,
      triggerAdmin: null,
    };
    expect((await gql.schoolAdmin(createUserDoc, { input })).data.createUser.user).toEqual({
      id: expect.any(String),
      username,
      schoolUid: null,
      nameFirst: 'Sam',
      nameLast: 'Student',
      email: null,
      role: 'STUDENT',
      triggerAdmin: false,
      school: { id: id(world.school) },
      building: null,
    });
  });

  it('lets a district administrator create users in any school of the district, district administrators included', async () => {
    const events = await watchDomainEvents();
    const username = unique('dora');
    const input = {
      username,
      nameFirst: 'Dora',
      nameLast: 'Admin',
      role: 'DISTRICT_ADMIN',
      schoolId: id(world.otherSchool),
      triggerAdmin: true,
    };
    const created = (await gql.districtAdmin(createUserDoc, { input })).data.createUser.user;
    expect(created).toEqual({
      id: expect.any(String),
      username,
      schoolUid: null,
      nameFirst: 'Dora',
      nameLast: 'Admin',
      email: null,
      role: 'DISTRICT_ADMIN',
      triggerAdmin: true,
      school: { id: id(world.otherSchool) },
      building: null,
    });
    expect(await events()).toEqual([
      [
        'user.create',
        'SCHOOL',
        world.otherSchool.id,
        Number(created.id),
        world.districtAdmin.id,
        world.district.id,
        world.otherSchool.id,
      ],
    ]);
  });

  it('allows a username taken in another school of the district', async () => {
    const input = {
      username: world.student.username,
      nameFirst: 'Twin',
      nameLast: 'Name',
      role: 'STUDENT',
      schoolId: id(world.otherSchool),
    };
    const created = (await gql.districtAdmin(createUserDoc, { input })).data.createUser.user;
    expect([created.username, created.school]).toEqual([world.student.username, { id: id(world.otherSchool) }]);
  });

  const user = { nameFirst: 'No', nameLast: 'Body', role: 'STUDENT' };
  it.each([
    [
      'a school administrator creating a district administrator',
      'schoolAdmin',
      { role: 'DISTRICT_ADMIN' },
      'Only district administrators create district administrators',
    ],
    [
      'a school administrator creating in another school',
      'schoolAdmin',
      { schoolId: 'OTHER' },
      'You may not change this school',
    ],
    ['a teacher', 'teacher', {}, 'You may not change this school'],
    ['a student', 'student', {}, 'You may not change this school'],
    ['a parent', 'parent', { role: 'PARENT' }, 'You may not change this school'],
  ] as const)('refuses %s with FORBIDDEN', async (_name, person, fields, message) => {
    const input = { ...user, username: unique('x'), ...resolve(fields) };
    expect(refusal(await expectNothingWritten(() => gql[person](createUserDoc, { input })))).toEqual({
      ...forbidden(message),
      data: { createUser: null },
    });
  });

  it('answers NOT_FOUND naming input.schoolId for a school of another district, to its administrators too', async () => {
    const far = await expectNothingWritten(() =>
      gql.districtAdmin(createUserDoc, { input: { ...user, username: 'far', schoolId: id(world.farSchool) } }),
    );
    expect(far.data.createUser).toEqual(
      refused('user', inInput('schoolId', 'NOT_FOUND', `School ${world.farSchool.id} was not found`)),
    );
    const ours = await expectNothingWritten(() =>
      gql.outsider(createUserDoc, { input: { ...user, username: 'in', schoolId: id(world.school) } }),
    );
    expect(ours.data.createUser).toEqual(
      refused('user', inInput('schoolId', 'NOT_FOUND', `School ${world.school.id} was not found`)),
    );
  });

  it.each([
    [
      'username',
      () => ({ username: world.teacher.username, schoolUid: 'UID-2' }),
      'Username is already used in this school',
    ],
    [
      'schoolUid',
      () => ({ username: unique('fresh'), schoolUid: 'UID-1' }),
      'School user id is already used in this school',
    ],
  ] as const)('answers CONFLICT naming %s when it is taken in the school', async (field, fields, message) => {
    await db().user.update({ where: { id: world.parent.id }, data: { schoolUid: 'UID-1' } });
    const input = { ...user, ...fields() };
    const result = await expectNothingWritten(() => gql.schoolAdmin(createUserDoc, { input }));
    expect(result.data.createUser).toEqual(refused('user', inInput(field, 'CONFLICT', message)));
  });

  it.each([
    [
      'an invalid email and empty names',
      { email: 'not-an-email', nameFirst: ' ', nameLast: '' },
      [
        ['nameFirst', 'REQUIRED', 'is required'],
        ['nameLast', 'REQUIRED', 'is required'],
        ['email', 'INVALID_FORMAT', 'must be an email address'],
      ],
    ],
    ['a username with spaces', { username: 'two words' }, [['username', 'INVALID_FORMAT', 'must not contain spaces']]],
    ['an empty schoolUid', { schoolUid: '' }, [['schoolUid', 'REQUIRED', 'must not be empty']]],
    [
      'a building of another school',
      { buildingId: 'OTHER' },
      [['buildingId', 'INVALID', 'is not a building of the school']],
    ],
    [
      'a building id beyond any id',
      { buildingId: '99999999999' },
      [['buildingId', 'INVALID', 'is not a building of the school']],
    ],
    ['a building as schoolId', { schoolId: 'BUILDING' }, [['schoolId', 'INVALID', 'is a building; name its school']]],
  ] as const)('answers userErrors for %s', async (_name, fields, issues) => {
    const input = { ...user, username: unique('v'), ...resolve(fields) };
    const result = await expectNothingWritten(() => gql.schoolAdmin(createUserDoc, { input }));
    expect(result.data.createUser).toEqual(
      refused('user', ...issues.map(([field, code, message]) => inInput(field, code, message))),
    );
  });
});

describe('createSection and section', () => {
  it('creates the course for a new code and reuses it for a second section, with section.create events', async () => {
    const events = await watchDomainEvents();
    const courseCode = unique('BIO');
    const first = (
      await gql.schoolAdmin(createSectionDoc, {
        input: { courseTitle: 'Biology', courseCode, title: 'Biology A', sectionCode: 'A' },
      })
    ).data.createSection.section;
    const course = await db().course.findUniqueOrThrow({
      where: { schoolId_courseCode: { schoolId: world.school.id, courseCode } },
    });
    expect(first).toEqual({
      id: expect.any(String),
      title: 'Biology A',
      sectionCode: 'A',
      course: { id: id(course), title: 'Biology', courseCode, school: { id: id(world.school) } },
    });
    const second = (
      await gql.schoolAdmin(createSectionDoc, { input: { courseTitle: 'Ignored', courseCode, title: 'Biology B' } })
    ).data.createSection.section;
    expect(second).toEqual({
      id: expect.any(String),
      title: 'Biology B',
      sectionCode: null,
      course: { id: id(course), title: 'Biology', courseCode, school: { id: id(world.school) } },
    });
    expect(await db().course.count({ where: { courseCode } })).toBe(1);
    const row = (sectionId: string) => [
      'section.create',
      'SECTION',
      Number(sectionId),
      Number(sectionId),
      world.schoolAdmin.id,
      world.district.id,
      world.school.id,
    ];
    expect(await events()).toEqual([row(first.id), row(second.id)]);
  });

  it('lets a district administrator create a section in another school of the district', async () => {
    const input = { schoolId: id(world.otherSchool), courseTitle: 'Art', courseCode: unique('ART'), title: 'Art 1' };
    const created = (await gql.districtAdmin(createSectionDoc, { input })).data.createSection.section;
    expect(created.course.school).toEqual({ id: id(world.otherSchool) });
  });

  const section = { courseTitle: 'Chemistry', title: 'Chem 1' };
  it.each(['teacher', 'student', 'parent'] as const)('refuses a %s with FORBIDDEN', async (person) => {
    const response = await expectNothingWritten(() =>
      gql[person](createSectionDoc, { input: { ...section, courseCode: unique('CH') } }),
    );
    expect(refusal(response)).toEqual({
      ...forbidden('You may not change this school'),
      data: { createSection: null },
    });
  });

  it('refuses a school administrator in another school (FORBIDDEN), and an outsider (NOT_FOUND)', async () => {
    const input = { ...section, courseCode: unique('CH'), schoolId: id(world.otherSchool) };
    expect(refusal(await expectNothingWritten(() => gql.schoolAdmin(createSectionDoc, { input })))).toEqual({
      ...forbidden('You may not change this school'),
      data: { createSection: null },
    });
    const far = await expectNothingWritten(() =>
      gql.outsider(createSectionDoc, { input: { ...input, schoolId: id(world.school) } }),
    );
    expect(far.data.createSection).toEqual(
      refused('section', inInput('schoolId', 'NOT_FOUND', `School ${world.school.id} was not found`)),
    );
  });

  it('answers REQUIRED naming blank course title and code', async () => {
    const result = await expectNothingWritten(() =>
      gql.schoolAdmin(createSectionDoc, { input: { courseTitle: ' ', courseCode: '', title: 'T' } }),
    );
    expect(result.data.createSection).toEqual(
      refused(
        'section',
        inInput('courseTitle', 'REQUIRED', 'is required'),
        inInput('courseCode', 'REQUIRED', 'is required'),
      ),
    );
  });

  it('shows a section to its enrolled users and school administrators only', async () => {
    const created = await createSection(world.school.id, [
      { userId: world.teacher.id, admin: true },
      { userId: world.parent.id },
    ]);
    const expected = {
      id: id(created),
      title: created.title,
      enrollments: [
        { admin: true, status: 'ACTIVE', user: { id: id(world.teacher) } },
        { admin: false, status: 'ACTIVE', user: { id: id(world.parent) } },
      ],
    };
    for (const person of ['teacher', 'parent', 'schoolAdmin', 'districtAdmin'] as const) {
      expect([person, (await gql[person](sectionDoc, { id: id(created) })).data]).toEqual([
        person,
        { section: expected },
      ]);
    }
    for (const person of ['student', 'otherSchoolStudent', 'outsider'] as const) {
      expect([person, await gql[person](sectionDoc, { id: id(created) })]).toEqual([
        person,
        { status: 200, data: { section: null } },
      ]);
    }
  });
});

describe('createEnrollment', () => {
  it("lets a section administrator enroll a student, who can then read the section's posts", async () => {
    const target = await createSection(world.school.id, [{ userId: world.teacher.id, admin: true }]);
    await db().blogPost.create({ data: { realmType: 'SECTION', realmId: target.id, title: 'Welcome', body: 'Hi' } });
    expect((await rest.student.get(`/sections/${target.id}/posts`)).status).toBe(403);
    const events = await watchDomainEvents();
    const created = (
      await gql.teacher(createEnrollmentDoc, { input: { sectionId: id(target), userId: id(world.student) } })
    ).data.createEnrollment;
    // The section comes back with its enrollments as they now are, for a client cache to refresh.
    expect(created).toEqual({
      enrollment: {
        id: expect.any(String),
        admin: false,
        status: 'ACTIVE',
        user: { id: id(world.student) },
        section: { id: id(target) },
      },
      section: {
        id: id(target),
        enrollments: expect.arrayContaining([{ user: { id: id(world.teacher) } }, { user: { id: id(world.student) } }]),
      },
      userErrors: [],
    });
    expect(created.section.enrollments).toHaveLength(2);
    expect(await events()).toEqual([
      [
        'enrollment.create',
        'SECTION',
        target.id,
        Number(created.enrollment.id),
        world.teacher.id,
        world.district.id,
        world.school.id,
      ],
    ]);
    const posts = await rest.student.get(`/sections/${target.id}/posts`);
    expect([posts.status, posts.json.total, posts.json.post.map((post: { title: string }) => post.title)]).toEqual([
      200,
      1,
      ['Welcome'],
    ]);
    expect((await gql.student(sectionDoc, { id: id(target) })).data.section.enrollments).toHaveLength(2);
  });

  it('answers CONFLICT naming input.userId for a second enrollment of the same user', async () => {
    const target = await createSection(world.school.id, [
      { userId: world.teacher.id, admin: true },
      { userId: world.student.id },
    ]);
    const result = await expectNothingWritten(() =>
      gql.teacher(createEnrollmentDoc, { input: { sectionId: id(target), userId: id(world.student) } }),
    );
    expect(result.data.createEnrollment).toEqual({
      ...refused('enrollment', inInput('userId', 'CONFLICT', 'The user is already enrolled in this section')),
      section: null,
    });
  });

  it('refuses an enrolled non-administrator and a teacher not enrolled with FORBIDDEN', async () => {
    const target = await createSection(world.school.id, [{ userId: world.student.id }]);
    for (const person of ['student', 'teacher'] as const) {
      const response = await expectNothingWritten(() =>
        gql[person](createEnrollmentDoc, { input: { sectionId: id(target), userId: id(world.parent) } }),
      );
      expect([person, refusal(response)]).toEqual([
        person,
        { ...forbidden('You may not change this section'), data: { createEnrollment: null } },
      ]);
    }
  });

  it("hides users the administrator cannot see, another district's included, behind NOT_FOUND", async () => {
    const target = await createSection(world.school.id, [{ userId: world.teacher.id, admin: true }]);
    const cases = [
      ['teacher', world.outsider],
      ['teacher', world.otherSchoolStudent],
      ['districtAdmin', world.outsider],
    ] as const;
    for (const [person, user] of cases) {
      const result = await expectNothingWritten(() =>
        gql[person](createEnrollmentDoc, { input: { sectionId: id(target), userId: id(user) } }),
      );
      expect(result.data.createEnrollment).toEqual({
        ...refused('enrollment', inInput('userId', 'NOT_FOUND', `User ${user.id} was not found`)),
        section: null,
      });
    }
    const far = await createSection(world.farSchool.id);
    const hidden = await expectNothingWritten(() =>
      gql.teacher(createEnrollmentDoc, { input: { sectionId: id(far), userId: id(world.student) } }),
    );
    expect(hidden.data.createEnrollment.userErrors).toEqual([
      inInput('sectionId', 'NOT_FOUND', `Section ${far.id} was not found`),
    ]);
  });
});

describe('addGroupMember and removeGroupMember', () => {
  it('adds a member who can then read a GROUP-privacy group, and removes them again, with events', async () => {
    const group = await createGroup(world.school.id, { privacyLevel: 'GROUP', admins: [world.teacher.id] });
    expect((await rest.student.get(`/groups/${group.id}`)).status).toBe(404);
    const events = await watchDomainEvents();
    const added = (await gql.teacher(addMemberDoc, { input: { groupId: id(group), userId: id(world.student) } })).data
      .addGroupMember.groupMembership;
    expect(added).toEqual({ id: expect.any(String), admin: false, user: { id: id(world.student) } });
    const shown = await rest.student.get(`/groups/${group.id}`);
    expect([shown.status, shown.json.id, shown.json.privacy_level, 'access_code' in shown.json]).toEqual([
      200,
      id(group),
      'group',
      false,
    ]);

    const removed = (await gql.teacher(removeMemberDoc, { input: { groupId: id(group), userId: id(world.student) } }))
      .data.removeGroupMember;
    expect(removed).toEqual({
      deletedGroupMembershipId: encodeGlobalId('GroupMembership', added.id),
      userErrors: [],
    });
    const event = (type: string) => [
      type,
      'GROUP',
      group.id,
      Number(added.id),
      world.teacher.id,
      world.district.id,
      world.school.id,
    ];
    expect(await events()).toEqual([event('group_member.create'), event('group_member.delete')]);
    expect((await rest.student.get(`/groups/${group.id}`)).status).toBe(404);
    expect(await db().groupMembership.count({ where: { groupId: group.id } })).toBe(1);
  });

  it('shows the access code to a member added as administrator', async () => {
    const group = await createGroup(world.school.id, { privacyLevel: 'GROUP', admins: [world.teacher.id] });
    const added = (
      await gql.teacher(addMemberDoc, { input: { groupId: id(group), userId: id(world.parent), admin: true } })
    ).data.addGroupMember.groupMembership;
    expect(added).toMatchObject({ admin: true, user: { id: id(world.parent) } });
    const shown = await rest.parent.get(`/groups/${group.id}`);
    expect([shown.status, shown.json.access_code]).toEqual([200, group.accessCode]);
  });

  it('answers CONFLICT for an existing member', async () => {
    const group = await createGroup(world.school.id, { admins: [world.teacher.id], members: [world.student.id] });
    const result = await expectNothingWritten(() =>
      gql.teacher(addMemberDoc, { input: { groupId: id(group), userId: id(world.student), admin: true } }),
    );
    expect(result.data.addGroupMember).toEqual(
      refused('groupMembership', inInput('userId', 'CONFLICT', 'The user is already a member of this group')),
    );
  });

  it('refuses members who do not administer the group (FORBIDDEN) and hides it from outsiders', async () => {
    const group = await createGroup(world.school.id, { admins: [world.teacher.id], members: [world.student.id] });
    for (const [field, doc] of [
      ['addGroupMember', addMemberDoc],
      ['removeGroupMember', removeMemberDoc],
    ] as const) {
      const response = await expectNothingWritten(() =>
        gql.student(doc, { input: { groupId: id(group), userId: id(world.teacher) } }),
      );
      expect(refusal(response)).toEqual({
        ...forbidden('You may not change this group'),
        data: { [field]: null },
      });
      const far = await expectNothingWritten(() =>
        gql.outsider(doc, { input: { groupId: id(group), userId: id(world.student) } }),
      );
      expect((Object.values(far.data)[0] as { userErrors: unknown }).userErrors).toEqual([
        inInput('groupId', 'NOT_FOUND', `Group ${group.id} was not found`),
      ]);
    }
  });

  it('answers NOT_FOUND for removing a non-member, or a user id beyond any id', async () => {
    const group = await createGroup(world.school.id, { admins: [world.teacher.id] });
    for (const userId of [id(world.parent), '99999999999']) {
      const result = await expectNothingWritten(() =>
        gql.teacher(removeMemberDoc, { input: { groupId: id(group), userId } }),
      );
      expect(result.data.removeGroupMember.userErrors).toEqual([
        { field: null, code: 'NOT_FOUND', message: `GroupMembership ${group.id}/${userId} was not found` },
      ]);
    }
  });
});
