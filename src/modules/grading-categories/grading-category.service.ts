import { GraphQLError } from 'graphql';
import { type RealmFacts, findByStorableId, isStorableId } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { type FieldIssue, NotFoundError, ValidationError } from '../../core/errors';
import { validate } from '../../core/validation';
import { db } from '../../db/database';
import { defineEvent } from '../../outbox/catalogue';
import { itemByItem, recordEvent, writeTransaction } from '../../outbox/record';
import type { GradingCategory, Prisma } from '../../generated/prisma/client';
import { paged } from '../../graphql/paging';
import { categoryWriter, readsCategories } from './grading-category.policy';
import {
  createGradingCategorySchema,
  maxCategoryItems,
  updateGradingCategorySchema,
} from './grading-category.validation';

type CategoryQuery = { select?: Prisma.GradingCategorySelect; include?: Prisma.GradingCategoryInclude };

/** What became of an item of a bulk write: its name in GraphQL, and its /v1 `response_code`. */
export const categoryItemCodes = { CREATED: 200, UPDATED: 204, INVALID: 400, FORBIDDEN: 403, NOT_FOUND: 404 } as const;
type CategoryItemCode = (typeof categoryItemCodes)[keyof typeof categoryItemCodes];

/** One item of a bulk write: its /v1 `response_code`, and the category written or why it was not. */
export interface CategoryResult {
  code: CategoryItemCode;
  message: string | null;
  issues: FieldIssue[];
  category: GradingCategory | null;
}

const sectionRealm = (id: number) => ({ type: 'SECTION' as const, id });

// Heard by the section's readers: its students see the categories (and weights) their grades are computed with.
const categoryEvent = (type: `grading_category.${string}`, description: string) =>
  defineEvent(type, { object: 'GradingCategory', realms: ['SECTION'], description });
export const gradingCategoryEvents = {
  create: categoryEvent('grading_category.create', 'A grading category was made in a section.'),
  update: categoryEvent('grading_category.update', 'A grading category of a section was changed.'),
  delete: categoryEvent(
    'grading_category.delete',
    'A grading category was deleted; its assignments are ungraded until given another.',
  ),
};

/** The order categories are listed in: `delta`, then id. */
export const categoryOrder = [{ delta: 'asc' as const }, { id: 'asc' as const }];

/** The categories of a section in list order (`delta`, then id); null when the section is hidden. */
export async function listCategories(
  viewer: Viewer,
  sectionId: number,
  args: { start?: number | null; limit?: number | null },
) {
  if (!(await readsCategories(viewer, sectionId))) return null;
  const where = { sectionId };
  return paged(args, {
    findMany: (query) => db().gradingCategory.findMany({ ...query, where, orderBy: categoryOrder }),
    count: () => db().gradingCategory.count({ where }),
  });
}

/** A default scale must be one of the section's school's (0 or null: numeric). */
async function assertSchoolScale(scaleId: number | null | undefined, schoolId: number) {
  if (!scaleId) return;
  const scale = isStorableId(scaleId)
    ? await db().gradingScale.findFirst({ where: { id: scaleId, schoolId }, select: { id: true } })
    : null;
  if (!scale)
    throw new ValidationError([
      { field: 'defaultGradingScaleId', message: "must be a grading scale of the section's school" },
    ]);
}

async function createOne(viewer: Viewer, sectionId: number, facts: RealmFacts, input: unknown, query: CategoryQuery) {
  const data = validate(createGradingCategorySchema, input);
  await assertSchoolScale(data.defaultGradingScaleId, facts.schoolId!);
  return writeTransaction(async (tx) => {
    const category = await tx.gradingCategory.create({ ...query, data: { ...data, sectionId } });
    await recordEvent(tx, gradingCategoryEvents.create, {
      realm: sectionRealm(sectionId),
      objectId: category.id,
      actorId: viewer.id,
      scope: facts,
    });
    return category;
  });
}

async function updateOne(
  viewer: Viewer,
  sectionId: number,
  facts: RealmFacts,
  id: number,
  input: unknown,
  query: CategoryQuery,
) {
  const data = validate(updateGradingCategorySchema, input);
  await assertSchoolScale(data.defaultGradingScaleId, facts.schoolId!);
  return writeTransaction(async (tx) => {
    const category = await tx.gradingCategory.update({ ...query, where: { id }, data });
    await recordEvent(tx, gradingCategoryEvents.update, {
      realm: sectionRealm(sectionId),
      objectId: id,
      actorId: viewer.id,
      scope: facts,
    });
    return category;
  });
}

/** A written item's outcome, from the category its transaction returned. */
const written =
  (code: CategoryItemCode) =>
  (category: GradingCategory): CategoryResult => ({ code, message: null, issues: [], category });

/**
 * One item's outcome: the written category with `code`, or the expected failure that stopped it alone (a
 * ValidationError 400, a NotFoundError 404, a refusal 403). Anything else is a fault and fails the request.
 */
async function settle(code: CategoryItemCode, write: () => Promise<GradingCategory>): Promise<CategoryResult> {
  try {
    return written(code)(await write());
  } catch (error) {
    if (error instanceof ValidationError)
      return { code: 400, message: error.message, issues: error.issues, category: null };
    if (error instanceof NotFoundError) return { code: 404, message: error.message, issues: [], category: null };
    const status =
      error instanceof GraphQLError ? (error.extensions.http as { status?: number } | undefined)?.status : undefined;
    if (status === 403) return { code: 403, message: (error as GraphQLError).message, issues: [], category: null };
    throw error;
  }
}

function assertItemCount(items: readonly unknown[]) {
  if (items.length > maxCategoryItems)
    throw new ValidationError([{ field: 'items', message: `must list at most ${maxCategoryItems} categories` }]);
}

/**
 * Creates categories item by item, each in a transaction of its own with its event: a bad item fails alone and the
 * good ones before and after it are committed. Savepoints in one transaction would do the same, but a long bulk
 * write would then hold its locks and delay every event until the last item. A keyed retry of a write cut short
 * answers the items written as they were and writes the rest (itemByItem).
 */
export async function createCategories(viewer: Viewer, sectionId: number, items: readonly unknown[]) {
  const facts = await categoryWriter(viewer, sectionId);
  assertItemCount(items);
  const results = await itemByItem(
    items,
    (item) => settle(200, () => createOne(viewer, sectionId, facts, item, {})),
    written(200),
  );
  return { results };
}

/** Changes categories of one section item by item (as createCategories); an id not of the section is that item's 404. */
export async function updateCategories(viewer: Viewer, sectionId: number, items: readonly { id: string | number }[]) {
  const facts = await categoryWriter(viewer, sectionId);
  assertItemCount(items);
  const change = ({ id, ...input }: { id: string | number }) =>
    settle(204, async () => {
      const found = await findByStorableId(id, (key) =>
        db().gradingCategory.findFirst({ where: { id: key, sectionId }, select: { id: true } }),
      );
      if (!found) throw new NotFoundError('GradingCategory', id);
      return updateOne(viewer, sectionId, facts, found.id, input, {});
    });
  return { results: await itemByItem(items, change, written(204)) };
}

/** The section of a category, when it is one of `sectionId` (if given); otherwise NotFoundError. */
async function sectionOf(id: number, sectionId: number | null) {
  const found = await findByStorableId(id, (key) =>
    db().gradingCategory.findUnique({ where: { id: key }, select: { sectionId: true } }),
  );
  if (!found || (sectionId !== null && found.sectionId !== sectionId)) throw new NotFoundError('GradingCategory', id);
  return found.sectionId;
}

export async function updateCategory(
  viewer: Viewer,
  id: number,
  sectionId: number | null,
  input: unknown,
  query: CategoryQuery,
) {
  const section = await sectionOf(id, sectionId);
  return updateOne(viewer, section, await categoryWriter(viewer, section, id, 'GradingCategory'), id, input, query);
}

/** Deletes a category; its assignments stay, ungraded (their category is cleared by the database). */
export async function deleteCategory(viewer: Viewer, id: number, sectionId: number | null) {
  const section = await sectionOf(id, sectionId);
  const facts = await categoryWriter(viewer, section, id, 'GradingCategory');
  await writeTransaction(async (tx) => {
    await tx.gradingCategory.delete({ where: { id } });
    await recordEvent(tx, gradingCategoryEvents.delete, {
      realm: sectionRealm(section),
      objectId: id,
      actorId: viewer.id,
      scope: facts,
    });
  });
  return { id };
}
