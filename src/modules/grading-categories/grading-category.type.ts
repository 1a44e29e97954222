import { builder } from '../../graphql/builder';
import { exposeColumns, exposeOptionalText, exposeDatabaseId, nodeId } from '../../graphql/columns';
import { FieldIssueType } from '../../graphql/error-types';
import { pageOf } from '../../graphql/paging';
import type { CategoryResult } from './grading-category.service';

export const GradingCalculationEnum = builder.enumType('GradingCalculation', {
  description: "How a grading category's grade is computed (`calculation_type` on /v1: 1 percent, 2 total points).",
  values: {
    PERCENT: { description: "The mean of its assignments' percents." },
    TOTAL_POINTS: { description: 'Its points earned over its points possible.' },
  },
});

export const GradingCategoryType = builder.prismaNode('GradingCategory', {
  id: nodeId,
  fields: (t) => ({
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'GradingCategory', ['dropLowest', 'weight', 'delta']),
    ...exposeOptionalText(t, 'GradingCategory', ['title']),
    section: t.relation('section'),
    calculation: t.expose('calculation', { type: GradingCalculationEnum }),
    defaultMaxPoints: t.exposeFloat('defaultMaxPoints'),
    defaultGradingScale: t.relation('defaultGradingScale', { nullable: true }),
  }),
});

export const GradingCategoryPage = pageOf(
  'GradingCategory',
  'A page of grading categories, in list order (`delta`, then id).',
);

export const GradingCategoryResultType = builder.objectRef<CategoryResult>('GradingCategoryResult').implement({
  description: 'What became of one item of a bulk write of grading categories.',
  fields: (t) => ({
    code: t.exposeInt('code', {
      description:
        "The item's /v1 `response_code`: 200 created, 204 updated; 400 invalid, 403 refused, 404 unknown category.",
    }),
    message: t.exposeString('message', { nullable: true, description: 'Why the item was not written.' }),
    issues: t.field({
      type: [FieldIssueType],
      description: 'Each invalid member of an item refused with 400.',
      resolve: (result) => result.issues,
    }),
    category: t.field({
      type: GradingCategoryType,
      nullable: true,
      description: 'The category as written; null when the item failed.',
      resolve: (result) => result.category,
    }),
  }),
});
