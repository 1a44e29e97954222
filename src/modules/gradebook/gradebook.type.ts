import { GradeItemType } from '../../generated/prisma/enums';
import { builder } from '../../graphql/builder';
import { exposeColumns, exposeDatabaseId, nodeId } from '../../graphql/columns';
import { arrayConnection, connectionOf } from '../../graphql/connections';

export const GradeItemTypeEnum = builder.enumType(GradeItemType, {
  name: 'GradeItemType',
  description: 'Kind of graded item.',
  values: {
    ASSIGNMENT: { description: 'An assignment: work students hand in.' },
    DISCUSSION: { description: 'A graded discussion: students are graded on their contributions.' },
  },
});

/** A day column (`@db.Date`) as `YYYY-MM-DD`. */
export const dayText = (day: Date) => day.toISOString().slice(0, 10);

export const GradingPeriodType = builder.prismaNode('GradingPeriod', {
  id: nodeId,
  fields: (t) => ({
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'GradingPeriod', ['schoolId', 'title', 'weight']),
    school: t.relation('school', { description: 'The school of the period (`schoolId`).' }),
    startsOn: t.string({ description: 'First day, YYYY-MM-DD.', resolve: (period) => dayText(period.startsOn) }),
    endsOn: t.string({ description: 'Last day, YYYY-MM-DD.', resolve: (period) => dayText(period.endsOn) }),
  }),
});

export interface ScaleLevel {
  grade: string;
  minimum: number;
}

const GradingScaleLevel = builder.objectRef<ScaleLevel>('GradingScaleLevel').implement({
  description: 'A level of a grading scale: a percent at or above its minimum earns its grade.',
  fields: (t) => ({
    grade: t.exposeString('grade', { description: 'The letter grade, such as "A".' }),
    minimum: t.exposeFloat('minimum', { description: 'The lowest percent that earns it.' }),
  }),
});

export const GradingScaleType = builder.prismaNode('GradingScale', {
  id: nodeId,
  fields: (t) => ({
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'GradingScale', ['schoolId', 'title']),
    school: t.relation('school', { description: 'The school of the scale (`schoolId`).' }),
    levels: t.field({
      type: [GradingScaleLevel],
      description: 'The levels, highest first.',
      resolve: (scale) => scale.levels as unknown as ScaleLevel[],
    }),
    levelsConnection: t.connection(
      {
        type: GradingScaleLevel,
        description:
          'The levels `levels` lists, as a Relay connection in the same order (cursors are positions in the scale).',
        resolve: (scale, args) => arrayConnection(args, scale.levels as unknown as ScaleLevel[]),
      },
      connectionOf(GradingScaleLevel),
    ),
  }),
});

export const AssignmentType = builder.prismaNode('Assignment', {
  id: nodeId,
  fields: (t) => ({
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'Assignment', [
      'sectionId',
      'title',
      'categoryId',
      'scaleId',
      'periodId',
      'isFinal',
      'createdAt',
      'updatedAt',
    ]),
    type: t.expose('type', { type: GradeItemTypeEnum, description: 'Kind of graded item.' }),
    maxPoints: t.exposeFloat('maxPoints', { description: 'Points the assignment is worth.' }),
    scale: t.relation('scale', {
      nullable: true,
      description: 'The grading scale letter grades are read with; null for numeric.',
    }),
    period: t.relation('period', { nullable: true, description: 'The grading period; null files it under "other".' }),
    section: t.relation('section', { description: 'The course section of the assignment (`sectionId`).' }),
    category: t.relation('category', {
      nullable: true,
      description: 'The grading category (`categoryId`); null when uncategorized.',
    }),
  }),
});
