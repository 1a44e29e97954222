import { beforeAll, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { schoolFactsById, schoolFactsSelection } from '../../src/modules/schools/school.sql';
import { createWorld, type World } from '../support/factories';
import { useTestServer } from '../support/harness';

/**
 * src/modules/schools/school.sql.ts reads a school's realm facts with a statement of its own: it must answer what
 * Prisma's client answers for the same rows and selection.
 */
useTestServer();

let world: World;

beforeAll(async () => {
  world = await createWorld();
});

it("reads schools and buildings by id as Prisma does, for the facts' selection only", async () => {
  expect(schoolFactsById.answers(schoolFactsSelection)).toBe(true);
  expect(schoolFactsById.answers({ select: { districtId: true, parentId: true } })).toBe(false);
  const ids = [world.school.id, world.building.id, world.otherSchool.id, world.farSchool.id, 2_147_483_647];
  // Rows read by id are matched to their readers by id, which the reading adds to a `select` (src/graphql/reads-by-id.ts).
  const prisma = await db().school.findMany({
    select: { ...schoolFactsSelection.select, id: true },
    where: { id: { in: ids } },
    orderBy: { id: 'asc' },
  });
  const direct = (await schoolFactsById.byIds(ids, schoolFactsSelection)).sort((a, b) => a.id - b.id);
  expect(prisma).toHaveLength(4);
  expect(direct).toStrictEqual(prisma);
});
