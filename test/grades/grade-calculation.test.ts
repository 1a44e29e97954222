import { describe, expect, it } from 'vitest';
import {
  type CategoryRule,
  type GivenGrade,
  type GradedItem,
  categoryGrade,
  computeGrades,
  dropLowest,
  letterFor,
  pointsForLetter,
  weightedMean,
} from '../../src/modules/grades/grade-calculation';

const grades = (...list: [assignmentId: number, grade: number | null, exception?: GivenGrade['exception']][]) =>
  new Map(list.map(([assignmentId, grade, exception = null]) => [assignmentId, { assignmentId, grade, exception }]));

describe('category grade', () => {
  it.each([
    // 8/10 = 80%, 45/50 = 90%: mean 85.
    {
      calculation: 'PERCENT' as const,
      scores: [
        [8, 10],
        [45, 50],
      ],
      expected: 85,
    },
    // (8 + 45) / (10 + 50) = 53/60 = 88.33%.
    {
      calculation: 'TOTAL_POINTS' as const,
      scores: [
        [8, 10],
        [45, 50],
      ],
      expected: 88.333,
    },
    // Extra credit (worth 0 points): ignored by the mean of percents, added to the points: (8 + 2) / 10 = 100%.
    {
      calculation: 'PERCENT' as const,
      scores: [
        [8, 10],
        [2, 0],
      ],
      expected: 80,
    },
    {
      calculation: 'TOTAL_POINTS' as const,
      scores: [
        [8, 10],
        [2, 0],
      ],
      expected: 100,
    },
    { calculation: 'PERCENT' as const, scores: [], expected: null },
  ])('$calculation of $scores is $expected', ({ calculation, scores, expected }) => {
    const grade = categoryGrade(
      scores.map(([points, maxPoints]) => ({ points: points!, maxPoints: maxPoints! })),
      calculation,
    );
    if (expected === null) expect(grade).toBeNull();
    else expect(grade).toBeCloseTo(expected, 2);
  });
});

describe('drop lowest', () => {
  const scores = [
    { points: 5, maxPoints: 10 },
    { points: 9, maxPoints: 10 },
    { points: 2, maxPoints: 4 },
    { points: 1, maxPoints: 0 },
  ];
  it.each([
    // Percents 50, 90, 50 and extra credit: dropping one removes a 50; extra credit is never dropped.
    { count: 0, kept: 4 },
    { count: 1, kept: 3 },
    { count: 2, kept: 2 },
    // At least one score always stays, and extra credit is not a score to drop: 90 and the extra credit remain.
    { count: 10, kept: 2 },
  ])('dropping $count keeps $kept', ({ count, kept }) => {
    expect(dropLowest(scores, count)).toHaveLength(kept);
  });
  it('drops the lowest percents, not the lowest points', () => {
    // 3/4 = 75% has fewer points than 5/10 = 50% but the higher percent: 5/10 is dropped.
    const kept = dropLowest(
      [
        { points: 3, maxPoints: 4 },
        { points: 5, maxPoints: 10 },
      ],
      1,
    );
    expect(kept).toEqual([{ points: 3, maxPoints: 4 }]);
  });
});

describe('weighted mean', () => {
  it.each([
    // (80 * 60 + 90 * 40) / 100 = 84.
    {
      parts: [
        { grade: 80, weight: 60 },
        { grade: 90, weight: 40 },
      ],
      expected: 84,
    },
    // A category without scores is left out and the weights renormalised: 90.
    {
      parts: [
        { grade: null, weight: 60 },
        { grade: 90, weight: 40 },
      ],
      expected: 90,
    },
    { parts: [{ grade: 70, weight: 0 }], expected: null },
  ])('$parts -> $expected', ({ parts, expected }) => {
    expect(weightedMean(parts)).toBe(expected);
  });
});

describe('period and final grades', () => {
  const categories: CategoryRule[] = [
    { id: 1, calculation: 'PERCENT', weight: 60, dropLowest: 1 },
    { id: 2, calculation: 'TOTAL_POINTS', weight: 40, dropLowest: 0 },
  ];
  const items: GradedItem[] = [
    { id: 10, categoryId: 1, period: 'p1', maxPoints: 10 },
    { id: 11, categoryId: 1, period: 'p1', maxPoints: 10 },
    { id: 12, categoryId: 1, period: 'p1', maxPoints: 20 },
    { id: 20, categoryId: 2, period: 'p1', maxPoints: 50 },
    { id: 21, categoryId: 2, period: 'p1', maxPoints: 50 },
    { id: 30, categoryId: 1, period: 'p2', maxPoints: 100 },
    { id: 40, categoryId: null, period: 'p2', maxPoints: 100 },
  ];
  const periods = [
    { key: 'p1', weight: 1 },
    { key: 'p2', weight: 3 },
    { key: 'other', weight: 1 },
  ];
  const setup = { categories, items, periods, incompleteCountsAsZero: true };

  it('computes a worked example', () => {
    // p1, category 1 (percent, drop 1): 6/10 = 60%, 9/10 = 90%, 18/20 = 90%; 60% dropped: mean 90.
    // p1, category 2 (total points): 40/50 + 30/50 = 70/100 = 70.
    // p1 = (90 * 60 + 70 * 40) / 100 = 82.
    // p2, category 1: 75/100 = 75; item 40 has no category (ungraded) and does not count; p2 = 75.
    // final = (82 * 1 + 75 * 3) / 4 = 76.75; `other` has nothing and is left out.
    const result = computeGrades(setup, grades([10, 6], [11, 9], [12, 18], [20, 40], [21, 30], [30, 75], [40, 0]));
    expect(result.periods).toEqual([
      {
        key: 'p1',
        grade: 82,
        categories: [
          { categoryId: 1, grade: 90 },
          { categoryId: 2, grade: 70 },
        ],
      },
      {
        key: 'p2',
        grade: 75,
        categories: [
          { categoryId: 1, grade: 75 },
          { categoryId: 2, grade: null },
        ],
      },
      {
        key: 'other',
        grade: null,
        categories: [
          { categoryId: 1, grade: null },
          { categoryId: 2, grade: null },
        ],
      },
    ]);
    expect(result.final).toBe(76.75);
  });

  it('drops an excused item, counts an incomplete one as zero, and leaves ungraded ones out', () => {
    // p1 category 1: item 10 excused, item 11 incomplete (0/10 = 0%), item 12 not graded yet: one score, 0%, and the
    // drop keeps at least one. Category 2: 50/50 = 100. p1 = (0 * 60 + 100 * 40) / 100 = 40.
    const result = computeGrades(setup, grades([10, null, 'EXCUSED'], [11, null, 'INCOMPLETE'], [20, 50]));
    expect(result.periods[0]!.grade).toBe(40);
    // With incompletes left out, category 1 has no score: p1 = category 2 alone = 100.
    const lenient = computeGrades(
      { ...setup, incompleteCountsAsZero: false },
      grades([10, null, 'EXCUSED'], [11, null, 'INCOMPLETE'], [20, 50]),
    );
    expect(lenient.periods[0]!.grade).toBe(100);
  });

  it('uses total points when no category has a weight', () => {
    // Weights 0: the period is its points over its possible points, after each category's drops. Category 1 drops
    // 6/10 and keeps 9/10; category 2 has 40/50. p1 = (9 + 40) / (10 + 50) = 49/60 = 81.67.
    const unweighted = { ...setup, categories: categories.map((category) => ({ ...category, weight: 0 })) };
    expect(computeGrades(unweighted, grades([10, 6], [11, 9], [20, 40])).periods[0]!.grade).toBe(81.67);
  });

  it('lets an override replace a period or the final grade', () => {
    const result = computeGrades(
      setup,
      grades([30, 75]),
      new Map([
        ['p2', 88],
        ['final', 91.5],
      ]),
    );
    expect(result.periods[1]!.grade).toBe(88);
    expect(result.final).toBe(91.5);
  });
});

describe('letter grades', () => {
  const levels = [
    { grade: 'A', minimum: 90 },
    { grade: 'B', minimum: 80 },
    { grade: 'C', minimum: 70 },
    { grade: 'F', minimum: 0 },
  ];
  it.each([
    { percent: 95, letter: 'A' },
    { percent: 90, letter: 'A' },
    { percent: 89.99, letter: 'B' },
    { percent: 12, letter: 'F' },
  ])('$percent% earns $letter', ({ percent, letter }) => expect(letterFor(levels, percent)).toBe(letter));
  it('saves a letter as its minimum percent of the points, which reads back as the same letter', () => {
    // B on a 20-point assignment: 80% of 20 = 16 points; 16/20 = 80% earns B.
    expect(pointsForLetter(levels, 'b', 20)).toBe(16);
    expect(letterFor(levels, (16 / 20) * 100)).toBe('B');
    expect(pointsForLetter(levels, 'E', 20)).toBeNull();
  });
});
