import { percentEncode } from '../auth/oauth';
import { randomToken } from '../auth/secrets';
import { hashPassword } from '../signin/password';
import type { Config, SeedDemoMode } from '../config';
import type { Database } from '../db/database';
import { writeTransaction } from '../outbox/record';
import type { Prisma } from '../generated/prisma/client';
import type { Role } from '../generated/prisma/enums';
import {
  type IssuedAccessToken,
  type IssuedApiClient,
  issueAccessToken,
  issueApiClientIn,
} from '../modules/access/access.service';

const people: { first: string; last: string; role: Role }[] = [
  { first: 'Dana', last: 'Okafor', role: 'DISTRICT_ADMIN' },
  { first: 'Sam', last: 'Lindqvist', role: 'SCHOOL_ADMIN' },
  { first: 'Ruth', last: 'Moreno', role: 'TEACHER' },
  { first: 'Ken', last: 'Ito', role: 'TEACHER' },
  { first: 'Ava', last: 'Brooks', role: 'STUDENT' },
  { first: 'Leo', last: 'Nguyen', role: 'STUDENT' },
  { first: 'Mia', last: 'Schultz', role: 'STUDENT' },
  { first: 'Omar', last: 'Haddad', role: 'PARENT' },
];

export interface DemoDistrict {
  districtId: number;
  /** The district administrator both credentials act as. */
  admin: { id: number; username: string };
  client: IssuedApiClient;
  accessToken: IssuedAccessToken;
  /** One person of each role with a password to sign in with on /sign-in, printed once. */
  signIns: { role: Role; username: string; password: string }[];
}

/** Random, as the other demo credentials are: a fixed demo password would open any demo left reachable. */
async function demoPasswords() {
  const roles = [...new Set(people.map((person) => person.role))];
  return new Map(
    await Promise.all(
      roles.map(async (role) => {
        const password = randomToken(12);
        return [role, { password, hash: await hashPassword(password) }] as const;
      }),
    ),
  );
}

// Instances sharing a PostgreSQL database (SEED_DEMO=on) may start together: one seeds, the others find its district.
// Distinct from the migration lock's key (src/db/migrate.ts).
const FIRST_START_LOCK_KEY = 72707370;

async function createDemo(serverKey: Buffer, onlyIntoEmptyDatabase: boolean): Promise<DemoDistrict | null> {
  const suffix = Date.now().toString(36);
  // Hashed before the transaction, which would otherwise hold its lock while argon2 works.
  const passwords = await demoPasswords();
  // The district and its API client commit together, so no district is left without the credential that was printed.
  const created = await writeTransaction(async (tx) => {
    if (onlyIntoEmptyDatabase) {
      // Held until commit; an instance waiting here then sees the winner's district (READ COMMITTED).
      await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(${FIRST_START_LOCK_KEY})`);
      if ((await tx.district.count()) > 0) return null;
    }
    const district = await tx.district.create({
      data: { title: 'Lakeside Unified (demo)', timeZone: 'America/Los_Angeles' },
    });
    const high = await tx.school.create({
      data: { districtId: district.id, title: 'Lakeside High School', city: 'Lakeside', state: 'CA', country: 'USA' },
    });
    const annex = await tx.school.create({
      data: { districtId: district.id, parentId: high.id, title: 'Lakeside High – North Annex', buildingCode: 'LHS-N' },
    });
    await tx.school.create({ data: { districtId: district.id, title: 'Lakeside Middle School', city: 'Lakeside' } });

    const users = [];
    const signIns: DemoDistrict['signIns'] = [];
    for (const [index, person] of people.entries()) {
      // The first person of each role gets the role's password.
      const password = signIns.some((signIn) => signIn.role === person.role) ? null : passwords.get(person.role)!;
      users.push(
        await tx.user.create({
          data: {
            schoolId: high.id,
            buildingId: person.role === 'STUDENT' && index % 2 === 0 ? annex.id : null,
            username: `${person.first}.${person.last}.${suffix}`.toLowerCase(),
            schoolUid: `LHS-${suffix}-${index + 1}`,
            nameFirst: person.first,
            nameLast: person.last,
            email: `${person.first}.${person.last}@lakeside.example`.toLowerCase(),
            role: person.role,
            triggerAdmin: person.role === 'DISTRICT_ADMIN',
            passwordHash: password?.hash ?? null,
          },
        }),
      );
      if (password) signIns.push({ role: person.role, username: users.at(-1)!.username, password: password.password });
    }
    const [admin, , ruth, ken, ...rest] = users;
    const students = rest.filter((user) => user.role === 'STUDENT');
    const parent = rest.find((user) => user.role === 'PARENT')!;
    await tx.parentLink.create({ data: { parentId: parent.id, childId: students[0].id } });

    for (const [teacher, title, code] of [
      [ruth, 'Biology', 'BIO-101'],
      [ken, 'World History', 'HIS-201'],
    ] as const) {
      const course = await tx.course.create({ data: { schoolId: high.id, title, courseCode: `${code}-${suffix}` } });
      const section = await tx.section.create({
        data: {
          courseId: course.id,
          title: `${title}: Period 1`,
          sectionCode: 'P1',
          enrollments: {
            create: [{ userId: teacher.id, admin: true }, ...students.map((student) => ({ userId: student.id }))],
          },
        },
      });
      await tx.blogPost.create({
        data: {
          realmType: 'SECTION',
          realmId: section.id,
          authorId: teacher.id,
          title: `Welcome to ${title}`,
          body: 'Syllabus is posted.<br>Bring a notebook.',
        },
      });
      if (teacher === ruth) await seedGradebook(tx, high.id, section.id);
    }

    const category = await tx.groupCategory.create({ data: { districtId: district.id, title: 'Clubs' } });
    const chess = await tx.group.create({
      data: {
        schoolId: high.id,
        title: 'Chess Club',
        description: 'Tuesdays after school.',
        accessCode: `CHESS-${suffix.slice(-5).toUpperCase()}`,
        categoryId: category.id,
        inviteType: 'REQUEST_TO_JOIN',
        memberships: {
          create: [{ userId: ken.id, admin: true }, ...students.map((student) => ({ userId: student.id }))],
        },
      },
    });
    const robotics = await tx.group.create({
      data: {
        schoolId: high.id,
        buildingId: annex.id,
        title: 'Annex Robotics',
        accessCode: `ROBOT-${suffix.slice(-5).toUpperCase()}`,
        privacyLevel: 'BUILDING',
        memberships: { create: [{ userId: ruth.id, admin: true }] },
      },
    });
    // Pending answers for the district administrator to look at (GET /v1/users/{id}/invites/groups, .../requests/friends).
    await tx.invite.create({ data: { userId: students[0].id, groupId: robotics.id, inviterId: ruth.id } });
    await tx.friendRequest.create({ data: { requesterId: students[1].id, userId: students[0].id } });

    const posts = [
      { realmType: 'DISTRICT' as const, realmId: district.id, title: 'Welcome back', body: 'Classes start Monday.' },
      { realmType: 'SCHOOL' as const, realmId: high.id, title: 'Picture day', body: 'Thursday in the gym.' },
      { realmType: 'USER' as const, realmId: ruth.id, title: 'My teaching notes', body: 'Week one went well.' },
      { realmType: 'GROUP' as const, realmId: chess.id, title: 'Tournament', body: 'Sign up by Friday.' },
    ];
    for (const post of posts) await tx.blogPost.create({ data: { ...post, authorId: admin.id } });
    const client = await issueApiClientIn(tx, serverKey, { userId: admin.id, name: 'demo' });
    return { districtId: district.id, admin: { id: admin.id, username: admin.username }, client, signIns };
  });
  if (!created) return null;
  const accessToken = await issueAccessToken({ userId: created.admin.id, name: 'demo' });
  return { ...created, accessToken };
}

/**
 * A gradebook to look at (GET /v1/sections/{id}/grades, /attendance): a fall term, a letter scale, weighted homework
 * (lowest dropped) and tests (total points), graded items with grades for every student (one excused, one
 * incomplete), a released final comment, and a week of attendance.
 */
async function seedGradebook(tx: Prisma.TransactionClient, schoolId: number, sectionId: number) {
  const fall = await tx.gradingPeriod.create({
    data: { schoolId, title: 'Fall 2026', startsOn: new Date('2026-08-24'), endsOn: new Date('2026-12-18') },
  });
  const letters = await tx.gradingScale.create({
    data: {
      schoolId,
      title: 'Letter grades',
      levels: [
        { grade: 'A', minimum: 90 },
        { grade: 'B', minimum: 80 },
        { grade: 'C', minimum: 70 },
        { grade: 'D', minimum: 60 },
        { grade: 'F', minimum: 0 },
      ],
    },
  });
  const homework = await tx.gradingCategory.create({
    data: { sectionId, title: 'Homework', weight: 40, dropLowest: 1, defaultMaxPoints: 10, delta: 1 },
  });
  const tests = await tx.gradingCategory.create({
    data: {
      sectionId,
      title: 'Tests',
      weight: 60,
      calculation: 'TOTAL_POINTS',
      defaultMaxPoints: 50,
      defaultGradingScaleId: letters.id,
      delta: 2,
    },
  });
  const items: { id: number; maxPoints: number }[] = [];
  for (const [title, category, maxPoints, scaleId] of [
    ['Cell diagram', homework, 10, null],
    ['Microscope lab', homework, 10, null],
    ['Osmosis worksheet', homework, 10, null],
    ['Unit 1 test', tests, 50, letters.id],
    ['Unit 2 test', tests, 50, letters.id],
  ] as const) {
    items.push(
      await tx.assignment.create({
        data: { sectionId, title, categoryId: category.id, maxPoints, scaleId, periodId: fall.id },
      }),
    );
  }
  const enrollments = await tx.enrollment.findMany({ where: { sectionId, admin: false }, orderBy: { id: 'asc' } });
  // Each student a steady level, each item a little harder: plausible, repeatable marks.
  const grades = enrollments.flatMap((enrollment, student) =>
    items.map((item, at) => {
      const excused = student === 1 && at === 1;
      const incomplete = student === 2 && at === 2;
      const share = Math.min(1, 0.95 - student * 0.08 - at * 0.02);
      return {
        enrollmentId: enrollment.id,
        assignmentId: item.id,
        sectionId,
        grade: excused || incomplete ? null : Math.round(item.maxPoints * share),
        exception: excused ? ('EXCUSED' as const) : incomplete ? ('INCOMPLETE' as const) : null,
        comment: at === 3 ? 'See me about question 4.' : '',
        commentVisible: true,
      };
    }),
  );
  await tx.grade.createMany({ data: grades });
  await tx.periodGrade.create({
    data: {
      enrollmentId: enrollments[0]!.id,
      sectionId,
      period: `p${fall.id}`,
      comment: 'A strong start to the year.',
      commentVisible: true,
    },
  });
  const week = ['2026-09-14', '2026-09-15', '2026-09-16', '2026-09-17', '2026-09-18'];
  await tx.attendanceRecord.createMany({
    data: week.flatMap((day, at) =>
      enrollments.map((enrollment, student) => ({
        enrollmentId: enrollment.id,
        sectionId,
        date: new Date(day),
        status:
          student === 1 && at === 2
            ? ('ABSENT' as const)
            : student === 2 && at === 4
              ? ('LATE' as const)
              : ('PRESENT' as const),
      })),
    ),
  });
}

/**
 * A small demo district to try the API with: two schools (one with a building), a user of each role, course sections
 * with enrollments and a gradebook, groups with members, blog posts in every realm, a pending invite and a friend request. Returns an
 * API client (OAuth 1.0a, for /v1) and a bearer token (for GraphQL) of its district administrator.
 */
export async function seedDemo(serverKey: Buffer): Promise<DemoDistrict> {
  return (await createDemo(serverKey, false))!;
}

/** The demo district when the database has no district at all (a first start), or null. */
export function seedDemoIntoEmptyDatabase(serverKey: Buffer): Promise<DemoDistrict | null> {
  return createDemo(serverKey, true);
}

/** SEED_DEMO: `auto` seeds the embedded database only, where newcomers start; PostgreSQL only when asked (`on`). */
export function seedsOnFirstStart(mode: SeedDemoMode, kind: Database['kind']): boolean {
  return mode === 'on' || (mode === 'auto' && kind === 'pglite');
}

/** Where a person on this machine calls the server: PUBLIC_URL, or the listening address (a wildcard is this machine). */
export function baseUrlForPeople(config: Pick<Config, 'publicUrl' | 'host'>, port: number): string {
  if (config.publicUrl) return config.publicUrl.href.replace(/\/$/, '');
  const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host === '::' ? '::1' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * What a person needs to call both APIs as the demo administrator: the credentials and a ready curl line for each.
 * Secrets are printed, never logged. Key and secret are percent-encoded into the OAuth header, which keeps them intact
 * inside the shell's double quotes; `$(date +%s)` and `$RANDOM` give every run a fresh timestamp and nonce.
 */
export function demoCredentialsText(demo: DemoDistrict, baseUrl: string): string {
  const { consumerKey, consumerSecret } = demo.client;
  const { token } = demo.accessToken;
  const oauth = [
    `oauth_consumer_key=\\"${percentEncode(consumerKey)}\\"`,
    'oauth_signature_method=\\"PLAINTEXT\\"',
    `oauth_signature=\\"${percentEncode(consumerSecret)}%26\\"`,
    'oauth_timestamp=\\"$(date +%s)\\"',
    'oauth_nonce=\\"$RANDOM$RANDOM$RANDOM\\"',
  ].join(', ');
  return [
    `Demo district ${demo.districtId} created. Its district administrator ${demo.admin.username} (user ${demo.admin.id})`,
    'calls both APIs with these credentials, shown only this once:',
    '',
    `  consumer key:    ${consumerKey}`,
    `  consumer secret: ${consumerSecret}`,
    `  bearer token:    ${token}`,
    '',
    `GraphQL takes the bearer token (in GraphiQL at ${baseUrl}/graphql, put {"Authorization": "Bearer <token>"}`,
    'in the headers tab):',
    '',
    `  curl -s ${baseUrl}/graphql -H 'Authorization: Bearer ${token}' -H 'content-type: application/json' -d '{"query":"{ viewer { id databaseId username } }"}'`,
    '',
    'REST (/v1) takes two-legged OAuth 1.0a with the consumer key and secret: sign with any OAuth 1.0a client library',
    '(HMAC-SHA1), or send PLAINTEXT, which carries the secret itself (so only on this machine or over HTTPS), from bash or zsh:',
    '',
    `  curl -s ${baseUrl}/v1/users/${demo.admin.id} -H "Authorization: OAuth ${oauth}"`,
    '',
    `Try: GET /v1/users/me, /v1/groups, /v1/districts/${demo.districtId}/posts.`,
    '',
    `People sign in at ${baseUrl}/sign-in, one of each role with these passwords, shown only this once:`,
    '',
    ...demo.signIns.map(
      ({ role, username, password }) =>
        `  ${role.toLowerCase().replace('_', ' ').padEnd(14)} ${username.padEnd(28)} ${password}`,
    ),
  ].join('\n');
}
