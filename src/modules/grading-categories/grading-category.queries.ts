import { isStorableId } from '../../auth/realms';
import { db } from '../../db/database';
import { builder } from '../../graphql/builder';
import { pageArgs, offsetListBeside } from '../../graphql/paging';
import { parseId } from '../../graphql/realm';
import { findIfVisible } from '../../graphql/visible';
import { readsCategories } from './grading-category.policy';
import { categoryOrder, listCategories } from './grading-category.service';
import { connectionOf, connectionOptions, orderedWindow, hiddenUnless } from '../../graphql/connections';
import { GradingCategoryPage } from './grading-category.type';
import { registerNodeVisibility, visibleThrough } from '../../graphql/nodes';

builder.queryFields((t) => ({
  gradingCategories: t.withAuth({ authenticated: true }).field({
    ...offsetListBeside('gradingCategoriesConnection'),
    type: GradingCategoryPage,
    nullable: true,
    description:
      'The grading categories of a section, ordered by `delta` then id, for everyone who reads its gradebook; null when ' +
      'the section does not exist or is hidden; FORBIDDEN when the viewer knows the section but not its gradebook.',
    args: { sectionId: t.arg.id({ required: true, description: 'The course section.' }), ...pageArgs },
    resolve: (_root, args, { viewer }) => listCategories(viewer, parseId(args.sectionId, 'Section', 'sectionId'), args),
  }),
  gradingCategoriesConnection: t.withAuth({ authenticated: true }).prismaConnection(
    {
      type: 'GradingCategory',
      ...connectionOptions,
      // The cursor holds the category's place in the order (delta, id): see orderedWindow.
      cursor: 'delta_id',
      ...hiddenUnless((args: { sectionId: string | number }, { viewer }) =>
        readsCategories(viewer, parseId(args.sectionId, 'Section', 'sectionId')),
      ),
      description:
        'The categories `gradingCategories` lists, as a Relay connection in the same order (by `delta`, then id); null ' +
        'when the section does not exist or is hidden; FORBIDDEN when the viewer knows the section but not its gradebook.',
      args: { sectionId: t.arg.id({ required: true, description: 'The course section.' }) },
      resolve: (query, _root, args) => {
        const sectionId = parseId(args.sectionId, 'Section', 'sectionId');
        return db().gradingCategory.findMany(orderedWindow('GradingCategory', query, { sectionId }, categoryOrder));
      },
      totalCount: (_root, args) =>
        db().gradingCategory.count({ where: { sectionId: parseId(args.sectionId, 'Section', 'sectionId') } }),
    },
    connectionOf('GradingCategory'),
  ),
  gradingCategory: t.withAuth({ authenticated: true }).prismaField({
    type: 'GradingCategory',
    nullable: true,
    description:
      'A grading category of a section; null when it, or the section, does not exist or is hidden from the viewer; ' +
      'FORBIDDEN when the viewer knows the section but not its gradebook.',
    args: {
      sectionId: t.arg.id({ required: true, description: 'The course section.' }),
      id: t.arg.id({ required: true, description: 'Grading category id.' }),
    },
    resolve: (query, _root, args, { viewer }) => {
      const sectionId = parseId(args.sectionId, 'Section', 'sectionId');
      const id = parseId(args.id, 'GradingCategory');
      return findIfVisible(query, readsCategories(viewer, sectionId), (selection) =>
        isStorableId(id)
          ? db().gradingCategory.findFirst({ ...selection, where: { id, sectionId } })
          : Promise.resolve(null),
      );
    },
  }),
}));

// As `gradingCategory(sectionId, id)`: whoever reads the categories of the category's section.
registerNodeVisibility(
  'GradingCategory',
  visibleThrough(
    'GradingCategory',
    { select: { sectionId: true }, of: (row: { id: number; sectionId: number }) => row.sectionId },
    readsCategories,
  ),
);
