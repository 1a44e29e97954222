import { type InputFieldBuilder, builder } from '../../graphql/builder';
import { NotFoundError, ValidationError } from '../../core/errors';
import { deleteMutation, objectMutation, required, resultMutation } from '../../graphql/operations';
import { parseId } from '../../graphql/realm';
import { createCategories, deleteCategory, updateCategories, updateCategory } from './grading-category.service';
import { GradingCalculationEnum, GradingCategoryResultsType } from './grading-category.type';

/** The members every category input shares; none is required (spec 2.6), and on an update one left out is unchanged. */
const categoryFields = (t: InputFieldBuilder) => ({
  title: t.string({ description: 'Title, at most 255 characters; empty by default.' }),
  calculation: t.field({ type: GradingCalculationEnum, description: 'How its grade is computed; PERCENT by default.' }),
  defaultMaxPoints: t.float({ description: 'Points new assignments in it are worth, 0 to 1,000,000; 100 by default.' }),
  defaultGradingScaleId: t.id({
    description: 'A grading scale of the section\'s school for new assignments in it; 0 or null: numeric (the default).',
  }),
  dropLowest: t.int({ description: 'How many of the lowest scores are dropped, 0 to 10; 0 by default.' }),
  weight: t.int({ description: 'Weight in period grades, 0 to 1000; 0 by default.' }),
  delta: t.int({ description: 'Position in lists (lower first), -1,000,000 to 1,000,000; 0 by default.' }),
});

const CreateGradingCategoryInput = builder.inputType('CreateGradingCategoryInput', {
  description: 'A new grading category.',
  fields: categoryFields,
});
const UpdateGradingCategoryInput = builder.inputType('UpdateGradingCategoryInput', {
  description: 'Changes to a grading category; members left out keep their values.',
  fields: categoryFields,
});
const GradingCategoryChangeInput = builder.inputType('GradingCategoryChangeInput', {
  description: 'One item of a bulk change: the category, and its members to change.',
  fields: (t) => ({ id: t.id({ required: true, description: 'A grading category of the section.' }), ...categoryFields(t) }),
});

const sectionArg = 'The section; the category must be one of its (a category of another section is not found).';

resultMutation('createGradingCategories', {
  type: GradingCategoryResultsType,
  description:
    'Makes grading categories in a section (its teachers and administrators), item by item: an item that cannot be ' +
    'written (code 400) does not stop the others, and each good item is committed. At most 200 items.',
  errors: [ValidationError, NotFoundError],
  args: (arg) => ({ sectionId: arg.id({ required: true, description: 'The course section.' }), items: arg({ type: [CreateGradingCategoryInput], required: true, description: 'The new categories; each succeeds or fails alone.' }) }),
  resolve: (viewer, args) => createCategories(viewer, parseId(args.sectionId, 'Section', 'sectionId'), args.items),
});
resultMutation('updateGradingCategories', {
  type: GradingCategoryResultsType,
  description:
    'Changes grading categories of a section item by item (code 204 changed, 400 invalid, 404 not a category of the ' +
    'section); each good item is committed. At most 200 items.',
  errors: [ValidationError, NotFoundError],
  args: (arg) => ({ sectionId: arg.id({ required: true, description: 'The course section.' }), items: arg({ type: [GradingCategoryChangeInput], required: true, description: 'The changes, one per category; each succeeds or fails alone.' }) }),
  resolve: (viewer, args) => updateCategories(viewer, parseId(args.sectionId, 'Section', 'sectionId'), args.items),
});
objectMutation('updateGradingCategory', {
  type: 'GradingCategory',
  description: 'Changes a grading category (the section\'s teachers and administrators).',
  errors: [ValidationError, NotFoundError],
  args: (arg) => ({
    id: arg.id({ required: true, description: 'The grading category to change.' }),
    input: arg(required(UpdateGradingCategoryInput, 'What to change; members left out keep their values.')),
    sectionId: arg.id({ description: sectionArg }),
  }),
  resolve: (viewer, args, query) =>
    updateCategory(viewer, parseId(args.id, 'GradingCategory'), args.sectionId == null ? null : parseId(args.sectionId, 'Section', 'sectionId'), args.input, query),
});
deleteMutation('deleteGradingCategory', {
  description: 'Deletes a grading category; its assignments stay, ungraded until they are given another.',
  errors: [NotFoundError],
  args: (arg) => ({ id: arg.id({ required: true, description: 'The grading category to delete.' }), sectionId: arg.id({ description: sectionArg }) }),
  resolve: (viewer, args) => deleteCategory(viewer, parseId(args.id, 'GradingCategory'), args.sectionId == null ? null : parseId(args.sectionId, 'Section', 'sectionId')),
});
