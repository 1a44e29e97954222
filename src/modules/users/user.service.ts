import { authorize } from '../../auth/policy';
import { findByStorableId, realmFacts } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { ConflictError, ValidationError } from '../../core/errors';
import { isUniqueViolation } from '../../db/unique';
import { validate } from '../../core/validation';
import { db } from '../../db/database';
import { defineEvent } from '../../outbox/catalogue';
import { recordEvent, writeTransaction } from '../../outbox/record';
import type { Prisma } from '../../generated/prisma/client';
import { userPolicy } from './user.policy';
import { createUserSchema } from './user.validation';

type UserQuery = { include?: Prisma.UserInclude; select?: Prisma.UserSelect };

export const userEvents = {
  create: defineEvent('user.create', {
    object: 'User',
    realms: ['SCHOOL'],
    description: 'A user was added to a school.',
  }),
};

export async function createUser(viewer: Viewer, input: unknown, query: UserQuery) {
  const { schoolId: named, buildingId, ...fields } = validate(createUserSchema, input);
  const schoolId = named ? Number(named) : viewer.user.schoolId;
  const subject = { schoolId, role: fields.role, triggerAdmin: fields.triggerAdmin ?? false };
  await authorize(viewer, userPolicy, 'create', subject, schoolId, 'School');
  const school = await realmFacts(viewer, { type: 'SCHOOL', id: schoolId });
  if (school.buildingId !== null)
    throw new ValidationError([{ field: 'schoolId', message: 'is a building; name its school' }]);
  if (buildingId) {
    const building = await findByStorableId(buildingId, (id) =>
      db().school.findUnique({ where: { id }, select: { parentId: true } }),
    );
    if (building?.parentId !== schoolId)
      throw new ValidationError([{ field: 'buildingId', message: 'is not a building of the school' }]);
  }
  return writeTransaction(async (tx) => {
    const user = await tx.user.create({
      ...query,
      data: { ...fields, schoolId, buildingId: buildingId ? Number(buildingId) : null },
    });
    await recordEvent(tx, userEvents.create, {
      realm: { type: 'SCHOOL', id: schoolId },
      objectId: user.id,
      actorId: viewer.id,
      scope: { ...school, buildingId: buildingId ? Number(buildingId) : null },
    });
    return user;
  }).catch(async (error) => {
    if (!isUniqueViolation(error)) throw error;
    // Either unique key of the school may be the one taken: name the member the client has to change.
    const taken = await db().user.findUnique({
      where: { schoolId_username: { schoolId, username: fields.username } },
      select: { id: true },
    });
    if (taken || !fields.schoolUid) throw new ConflictError('Username is already used in this school', 'username');
    throw new ConflictError('School user id is already used in this school', 'schoolUid');
  });
}
