import { authorize, realmFactsFor } from '../../auth/policy';
import type { Viewer } from '../../auth/viewer';
import { readDateText } from '../../core/date-text';
import { invalidArgument } from '../../core/errors';
import { validate } from '../../core/validation';
import { db } from '../../db/database';
import { defineEvent } from '../../outbox/catalogue';
import { recordEvent, writeTransaction } from '../../outbox/record';
import type { Prisma } from '../../generated/prisma/client';
import { districtPolicy } from './district.policy';
import { updateDistrictSchema } from './district.validation';

type DistrictQuery = { select?: Prisma.DistrictSelect; include?: Prisma.DistrictInclude };

export const districtEvents = {
  update: defineEvent('district.update', {
    object: 'District',
    realms: ['DISTRICT'],
    description: "A district's settings were changed.",
  }),
};

export async function updateDistrict(viewer: Viewer, id: number, input: unknown, query: DistrictQuery) {
  const realm = { type: 'DISTRICT' as const, id };
  const facts = await realmFactsFor(viewer, realm, 'visible');
  await authorize(viewer, districtPolicy, 'update', id, id);
  const data = validate(updateDistrictSchema, input);
  return writeTransaction(async (tx) => {
    const district = await tx.district.update({ ...query, where: { id }, data });
    await recordEvent(tx, districtEvents.update, { realm, objectId: id, actorId: viewer.id, scope: facts });
    return district;
  });
}

/**
 * The instant a date text names (`createdAfter`, the platform's `created_offset`), read in the time zone of the
 * user's district; text that is not a date is a 400 naming the argument, never an empty answer.
 */
export async function readDateForUser(userId: number, text: string, argument: string): Promise<Date> {
  const user = await db().user.findUnique({
    where: { id: userId },
    select: { school: { select: { district: { select: { timeZone: true } } } } },
  });
  const instant = readDateText(text, user?.school.district.timeZone ?? 'UTC');
  if (!instant)
    throw invalidArgument(
      argument,
      `'${text}' is not a date or time this server can read, such as 2010-05-14 23:44:32 or 3 days ago`,
    );
  return instant;
}
