import { db } from './db/database';
import type { Role } from './generated/prisma/enums';
import { issueApiClient, type IssuedApiClient } from './modules/access/access.service';

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

/**
 * A small demo district to try the API with: two schools (one with a building), a user of each role, course sections
 * with enrollments, groups with members, and blog posts in every realm. Returns credentials of the district admin.
 */
export async function seedDemo(serverKey: Buffer): Promise<{ districtId: number; client: IssuedApiClient }> {
  const suffix = Date.now().toString(36);
  const ids = await db().$transaction(async (tx) => {
    const district = await tx.district.create({ data: { title: 'Lakeside Unified (demo)' } });
    const high = await tx.school.create({
      data: { districtId: district.id, title: 'Lakeside High School', city: 'Lakeside', state: 'CA', country: 'USA' },
    });
    const annex = await tx.school.create({
      data: { districtId: district.id, parentId: high.id, title: 'Lakeside High – North Annex', buildingCode: 'LHS-N' },
    });
    await tx.school.create({ data: { districtId: district.id, title: 'Lakeside Middle School', city: 'Lakeside' } });

    const users = [];
    for (const [index, person] of people.entries()) {
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
          },
        }),
      );
    }
    const [admin, , ruth, ken, ...rest] = users;
    const students = rest.filter((user) => user.role === 'STUDENT');

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
        data: { realmType: 'SECTION', realmId: section.id, authorId: teacher.id, title: `Welcome to ${title}`, body: 'Syllabus is posted.<br>Bring a notebook.' },
      });
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
        memberships: { create: [{ userId: ken.id, admin: true }, ...students.map((student) => ({ userId: student.id }))] },
      },
    });
    await tx.group.create({
      data: {
        schoolId: high.id,
        buildingId: annex.id,
        title: 'Annex Robotics',
        accessCode: `ROBOT-${suffix.slice(-5).toUpperCase()}`,
        privacyLevel: 'BUILDING',
        memberships: { create: [{ userId: ruth.id, admin: true }] },
      },
    });

    const posts = [
      { realmType: 'DISTRICT' as const, realmId: district.id, title: 'Welcome back', body: 'Classes start Monday.' },
      { realmType: 'SCHOOL' as const, realmId: high.id, title: 'Picture day', body: 'Thursday in the gym.' },
      { realmType: 'USER' as const, realmId: ruth.id, title: 'My teaching notes', body: 'Week one went well.' },
      { realmType: 'GROUP' as const, realmId: chess.id, title: 'Tournament', body: 'Sign up by Friday.' },
    ];
    for (const post of posts) await tx.blogPost.create({ data: { ...post, authorId: admin.id } });
    return { districtId: district.id, adminId: admin.id };
  });
  const client = await issueApiClient(serverKey, { userId: ids.adminId, name: 'demo' });
  return { districtId: ids.districtId, client };
}
