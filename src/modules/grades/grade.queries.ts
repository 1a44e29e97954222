import type { GlobalIdType } from '../../core/global-id';
import { builder } from '../../graphql/builder';
import { parseId } from '../../graphql/realm';
import { sectionGrades, userGrades } from './grade.service';
import { SectionGradesType } from './grade.type';

const optionalId = (value: string | null | undefined, type: GlobalIdType, argument: string) =>
  value == null ? null : parseId(value, type, argument);

builder.queryFields((t) => ({
  sectionGrades: t.withAuth({ authenticated: true }).field({
    type: SectionGradesType,
    nullable: true,
    description:
      "A section's grades, paged, with period and final grades, for its teachers and administrators; FORBIDDEN for its " +
      'students and their parents, as the platform answers them (they read theirs with userGrades); null when the section ' +
      'does not exist or is hidden.',
    args: {
      sectionId: t.arg.id({ required: true, description: 'The course section.' }),
      assignmentId: t.arg.id({ description: 'Only grades on this item.' }),
      enrollmentId: t.arg.id({ description: "Only this enrollment's grades (and final grades)." }),
      changedSince: t.arg({
        type: 'DateTime',
        description: 'Only grades changed at or after this time (server time).',
      }),
    },
    resolve: (_root, args, { viewer }) =>
      sectionGrades(viewer, parseId(args.sectionId, 'Section', 'sectionId'), {
        assignmentId: optionalId(args.assignmentId, 'Assignment', 'assignmentId'),
        enrollmentId: optionalId(args.enrollmentId, 'Enrollment', 'enrollmentId'),
        changedSince: args.changedSince ?? null,
      }),
  }),
  userGrades: t.withAuth({ authenticated: true }).field({
    type: SectionGradesType,
    nullable: true,
    description:
      "A student's grades in one section, with period and final grades; null when the student is not enrolled in it or is hidden. " +
      'Without sectionId the answer is FORBIDDEN, as the platform answers.',
    args: {
      userId: t.arg.id({ required: true, description: 'The student.' }),
      sectionId: t.arg.id({
        description: 'The course section; without it the answer is FORBIDDEN, as on the platform.',
      }),
    },
    resolve: (_root, args, { viewer }) =>
      userGrades(viewer, parseId(args.userId, 'User', 'userId'), optionalId(args.sectionId, 'Section', 'sectionId')),
  }),
}));
