import { builder } from '../../graphql/builder';
import { exposeColumns, exposeOptionalText, exposeDatabaseId, nodeId } from '../../graphql/columns';
import { itemResultType } from '../../graphql/error-types';
import { pageOf } from '../../graphql/paging';
import { type CategoryResult, categoryItemCodes } from './grading-category.service';

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

const GradingCategoryItemStatusEnum = builder.enumType('GradingCategoryItemStatus', {
  description: 'What became of one item of a bulk write of grading categories; /v1 answers the `response_code` named.',
  values: {
    CREATED: { value: categoryItemCodes.CREATED, description: 'The category was created (200).' },
    UPDATED: { value: categoryItemCodes.UPDATED, description: 'The category was changed (204).' },
    INVALID: { value: categoryItemCodes.INVALID, description: 'Refused: an invalid member, listed in `issues` (400).' },
    FORBIDDEN: { value: categoryItemCodes.FORBIDDEN, description: 'Refused: the viewer may not write it (403).' },
    NOT_FOUND: { value: categoryItemCodes.NOT_FOUND, description: 'Not a category of the section (404).' },
  },
});

export const GradingCategoryResultType = itemResultType<CategoryResult>('GradingCategoryResult', {
  description: 'What became of one item of a bulk write of grading categories.',
  codes: GradingCategoryItemStatusEnum,
  written: (t) => ({
    category: t.field({
      type: GradingCategoryType,
      nullable: true,
      description: 'The category as written; null when the item failed.',
      resolve: (result) => result.category,
    }),
  }),
});
