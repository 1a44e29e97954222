import { allowsReading, verdictOf } from '../../auth/policy';
import { NotFoundError, ValidationError } from '../../core/errors';
import { db } from '../../db/database';
import { builder } from '../../graphql/builder';
import { deleteMutation, objectMutation, required } from '../../graphql/operations';
import { parseId } from '../../graphql/realm';
import { gradingGroupPolicy } from './grading-group.policy';
import { createGradingGroup, deleteGradingGroup, updateGradingGroup } from './grading-group.service';
import { registerNodeVisibility, visibleThrough } from '../../graphql/nodes';
import { checkedTotalCount, connectionOptions, keysetWindow } from '../../graphql/connections';
import type { Viewer } from '../../auth/viewer';

/** Whether the viewer reads the section's grading groups (its administrators): false when it is hidden, a 403 when closed to them. */
const readsGradingGroups = async (viewer: Viewer, sectionId: number) => allowsReading(await verdictOf(viewer, gradingGroupPolicy, 'read', sectionId));

builder.queryField('gradingGroups', (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: ['GradingGroup'],
    nullable: true,
    description: 'The grading groups of a section, for its administrators; null when the section does not exist or is hidden.',
    args: { sectionId: t.arg.id({ required: true, description: 'The course section.' }) },
    resolve: async (query, _root, args, { viewer }) => {
      const sectionId = parseId(args.sectionId, 'Section', 'sectionId');
      if (!(await readsGradingGroups(viewer, sectionId))) return null;
      return db().gradingGroup.findMany({ ...query, where: { sectionId }, orderBy: { id: 'asc' } });
    },
  }),
);

builder.queryField('gradingGroupsConnection', (t) =>
  t.withAuth({ authenticated: true }).prismaConnection({
    type: 'GradingGroup',
    ...connectionOptions,
    nullable: true,
    description: 'The groups `gradingGroups` lists, as a Relay connection in the same order; null when the section does not exist or is hidden.',
    args: { sectionId: t.arg.id({ required: true, description: 'The course section.' }) },
    resolve: async (query, _root, args, { viewer }) => {
      const selection = { ...query }; // consumed on the null path too (see findIfVisible)
      const sectionId = parseId(args.sectionId, 'Section', 'sectionId');
      if (!(await readsGradingGroups(viewer, sectionId))) return null;
      return db().gradingGroup.findMany(keysetWindow(selection, { sectionId }));
    },
  }, checkedTotalCount((args: { sectionId: string | number }) => db().gradingGroup.count({ where: { sectionId: parseId(args.sectionId, 'Section', 'sectionId') } }))),
);

const gradingGroupInput = (name: string, description: string, create: boolean) =>
  builder.inputType(name, {
    description,
    fields: (t) => ({
      title: t.string({ required: create, description: 'Title.' }),
      enrollmentIds: t.idList({ description: 'Enrollments of the section in the group; a new list replaces the old one.' }),
    }),
  });
const CreateGradingGroupInput = gradingGroupInput('CreateGradingGroupInput', 'A new grading group.', true);
const UpdateGradingGroupInput = gradingGroupInput('UpdateGradingGroupInput', 'Changes to a grading group; members left out keep their values.', false);

objectMutation('createGradingGroup', {
  type: 'GradingGroup',
  description: 'Makes a grading group of enrollments of a section (its administrators).',
  errors: [ValidationError, NotFoundError],
  args: (arg) => ({ sectionId: arg.id({ required: true, description: 'The course section.' }), input: arg(required(CreateGradingGroupInput, 'The new grading group.')) }),
  resolve: (viewer, args, query) => createGradingGroup(viewer, parseId(args.sectionId, 'Section', 'sectionId'), args.input, query),
});
objectMutation('updateGradingGroup', {
  type: 'GradingGroup',
  description: 'Renames a grading group or replaces its enrollments.',
  errors: [ValidationError, NotFoundError],
  args: (arg) => ({ id: arg.id({ required: true, description: 'The grading group to change.' }), input: arg(required(UpdateGradingGroupInput, 'What to change; members left out keep their values.')) }),
  resolve: (viewer, args, query) => updateGradingGroup(viewer, parseId(args.id, 'GradingGroup'), args.input, query),
});
deleteMutation('deleteGradingGroup', {
  description: 'Deletes a grading group; what was assigned to it is no longer assigned through it.',
  errors: [NotFoundError],
  args: (arg) => ({ id: arg.id({ required: true, description: 'The grading group to delete.' }) }),
  resolve: (viewer, args) => deleteGradingGroup(viewer, parseId(args.id, 'GradingGroup')),
});

// As `gradingGroups(sectionId)`: the section's administrators.
registerNodeVisibility(
  'GradingGroup',
  visibleThrough('GradingGroup', { select: { sectionId: true }, of: (row: { id: number; sectionId: number }) => row.sectionId }, async (viewer, sectionId) => (await verdictOf(viewer, gradingGroupPolicy, 'read', sectionId)) === 'allow'),
);
