import { allowsReading, verdictOf } from '../../auth/policy';
import { db } from '../../db/database';
import { builder } from '../../graphql/builder';
import { parseId } from '../../graphql/realm';
import { gradingGroupPolicy } from './grading-group.policy';
import { registerNodeVisibility, visibleThrough } from '../../graphql/nodes';
import { connectionOf, connectionOptions, keysetWindow, hiddenUnless } from '../../graphql/connections';
import type { Viewer } from '../../auth/viewer';

/** Whether the viewer reads the section's grading groups (its administrators): false when it is hidden, a 403 when closed to them. */
const readsGradingGroups = async (viewer: Viewer, sectionId: number) =>
  allowsReading(await verdictOf(viewer, gradingGroupPolicy, 'read', sectionId));

builder.queryField('gradingGroups', (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: ['GradingGroup'],
    nullable: true,
    description:
      'The grading groups of a section, for its administrators; null when the section does not exist or is hidden.',
    args: { sectionId: t.arg.id({ required: true, description: 'The course section.' }) },
    resolve: async (query, _root, args, { viewer }) => {
      const sectionId = parseId(args.sectionId, 'Section', 'sectionId');
      if (!(await readsGradingGroups(viewer, sectionId))) return null;
      return db().gradingGroup.findMany({ ...query, where: { sectionId }, orderBy: { id: 'asc' } });
    },
  }),
);

builder.queryField('gradingGroupsConnection', (t) =>
  t.withAuth({ authenticated: true }).prismaConnection(
    {
      type: 'GradingGroup',
      ...connectionOptions,
      ...hiddenUnless((args: { sectionId: string | number }, { viewer }) =>
        readsGradingGroups(viewer, parseId(args.sectionId, 'Section', 'sectionId')),
      ),
      description:
        'The groups `gradingGroups` lists, as a Relay connection in the same order; null when the section does not exist or is hidden.',
      args: { sectionId: t.arg.id({ required: true, description: 'The course section.' }) },
      resolve: (query, _root, args) =>
        db().gradingGroup.findMany(keysetWindow(query, { sectionId: parseId(args.sectionId, 'Section', 'sectionId') })),
      totalCount: (_root, args) =>
        db().gradingGroup.count({ where: { sectionId: parseId(args.sectionId, 'Section', 'sectionId') } }),
    },
    connectionOf('GradingGroup'),
  ),
);

// As `gradingGroups(sectionId)`: the section's administrators.
registerNodeVisibility(
  'GradingGroup',
  visibleThrough(
    'GradingGroup',
    { select: { sectionId: true }, of: (row: { id: number; sectionId: number }) => row.sectionId },
    async (viewer, sectionId) => (await verdictOf(viewer, gradingGroupPolicy, 'read', sectionId)) === 'allow',
  ),
);
