import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { createInOneStatement } from '../../src/outbox/record';
import type { Group, PrivacyLevel } from '../../src/generated/prisma/client';
import {
  countDistrictGroups,
  groupWithCreator,
  groupsById,
  readDistrictWindow,
  rowAndDistrict,
} from '../../src/modules/groups/group.sql';
import { groupEvents } from '../../src/modules/groups/group.service';
import { createGroupCategory, createWorld, unique, type World } from '../support/factories';
import { useTestServer } from '../support/harness';

/**
 * src/modules/groups/group.sql.ts reads and writes groups with statements of its own: each reading must answer what
 * Prisma's client answers for the same data and selection, field by field, for the selections it accepts.
 */
useTestServer();

const withDistrict = { include: { school: { select: { districtId: true } } } };
const selections = [{}, withDistrict];

/** The members Prisma's row has, from the direct row: the direct readings may carry more, which nothing reads. */
const asPrismaHasIt = (direct: object, prisma: object) =>
  Object.fromEntries(Object.keys(prisma).map((key) => [key, (direct as Record<string, unknown>)[key]]));

/** Each direct row next to Prisma's row of the same id, both in id order. */
function expectSameRows(direct: { id: number }[], prisma: { id: number }[]) {
  expect(direct.map((row) => row.id)).toEqual(prisma.map((row) => row.id));
  for (const [index, row] of direct.entries()) expect(asPrismaHasIt(row, prisma[index]!)).toStrictEqual(prisma[index]);
}

let world: World;
let inDistrict: number[];
let ids: number[];

beforeAll(async () => {
  world = await createWorld();
  const category = await createGroupCategory(world.district.id);
  const levels: PrivacyLevel[] = ['EVERYONE', 'SCHOOL', 'BUILDING', 'GROUP'];
  // Every column given a value in some rows and left to its default in others, across schools and districts.
  await db().group.createMany({
    data: Array.from({ length: 60 }, (_, index) => {
      const schoolId = index % 9 === 0 ? world.farSchool.id : index % 4 === 3 ? world.otherSchool.id : world.school.id;
      return {
        schoolId,
        title: unique('Group'),
        accessCode: unique('CODE'),
        privacyLevel: levels[index % levels.length]!,
        ...(schoolId === world.school.id && index % 2 === 0 ? { buildingId: world.building.id } : {}),
        ...(index % 5 === 0 && schoolId !== world.farSchool.id ? { categoryId: category.id } : {}),
        ...(index % 3 === 0
          ? { description: `Line one\nline "two" ${index}`, website: 'https://example.test/', groupCode: unique('G') }
          : {}),
        ...(index % 7 === 0 ? { memberPost: false, createFiles: true, inviteType: 'ANYONE_CAN_JOIN' as const } : {}),
      };
    }),
  });
  const groups = await db().group.findMany({
    where: { schoolId: { in: [world.school.id, world.otherSchool.id, world.farSchool.id] } },
    include: { school: true },
    orderBy: { id: 'asc' },
  });
  ids = groups.map((group) => group.id);
  inDistrict = groups.filter((group) => group.school.districtId === world.district.id).map((group) => group.id);
});

describe('groups read directly', () => {
  it("accepts only the selections it answers: the columns, with or without the school's district", () => {
    expect(selections.every(rowAndDistrict)).toBe(true);
    expect(rowAndDistrict({ select: { id: true } })).toBe(false);
    expect(rowAndDistrict({ include: { school: true } })).toBe(false);
    expect(rowAndDistrict({ include: { school: withDistrict.include.school, category: true } })).toBe(false);
  });

  it.each(selections)('answers groups by id as Prisma does (%j)', async (selection) => {
    const wanted = [...ids.slice(0, 20), 2_147_483_647];
    const prisma = await db().group.findMany({ ...selection, where: { id: { in: wanted } }, orderBy: { id: 'asc' } });
    const direct = (await groupsById.byIds(wanted, selection)).sort((a, b) => a.id - b.id);
    expect(prisma).toHaveLength(20);
    expectSameRows(direct, prisma);
  });

  it("counts a district's groups, and a school's, as a count of the rows does", async () => {
    const count = (where: object) => db().group.count({ where });
    expect(await countDistrictGroups(world.district.id, null)).toBe(
      await count({ school: { districtId: world.district.id } }),
    );
    expect(await countDistrictGroups(world.district.id, world.otherSchool.id)).toBe(
      await count({ schoolId: world.otherSchool.id }),
    );
    expect(await countDistrictGroups(world.district.id, world.farSchool.id)).toBe(0); // a school of another district
    expect(await countDistrictGroups(world.district.id, -1)).toBe(0);
  });

  it.each(selections)(
    "reads windows of a district's list, several in one turn, as Prisma pages it (%j)",
    async (selection) => {
      const windows = [
        { schoolId: null, take: 10, skip: 0 },
        { schoolId: null, take: 10, skip: 7 },
        { schoolId: null, take: 10, skip: inDistrict.length - 3 },
        { schoolId: null, take: 10, skip: inDistrict.length + 5 },
        { schoolId: world.school.id, take: 5, skip: 2 },
        { schoolId: world.farSchool.id, take: 5, skip: 0 },
      ];
      const read = await Promise.all(
        windows.map((window) => readDistrictWindow({ districtId: world.district.id, ...window }, selection)),
      );
      for (const [index, window] of windows.entries()) {
        const where =
          window.schoolId === null
            ? { school: { districtId: world.district.id } }
            : { schoolId: window.schoolId, school: { districtId: world.district.id } };
        const prisma = await db().group.findMany({
          ...selection,
          where,
          orderBy: { id: 'asc' },
          skip: window.skip,
          take: window.take,
        });
        expectSameRows(read[index]!.rows, prisma);
        expect(read[index]!.total).toBe(await db().group.count({ where }));
      }
    },
  );
});

describe('a group created in one statement', () => {
  it("returns the row Prisma then reads, with its creator's membership as administrator", async () => {
    const createdAt = new Date().toISOString();
    const values = {
      schoolId: world.school.id,
      buildingId: world.building.id,
      accessCode: unique('CODE'),
      createdAt,
      title: unique('Group'),
      description: 'Made "here"',
    };
    const created = await createInOneStatement<Group>({
      event: {
        kind: groupEvents.create,
        realmType: 'GROUP',
        actorId: world.teacher.id,
        scope: { districtId: world.district.id, schoolId: world.school.id, buildingId: world.building.id },
      },
      ...groupWithCreator(values, world.teacher.id),
    });
    const prisma = await db().group.findUniqueOrThrow({ where: { id: created.id } });
    expect(asPrismaHasIt(created, prisma)).toStrictEqual(prisma);
    expect(prisma.createdAt.toISOString()).toBe(createdAt);
    const memberships = await db().groupMembership.findMany({
      where: { groupId: created.id },
      select: { userId: true, admin: true, createdAt: true },
    });
    expect(memberships).toEqual([{ userId: world.teacher.id, admin: true, createdAt: new Date(createdAt) }]);
  });
});
