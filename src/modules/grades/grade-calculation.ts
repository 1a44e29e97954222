/**
 * Period and final grades, computed from the grades given: pure functions over plain rows, so that the rules can be
 * read, and tested, in one place. Percents are 0-100 (more with extra credit), rounded to two decimals at the end.
 *
 * - An assignment counts in its grading category and period; one without a category is ungraded and counts nowhere.
 * - Excused drops the assignment; incomplete counts as zero unless the district says otherwise (then it is dropped
 *   like an excused one); an assignment without a grade yet does not count.
 * - A category drops its `dropLowest` lowest percents, but always keeps at least one score.
 * - A PERCENT category's grade is the mean of its percents; a TOTAL_POINTS category's is its points over its
 *   possible points.
 * - A period's grade is the mean of its categories' grades weighted by their weights (categories without scores
 *   are left out and the weights of the rest renormalised); when no category with scores has a weight, it is the
 *   period's points over its possible points.
 * - The course final is the mean of the period grades weighted by the periods' weights (`other`, for assignments
 *   without a period, weighs 1).
 * - An override replaces a computed period or final grade.
 */

export type Calculation = 'PERCENT' | 'TOTAL_POINTS';

export interface CategoryRule {
  id: number;
  calculation: Calculation;
  weight: number;
  dropLowest: number;
}

export interface GradedItem {
  id: number;
  categoryId: number | null;
  /** The period's /v1 key: `p<id>`, or `other`. */
  period: string;
  maxPoints: number;
}

export interface GivenGrade {
  assignmentId: number;
  grade: number | null;
  exception: 'EXCUSED' | 'INCOMPLETE' | null;
}

export interface PeriodRule {
  /** `p<id>` or `other`. */
  key: string;
  weight: number;
}

export interface PeriodResult {
  key: string;
  /** Null while nothing in the period counts. */
  grade: number | null;
  categories: { categoryId: number; grade: number | null }[];
}

export interface EnrollmentResult {
  periods: PeriodResult[];
  final: number | null;
}

interface Score {
  points: number;
  maxPoints: number;
}

const round = (value: number) => Math.round(value * 100) / 100;
const percentOf = (score: Score) => (score.points / score.maxPoints) * 100;

/** The scores that count, for one category in one period. */
export function countedScores(
  items: GradedItem[],
  grades: Map<number, GivenGrade>,
  incompleteCountsAsZero: boolean,
): Score[] {
  return items.flatMap((item) => {
    const given = grades.get(item.id);
    if (!given || given.exception === 'EXCUSED') return [];
    if (given.exception === 'INCOMPLETE')
      return incompleteCountsAsZero ? [{ points: 0, maxPoints: item.maxPoints }] : [];
    return given.grade === null ? [] : [{ points: given.grade, maxPoints: item.maxPoints }];
  });
}

/** Drops the `count` lowest percents, keeping at least one score; items worth 0 points (extra credit) are never dropped. */
export function dropLowest(scores: Score[], count: number): Score[] {
  const droppable = scores.filter((score) => score.maxPoints > 0).sort((a, b) => percentOf(a) - percentOf(b));
  const dropped = new Set(droppable.slice(0, Math.max(0, Math.min(count, droppable.length - 1))));
  return scores.filter((score) => !dropped.has(score));
}

/** A category's grade from the scores that remain; null when none counts. */
export function categoryGrade(scores: Score[], calculation: Calculation): number | null {
  if (calculation === 'TOTAL_POINTS') {
    const possible = scores.reduce((sum, score) => sum + score.maxPoints, 0);
    return possible > 0 ? (scores.reduce((sum, score) => sum + score.points, 0) / possible) * 100 : null;
  }
  const rated = scores.filter((score) => score.maxPoints > 0);
  return rated.length ? rated.reduce((sum, score) => sum + percentOf(score), 0) / rated.length : null;
}

/** The mean of grades weighted by weights, over the grades that exist; null when none has weight. */
export function weightedMean(parts: { grade: number | null; weight: number }[]): number | null {
  const counted = parts.filter((part) => part.grade !== null && part.weight > 0);
  const weights = counted.reduce((sum, part) => sum + part.weight, 0);
  return weights > 0 ? counted.reduce((sum, part) => sum + part.grade! * part.weight, 0) / weights : null;
}

/** One enrollment's period grades and course final, before overrides. */
export function computeGrades(
  input: { categories: CategoryRule[]; items: GradedItem[]; periods: PeriodRule[]; incompleteCountsAsZero: boolean },
  grades: Map<number, GivenGrade>,
  overrides: Map<string, number> = new Map(),
): EnrollmentResult {
  const periods = input.periods.map((period): PeriodResult & { weight: number } => {
    const inPeriod = input.items.filter((item) => item.period === period.key && item.categoryId !== null);
    const categories = input.categories.map((category) => {
      const scores = countedScores(
        inPeriod.filter((item) => item.categoryId === category.id),
        grades,
        input.incompleteCountsAsZero,
      );
      const kept = dropLowest(scores, category.dropLowest);
      return { category, kept, grade: categoryGrade(kept, category.calculation) };
    });
    const weighted = weightedMean(categories.map(({ category, grade }) => ({ grade, weight: category.weight })));
    const computed =
      weighted ??
      categoryGrade(
        categories.flatMap(({ kept }) => kept),
        'TOTAL_POINTS',
      );
    const grade = overrides.get(period.key) ?? computed;
    return {
      key: period.key,
      weight: period.weight,
      grade: grade === null ? null : round(grade),
      categories: categories.map(({ category, grade }) => ({
        categoryId: category.id,
        grade: grade === null ? null : round(grade),
      })),
    };
  });
  const computedFinal = weightedMean(periods);
  const final = overrides.get('final') ?? computedFinal;
  return {
    periods: periods.map(({ weight: _weight, ...period }) => period),
    final: final === null ? null : round(final),
  };
}

export interface ScaleLevel {
  grade: string;
  minimum: number;
}

/** The letter a percent earns on a scale (levels highest first); the lowest level below every minimum. */
export function letterFor(levels: ScaleLevel[], percent: number): string {
  return (levels.find((level) => percent >= level.minimum) ?? levels.at(-1)!).grade;
}

/**
 * The points a letter grade is saved as: the level's minimum percent of the assignment's points, so that the saved
 * grade reads back as the same letter. Null when the scale has no such letter (case does not matter).
 */
export function pointsForLetter(levels: ScaleLevel[], letter: string, maxPoints: number): number | null {
  const level = levels.find((candidate) => candidate.grade.toUpperCase() === letter.trim().toUpperCase());
  return level ? round((level.minimum / 100) * maxPoints) : null;
}
