import { authorize, realmContentReader, realmFactsFor } from '../../auth/policy';
import { type RealmRef, findByStorableId } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { NotFoundError, ValidationError } from '../../core/errors';
import { ownedByRealm } from '../../core/realm-content';
import { validate } from '../../core/validation';
import { db } from '../../db/database';
import { defineEvent } from '../../outbox/catalogue';
import { recordEvent, writeTransaction } from '../../outbox/record';
import type { Prisma } from '../../generated/prisma/client';
import { idsInSection } from '../grading-groups/grading-group.service';
import { pagePolicy } from './page.policy';
import { createPageSchema, updatePageSchema } from './page.validation';

type PageQuery = { select?: Prisma.PageSelect; include?: Prisma.PageInclude };

ownedByRealm('Page', (tx, where) => tx.page.deleteMany({ where }));

export const pageRealms = ['SECTION', 'GROUP'] as const;
const pageEvent = (type: `page.${string}`, description: string) =>
  defineEvent(type, { object: 'Page', realms: pageRealms, description });
export const pageEvents = {
  create: pageEvent('page.create', 'A page was written.'),
  update: pageEvent('page.update', 'A page was changed.'),
  delete: pageEvent('page.delete', 'A page was deleted.'),
};

export const assertReadable = realmContentReader(pagePolicy);

/** The page must belong to the realm named in the request, or it is not found there. */
async function pageInRealm(realm: RealmRef, id: number) {
  const page = await findByStorableId(id, (id) =>
    db().page.findFirst({ where: { id, realmType: realm.type, realmId: realm.id }, select: { id: true } }),
  );
  if (!page) throw new NotFoundError('Page', id);
}

/**
 * Enrollments and grading groups a page is assigned to, checked to be the section's own. A group's pages are for
 * all of its members: a group has neither enrollments nor grading groups to assign.
 */
async function assignmentsIn(
  realm: RealmRef,
  assigneeIds: number[] | undefined,
  gradingGroupIds: number[] | undefined,
) {
  if (realm.type === 'GROUP') {
    const issues = Object.entries({ assigneeIds, gradingGroupIds })
      .filter(([, ids]) => ids?.length)
      .map(([field]) => ({ field, message: "must be empty: a group's pages are for all of its members" }));
    if (issues.length) throw new ValidationError(issues);
    return {};
  }
  return {
    assignees: assigneeIds && (await idsInSection('enrollment', realm.id, assigneeIds, 'assigneeIds')),
    gradingGroups:
      gradingGroupIds && (await idsInSection('gradingGroup', realm.id, gradingGroupIds, 'gradingGroupIds')),
  };
}

/** The deepest nesting that pages may have; deeper chains are refused rather than walked. */
const deepestNesting = 50;

/** A parent must be a page of the same realm, and not the page itself or one nested under it (no loops). */
async function checkParent(realm: RealmRef, parentId: number | null | undefined, pageId: number | null) {
  if (parentId === null || parentId === undefined) return;
  const refuse = (message: string) => new ValidationError([{ field: 'parentId', message }]);
  for (let id: number | null = parentId, depth = 0; id !== null; depth++) {
    if (id === pageId) throw refuse('must not be the page itself or a page nested under it');
    if (depth >= deepestNesting) throw refuse(`must not nest pages more than ${deepestNesting} deep`);
    const page: { parentId: number | null } | null = await findByStorableId(id, (id) =>
      db().page.findFirst({ where: { id, realmType: realm.type, realmId: realm.id }, select: { parentId: true } }),
    );
    if (!page) throw refuse(depth === 0 ? 'must be a page of the same realm' : 'is nested under a page that is gone');
    id = page.parentId;
  }
}

const links = <Key extends string>(key: Key, ids: number[] | undefined) =>
  ids?.map((id) => ({ [key]: id }) as Record<Key, number>);

export async function createPage(viewer: Viewer, realm: RealmRef, input: unknown, query: PageQuery) {
  const facts = await realmFactsFor(viewer, realm, 'visible');
  await authorize(viewer, pagePolicy, 'write', realm, realm.id);
  const { assigneeIds, gradingGroupIds, ...fields } = validate(createPageSchema, input);
  const { assignees, gradingGroups } = await assignmentsIn(realm, assigneeIds, gradingGroupIds);
  await checkParent(realm, fields.parentId, null);
  return writeTransaction(async (tx) => {
    const page = await tx.page.create({
      ...query,
      data: {
        ...fields,
        realmType: realm.type,
        realmId: realm.id,
        authorId: viewer.id,
        assignees: { create: links('enrollmentId', assignees) },
        gradingGroups: { create: links('gradingGroupId', gradingGroups) },
      },
    });
    await recordEvent(tx, pageEvents.create, { realm, objectId: page.id, actorId: viewer.id, scope: facts });
    return page;
  });
}

export async function updatePage(viewer: Viewer, realm: RealmRef, id: number, input: unknown, query: PageQuery) {
  const facts = await realmFactsFor(viewer, realm, 'visible');
  await pageInRealm(realm, id);
  await authorize(viewer, pagePolicy, 'write', realm, id);
  const { assigneeIds, gradingGroupIds, ...fields } = validate(updatePageSchema, input);
  const { assignees, gradingGroups } = await assignmentsIn(realm, assigneeIds, gradingGroupIds);
  await checkParent(realm, fields.parentId, id);
  return writeTransaction(async (tx) => {
    // A list given replaces the old one; an empty list removes them all.
    const page = await tx.page.update({
      ...query,
      where: { id },
      data: {
        ...fields,
        assignees: assignees && { deleteMany: {}, create: links('enrollmentId', assignees) },
        gradingGroups: gradingGroups && { deleteMany: {}, create: links('gradingGroupId', gradingGroups) },
      },
    });
    await recordEvent(tx, pageEvents.update, { realm, objectId: id, actorId: viewer.id, scope: facts });
    return page;
  });
}

/** Deleting a page keeps the pages nested under it: they move up to the top. */
export async function deletePage(viewer: Viewer, realm: RealmRef, id: number) {
  const facts = await realmFactsFor(viewer, realm, 'visible');
  await pageInRealm(realm, id);
  await authorize(viewer, pagePolicy, 'write', realm, id);
  await writeTransaction(async (tx) => {
    await tx.page.delete({ where: { id } });
    await recordEvent(tx, pageEvents.delete, { realm, objectId: id, actorId: viewer.id, scope: facts });
  });
  return { id };
}
