import { z } from 'zod';
import { inputFromSchema, objectIdMember, withMembers } from '../../graphql/inputs';
import { payloadMutation } from '../../graphql/payloads';
import { parseId } from '../../graphql/realm';
import { createCategories, deleteCategory, updateCategories, updateCategory } from './grading-category.service';
import { GradingCalculationEnum, GradingCategoryResultType } from './grading-category.type';
import {
  createGradingCategoriesSchema,
  createGradingCategorySchema,
  gradingCategoryChangeSchema,
  updateGradingCategoriesSchema,
  updateGradingCategorySchema,
} from './grading-category.validation';

const types = { calculation: GradingCalculationEnum };
const CreateGradingCategoryInput = inputFromSchema(
  'CreateGradingCategoryInput',
  createGradingCategorySchema,
  'A new grading category.',
  types,
);
const GradingCategoryChangeInput = inputFromSchema(
  'GradingCategoryChangeInput',
  gradingCategoryChangeSchema,
  'One item of a bulk change: the category, and its members to change.',
  types,
);

/** The section a category must be one of, when given (a category of another section is not found). */
const sectionMember = {
  sectionId: objectIdMember(
    'The section; the category must be one of its (a category of another section is not found).',
  ).nullish(),
};
const sectionOf = (sectionId: string | null | undefined) =>
  sectionId == null ? null : parseId(sectionId, 'Section', 'sectionId');

const results = {
  type: GradingCategoryResultType,
  list: true,
  description: 'One result per item, in the order sent.',
} as const;

payloadMutation('createGradingCategories', {
  description:
    'Makes grading categories in a section (its teachers and administrators), item by item: an item that cannot be ' +
    'written (code 400) does not stop the others, and each good item is committed. At most 200 items.',
  input: createGradingCategoriesSchema,
  inputDescription: 'The section, and the new categories.',
  types: { items: CreateGradingCategoryInput },
  payload: { results },
  resolve: async (viewer, { sectionId, items }) =>
    createCategories(viewer, parseId(sectionId, 'Section', 'sectionId'), items),
});
payloadMutation('updateGradingCategories', {
  description:
    'Changes grading categories of a section item by item (code 204 changed, 400 invalid, 404 not a category of the ' +
    'section); each good item is committed. At most 200 items.',
  input: updateGradingCategoriesSchema,
  inputDescription: 'The section, and the changes to its categories.',
  types: { items: GradingCategoryChangeInput },
  payload: { results },
  resolve: async (viewer, { sectionId, items }) =>
    updateCategories(viewer, parseId(sectionId, 'Section', 'sectionId'), items),
});
payloadMutation('updateGradingCategory', {
  description: "Changes a grading category (the section's teachers and administrators).",
  input: withMembers(updateGradingCategorySchema, {
    id: objectIdMember('The grading category to change.'),
    ...sectionMember,
  }),
  inputDescription: 'The grading category, and changes to it; members left out keep their values.',
  types,
  payload: { gradingCategory: { model: 'GradingCategory', description: 'The grading category as changed.' } },
  resolve: async (viewer, { id, sectionId, ...changes }, select) => ({
    gradingCategory: await updateCategory(
      viewer,
      parseId(id, 'GradingCategory'),
      sectionOf(sectionId),
      changes,
      select('gradingCategory'),
    ),
  }),
});
payloadMutation('deleteGradingCategory', {
  description: 'Deletes a grading category; its assignments stay, ungraded until they are given another.',
  input: z.strictObject({ id: objectIdMember('The grading category to delete.'), ...sectionMember }),
  inputDescription: 'The grading category to delete.',
  payload: {
    deletedGradingCategoryId: { deleted: 'GradingCategory', description: 'Global id of the deleted category.' },
  },
  resolve: async (viewer, { id, sectionId }) => ({
    deletedGradingCategoryId: (await deleteCategory(viewer, parseId(id, 'GradingCategory'), sectionOf(sectionId))).id,
  }),
});
