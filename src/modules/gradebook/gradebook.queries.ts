import { thenMaybe } from '../../auth/maybe-promise';
import { allowsReading, verdictOf } from '../../auth/policy';
import { isStorableId } from '../../auth/realms';
import { db } from '../../db/database';
import { builder } from '../../graphql/builder';
import { pageArgs, pageOf, paged, offsetListBeside } from '../../graphql/paging';
import { parseId } from '../../graphql/realm';
import { gradebookPolicy, schoolGradingPolicy } from './gradebook.policy';
import type { Viewer } from '../../auth/viewer';
import type { AuthenticatedContext } from '../../graphql/builder';
import { connectionOf, connectionOptions, hiddenUnless, keysetWindow, orderedWindow } from '../../graphql/connections';
import { registerNodeVisibility, visibleThrough } from '../../graphql/nodes';

/** The order of a school's grading periods: by first day, ids breaking ties. */
const periodOrder = [{ startsOn: 'asc' as const }, { id: 'asc' as const }];

/** Whether the viewer reads a school's grading periods and scales: false when it is hidden, a 403 when it is closed. */
const readsSchoolGrading = async (args: { schoolId: string | number }, { viewer }: AuthenticatedContext) =>
  allowsReading(await verdictOf(viewer, schoolGradingPolicy, 'read', parseId(args.schoolId, 'School', 'schoolId')));

builder.queryField('gradingPeriods', (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: ['GradingPeriod'],
    nullable: true,
    description: 'The grading periods of a school, by first day; null when the school does not exist or is hidden.',
    args: { schoolId: t.arg.id({ required: true, description: 'The school.' }) },
    resolve: async (query, _root, args, { viewer }) => {
      const schoolId = parseId(args.schoolId, 'School', 'schoolId');
      if (!allowsReading(await verdictOf(viewer, schoolGradingPolicy, 'read', schoolId))) return null;
      return db().gradingPeriod.findMany({ ...query, where: { schoolId }, orderBy: periodOrder });
    },
  }),
);

builder.queryField('gradingPeriodsConnection', (t) =>
  t.withAuth({ authenticated: true }).prismaConnection(
    {
      type: 'GradingPeriod',
      ...connectionOptions,
      // The cursor holds the period's place in the order (first day, id): see orderedWindow.
      cursor: 'startsOn_id',
      ...hiddenUnless(readsSchoolGrading),
      description:
        'The periods `gradingPeriods` lists, as a Relay connection in the same order (by first day); null when the school does not exist or is hidden.',
      args: { schoolId: t.arg.id({ required: true, description: 'The school.' }) },
      resolve: (query, _root, args) => {
        const schoolId = parseId(args.schoolId, 'School', 'schoolId');
        return db().gradingPeriod.findMany(orderedWindow('GradingPeriod', query, { schoolId }, periodOrder));
      },
      totalCount: (_root, args) =>
        db().gradingPeriod.count({ where: { schoolId: parseId(args.schoolId, 'School', 'schoolId') } }),
    },
    connectionOf('GradingPeriod'),
  ),
);

builder.queryField('gradingScales', (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: ['GradingScale'],
    nullable: true,
    description: 'The grading scales of a school; null when the school does not exist or is hidden.',
    args: { schoolId: t.arg.id({ required: true, description: 'The school.' }) },
    resolve: async (query, _root, args, { viewer }) => {
      const schoolId = parseId(args.schoolId, 'School', 'schoolId');
      if (!allowsReading(await verdictOf(viewer, schoolGradingPolicy, 'read', schoolId))) return null;
      return db().gradingScale.findMany({ ...query, where: { schoolId }, orderBy: { id: 'asc' } });
    },
  }),
);

builder.queryField('gradingScalesConnection', (t) =>
  t.withAuth({ authenticated: true }).prismaConnection(
    {
      type: 'GradingScale',
      ...connectionOptions,
      ...hiddenUnless(readsSchoolGrading),
      description:
        'The scales `gradingScales` lists, as a Relay connection in the same order; null when the school does not exist or is hidden.',
      args: { schoolId: t.arg.id({ required: true, description: 'The school.' }) },
      resolve: (query, _root, args) =>
        db().gradingScale.findMany(keysetWindow(query, { schoolId: parseId(args.schoolId, 'School', 'schoolId') })),
      totalCount: (_root, args) =>
        db().gradingScale.count({ where: { schoolId: parseId(args.schoolId, 'School', 'schoolId') } }),
    },
    connectionOf('GradingScale'),
  ),
);

const AssignmentPage = pageOf('Assignment', "A page of a section's graded items.");

/** Whether the viewer reads the section's gradebook: false when the section is hidden, a 403 when it is closed to them. */
const readsGradebook = async (viewer: Viewer, sectionId: number) =>
  allowsReading(await verdictOf(viewer, gradebookPolicy, 'read', sectionId));

builder.queryField('assignments', (t) =>
  t.withAuth({ authenticated: true }).field({
    ...offsetListBeside('assignmentsConnection'),
    type: AssignmentPage,
    nullable: true,
    description:
      'The graded items of a section, for those who read its gradebook; null when the section does not exist or is hidden.',
    args: { sectionId: t.arg.id({ required: true, description: 'The course section.' }), ...pageArgs },
    resolve: async (_root, args, { viewer }) => {
      const sectionId = parseId(args.sectionId, 'Section', 'sectionId');
      if (!(await readsGradebook(viewer, sectionId))) return null;
      const where = { sectionId };
      return paged(args, {
        findMany: (query) => db().assignment.findMany({ ...query, where }),
        count: () => db().assignment.count({ where }),
      });
    },
  }),
);

builder.queryField('assignmentsConnection', (t) =>
  t.withAuth({ authenticated: true }).prismaConnection(
    {
      type: 'Assignment',
      ...connectionOptions,
      ...hiddenUnless((args: { sectionId: string | number }, { viewer }) =>
        readsGradebook(viewer, parseId(args.sectionId, 'Section', 'sectionId')),
      ),
      description:
        'The items `assignments` lists, as a Relay connection in the same order; null when the section does not exist or is hidden.',
      args: { sectionId: t.arg.id({ required: true, description: 'The course section.' }) },
      resolve: (query, _root, args) =>
        db().assignment.findMany(keysetWindow(query, { sectionId: parseId(args.sectionId, 'Section', 'sectionId') })),
      totalCount: (_root, args) =>
        db().assignment.count({ where: { sectionId: parseId(args.sectionId, 'Section', 'sectionId') } }),
    },
    connectionOf('Assignment'),
  ),
);

builder.queryField('assignment', (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: 'Assignment',
    nullable: true,
    description: 'A graded item of a section; null when it or the section does not exist or is hidden.',
    args: {
      sectionId: t.arg.id({ required: true, description: 'The course section.' }),
      id: t.arg.id({ required: true, description: 'Assignment id.' }),
    },
    resolve: async (query, _root, args, { viewer }) => {
      const sectionId = parseId(args.sectionId, 'Section', 'sectionId');
      if (!allowsReading(await verdictOf(viewer, gradebookPolicy, 'read', sectionId))) return null;
      const id = parseId(args.id, 'Assignment');
      return isStorableId(id) ? db().assignment.findFirst({ ...query, where: { id, sectionId } }) : null;
    },
  }),
);

/** For `node`: an object of a school's or a section's gradebook is seen by whoever its list query shows it to. */
const bySchool = (viewer: Viewer, schoolId: number) =>
  thenMaybe(verdictOf(viewer, schoolGradingPolicy, 'read', schoolId), allowsReading);
const schoolOf = { select: { schoolId: true }, of: (row: { id: number; schoolId: number }) => row.schoolId };
registerNodeVisibility('GradingPeriod', visibleThrough('GradingPeriod', schoolOf, bySchool));
registerNodeVisibility('GradingScale', visibleThrough('GradingScale', schoolOf, bySchool));
registerNodeVisibility(
  'Assignment',
  visibleThrough(
    'Assignment',
    { select: { sectionId: true }, of: (row: { id: number; sectionId: number }) => row.sectionId },
    (viewer, sectionId) => thenMaybe(verdictOf(viewer, gradebookPolicy, 'read', sectionId), allowsReading),
  ),
);
