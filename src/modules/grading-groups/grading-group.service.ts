import { authorize, realmFactsFor } from '../../auth/policy';
import { findByStorableId, realmFacts } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { NotFoundError, ValidationError } from '../../core/errors';
import { validate } from '../../core/validation';
import { db } from '../../db/database';
import { defineEvent } from '../../outbox/catalogue';
import { recordEvent, writeTransaction } from '../../outbox/record';
import type { Prisma } from '../../generated/prisma/client';
import { gradingGroupPolicy } from './grading-group.policy';
import { createGradingGroupSchema, updateGradingGroupSchema } from './grading-group.validation';

type GradingGroupQuery = { select?: Prisma.GradingGroupSelect; include?: Prisma.GradingGroupInclude };

// Heard by the section's administrators only: who is grouped with whom is the teachers' business.
const gradingGroupEvent = (type: `grading_group.${string}`, description: string) =>
  defineEvent(type, { object: 'GradingGroup', realms: ['SECTION'], description, audience: 'administrators' });
export const gradingGroupEvents = {
  create: gradingGroupEvent('grading_group.create', 'A grading group was made in a section.'),
  update: gradingGroupEvent('grading_group.update', 'A grading group was renamed or its enrollments changed.'),
  delete: gradingGroupEvent('grading_group.delete', 'A grading group was deleted.'),
};

/**
 * The ids, without repeats, once every one is an id of `model` in the section; otherwise a ValidationError naming
 * `field` and the ids that are not. Enrollments and grading groups are assigned only within their own section.
 */
export async function idsInSection(
  model: 'enrollment' | 'gradingGroup',
  sectionId: number,
  ids: number[],
  field: string,
): Promise<number[]> {
  const wanted = [...new Set(ids)];
  const where = { id: { in: wanted.filter((id) => id <= 2_147_483_647) }, sectionId };
  const found = new Set(
    (model === 'enrollment'
      ? await db().enrollment.findMany({ where, select: { id: true } })
      : await db().gradingGroup.findMany({ where, select: { id: true } })
    ).map((row) => row.id),
  );
  const strangers = wanted.filter((id) => !found.has(id));
  const noun = model === 'enrollment' ? 'enrollments' : 'grading groups';
  if (strangers.length)
    throw new ValidationError([{ field, message: `must be ${noun} of this section; not: ${strangers.join(', ')}` }]);
  return wanted;
}

const memberRows = (enrollmentIds: number[]) => ({ create: enrollmentIds.map((enrollmentId) => ({ enrollmentId })) });

export async function createGradingGroup(viewer: Viewer, sectionId: number, input: unknown, query: GradingGroupQuery) {
  const realm = { type: 'SECTION' as const, id: sectionId };
  const facts = await realmFactsFor(viewer, realm, 'visible');
  await authorize(viewer, gradingGroupPolicy, 'write', sectionId, sectionId, 'Section');
  const { title, enrollmentIds = [] } = validate(createGradingGroupSchema, input);
  const members = await idsInSection('enrollment', sectionId, enrollmentIds, 'enrollmentIds');
  return writeTransaction(async (tx) => {
    const group = await tx.gradingGroup.create({ ...query, data: { sectionId, title, members: memberRows(members) } });
    await recordEvent(tx, gradingGroupEvents.create, { realm, objectId: group.id, actorId: viewer.id, scope: facts });
    return group;
  });
}

async function sectionOf(id: number) {
  const group = await findByStorableId(id, (id) =>
    db().gradingGroup.findUnique({ where: { id }, select: { sectionId: true } }),
  );
  if (!group) throw new NotFoundError('GradingGroup', id);
  return group.sectionId;
}

export async function updateGradingGroup(viewer: Viewer, id: number, input: unknown, query: GradingGroupQuery) {
  const sectionId = await sectionOf(id);
  const realm = { type: 'SECTION' as const, id: sectionId };
  await authorize(viewer, gradingGroupPolicy, 'write', sectionId, id);
  const facts = await realmFacts(viewer, realm);
  const { title, enrollmentIds } = validate(updateGradingGroupSchema, input);
  const members = enrollmentIds && (await idsInSection('enrollment', sectionId, enrollmentIds, 'enrollmentIds'));
  return writeTransaction(async (tx) => {
    // A new list of enrollments replaces the old one.
    const replaced = members && { members: { deleteMany: {}, ...memberRows(members) } };
    const group = await tx.gradingGroup.update({ ...query, where: { id }, data: { title, ...replaced } });
    await recordEvent(tx, gradingGroupEvents.update, { realm, objectId: id, actorId: viewer.id, scope: facts });
    return group;
  });
}

export async function deleteGradingGroup(viewer: Viewer, id: number) {
  const sectionId = await sectionOf(id);
  const realm = { type: 'SECTION' as const, id: sectionId };
  await authorize(viewer, gradingGroupPolicy, 'write', sectionId, id);
  const facts = await realmFacts(viewer, realm);
  await writeTransaction(async (tx) => {
    await tx.gradingGroup.delete({ where: { id } });
    await recordEvent(tx, gradingGroupEvents.delete, { realm, objectId: id, actorId: viewer.id, scope: facts });
  });
  return { id };
}
