/**
 * The schools' hand-written SQL (docs/adding-a-resource.md, "Hand-written SQL"): it answers exactly as Prisma's client
 * would for the same selection, which test/hot-path/school-sql.test.ts holds it to row by row.
 */
import { directQuery } from '../../db/database';
import type { DirectRows } from '../../graphql/reads-by-id';

/** What a school's or a building's realm facts are made of. */
export type SchoolFactsRow = { id: number; districtId: number; parentId: number | null };
export const schoolFactsSelection = { select: { districtId: true, parentId: true } };

/**
 * A school's facts read directly: every create in a school and every check of a school's realm reads them, where
 * Prisma's client costs more than the statement (docs/performance.md, "Mechanisms").
 */
export const schoolFactsById: DirectRows = {
  answers: (selection) => selection === schoolFactsSelection,
  byIds: (ids) =>
    directQuery<SchoolFactsRow>('SELECT id, "districtId", "parentId" FROM schools WHERE id = ANY($1::int4[])', [ids]),
};
