import { NotFoundError, ValidationError } from '../../core/errors';
import { deleteMutation, objectMutation, required, resultMutation } from '../../graphql/operations';
import { changesInput, inputFromSchema } from '../../graphql/inputs';
import { parseId } from '../../graphql/realm';
import { createCategories, deleteCategory, updateCategories, updateCategory } from './grading-category.service';
import { GradingCalculationEnum, GradingCategoryResultsType } from './grading-category.type';
import {
  createGradingCategorySchema,
  gradingCategoryChangeSchema,
  updateGradingCategorySchema,
} from './grading-category.validation';

const types = { calculation: GradingCalculationEnum };
const CreateGradingCategoryInput = inputFromSchema(
  'CreateGradingCategoryInput',
  createGradingCategorySchema,
  'A new grading category.',
  types,
);
const UpdateGradingCategoryInput = changesInput(
  'UpdateGradingCategoryInput',
  updateGradingCategorySchema,
  'a grading category',
  types,
);
const GradingCategoryChangeInput = inputFromSchema(
  'GradingCategoryChangeInput',
  gradingCategoryChangeSchema,
  'One item of a bulk change: the category, and its members to change.',
  types,
);

const sectionArg = 'The section; the category must be one of its (a category of another section is not found).';

resultMutation('createGradingCategories', {
  type: GradingCategoryResultsType,
  description:
    'Makes grading categories in a section (its teachers and administrators), item by item: an item that cannot be ' +
    'written (code 400) does not stop the others, and each good item is committed. At most 200 items.',
  errors: [ValidationError, NotFoundError],
  args: (arg) => ({
    sectionId: arg.id({ required: true, description: 'The course section.' }),
    items: arg({
      type: [CreateGradingCategoryInput],
      required: true,
      description: 'The new categories; each succeeds or fails alone.',
    }),
  }),
  resolve: (viewer, args) => createCategories(viewer, parseId(args.sectionId, 'Section', 'sectionId'), args.items),
});
resultMutation('updateGradingCategories', {
  type: GradingCategoryResultsType,
  description:
    'Changes grading categories of a section item by item (code 204 changed, 400 invalid, 404 not a category of the ' +
    'section); each good item is committed. At most 200 items.',
  errors: [ValidationError, NotFoundError],
  args: (arg) => ({
    sectionId: arg.id({ required: true, description: 'The course section.' }),
    items: arg({
      type: [GradingCategoryChangeInput],
      required: true,
      description: 'The changes, one per category; each succeeds or fails alone.',
    }),
  }),
  resolve: (viewer, args) => updateCategories(viewer, parseId(args.sectionId, 'Section', 'sectionId'), args.items),
});
objectMutation('updateGradingCategory', {
  type: 'GradingCategory',
  description: "Changes a grading category (the section's teachers and administrators).",
  args: (arg) => ({
    id: arg.id({ required: true, description: 'The grading category to change.' }),
    input: arg(required(UpdateGradingCategoryInput, 'What to change; members left out keep their values.')),
    sectionId: arg.id({ description: sectionArg }),
  }),
  resolve: (viewer, args, query) =>
    updateCategory(
      viewer,
      parseId(args.id, 'GradingCategory'),
      args.sectionId == null ? null : parseId(args.sectionId, 'Section', 'sectionId'),
      args.input,
      query,
    ),
});
deleteMutation('deleteGradingCategory', {
  description: 'Deletes a grading category; its assignments stay, ungraded until they are given another.',
  errors: [NotFoundError],
  args: (arg) => ({
    id: arg.id({ required: true, description: 'The grading category to delete.' }),
    sectionId: arg.id({ description: sectionArg }),
  }),
  resolve: (viewer, args) =>
    deleteCategory(
      viewer,
      parseId(args.id, 'GradingCategory'),
      args.sectionId == null ? null : parseId(args.sectionId, 'Section', 'sectionId'),
    ),
});
