import { authorize } from '../../auth/policy';
import { findByStorableId, realmFacts } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { NotFoundError } from '../../core/errors';
import { deleteRealmContents } from '../../core/realm-content';
import { validate } from '../../core/validation';
import { db } from '../../db/database';
import type { Prisma } from '../../generated/prisma/client';
import { defineEvent } from '../../outbox/catalogue';
import { recordEvent, writeTransaction } from '../../outbox/record';
import { coursePolicy, sectionPolicy } from './roster.policy';
import { updateSectionSchema } from './roster.validation';

type SectionQuery = { include?: Prisma.SectionInclude; select?: Prisma.SectionSelect };

export const sectionEvents = {
  update: defineEvent('section.update', {
    object: 'Section',
    realms: ['SECTION'],
    description: "A course section's title or code was changed.",
  }),
  // Recorded in the school: the section realm is gone with the section, and with it whoever could read it there.
  delete: defineEvent('section.delete', {
    object: 'Section',
    realms: ['SCHOOL'],
    description: 'A course section was deleted, with its enrollments, invites and content.',
  }),
};

/**
 * The section a change is about, once the viewer may manage it: a section the viewer does not see is not found, one
 * they see but whose school they do not administer (its teachers and students) is refused.
 */
async function managedSection(viewer: Viewer, id: number) {
  const section = await findByStorableId(id, (key) =>
    db().section.findUnique({ where: { id: key }, select: { id: true, title: true, sectionCode: true, course: true } }),
  );
  if (!section) throw new NotFoundError('Section', id);
  await authorize(viewer, sectionPolicy, 'read', id, id);
  await authorize(viewer, coursePolicy, 'manage', section.course.schoolId, id, 'Section');
  return section;
}

/** Changes a section's title or code; a change that changes nothing writes nothing and records no event. */
export async function updateSection(viewer: Viewer, id: number, input: unknown, query: SectionQuery) {
  const data = validate(updateSectionSchema, input);
  const section = await managedSection(viewer, id);
  const same = Object.entries(data).every(
    ([member, value]) => value === undefined || section[member as 'title' | 'sectionCode'] === value,
  );
  if (same) return db().section.findUniqueOrThrow({ ...query, where: { id } });
  const scope = await realmFacts(viewer, { type: 'SECTION', id });
  return writeTransaction(async (tx) => {
    const changed = await tx.section.update({ ...query, where: { id }, data });
    await recordEvent(tx, sectionEvents.update, {
      realm: { type: 'SECTION', id },
      objectId: id,
      actorId: viewer.id,
      scope,
    });
    return changed;
  });
}

/** Deletes a section: its enrollments and invites go by cascade, the content of its realm here. */
export async function deleteSection(viewer: Viewer, id: number) {
  const section = await managedSection(viewer, id);
  const schoolId = section.course.schoolId;
  const scope = await realmFacts(viewer, { type: 'SCHOOL', id: schoolId });
  await writeTransaction(async (tx) => {
    await deleteRealmContents(tx, [{ type: 'SECTION', ids: [id] }]);
    const { count } = await tx.section.deleteMany({ where: { id } });
    if (count === 0) throw new NotFoundError('Section', id);
    await recordEvent(tx, sectionEvents.delete, {
      realm: { type: 'SCHOOL', id: schoolId },
      objectId: id,
      actorId: viewer.id,
      scope,
    });
  });
  return { id };
}
