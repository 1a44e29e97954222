import { z } from 'zod';
import { type ResultOf, graphql } from '../../graphql/typed-document';
import { type LinkBuilder, listRoute, selfLink, viewRoute, wireBit } from '../../rest/route';

const RestAssignment = graphql(`
  fragment RestAssignment on Assignment @_unmask {
    id: databaseId sectionId title type maxPoints isFinal categoryId scaleId periodId
  }
`);

/**
 * A graded item as the platform's assignment view names its gradebook members: references are ids, 0 for none;
 * `grading_period` is the period's id as the grades list names it (`p<id>`), or `other`.
 */
export const assignmentWire = z
  .object({
    id: z.int(),
    title: z.string(),
    type: z.enum(['assignment', 'discussion']),
    max_points: z.number(),
    grading_category: z.int(),
    grading_scale: z.int(),
    grading_period: z.string(),
    is_final: wireBit,
    links: selfLink,
  })
  .meta({ id: 'Assignment', description: 'A graded item of a section, as grades reference it (`location`).' });

/** The grades list's name for a period: `p<id>`, or `other` for items filed under no period. */
export const wirePeriodId = (periodId: string | null) => (periodId ? `p${periodId}` : 'other');

function assignmentToWire(item: ResultOf<typeof RestAssignment>, link: LinkBuilder): z.input<typeof assignmentWire> {
  return {
    id: Number(item.id),
    title: item.title,
    type: item.type === 'DISCUSSION' ? 'discussion' : 'assignment',
    max_points: item.maxPoints,
    grading_category: Number(item.categoryId ?? 0),
    grading_scale: Number(item.scaleId ?? 0),
    grading_period: wirePeriodId(item.periodId),
    is_final: item.isFinal ? 1 : 0,
    links: { self: link(`/sections/${item.sectionId}/assignments/${item.id}`) },
  };
}

export const gradebookRoutes = [
  listRoute({
    path: '/sections/{section_id}/assignments',
    summary: 'List the graded items of a section (those who read its gradebook)',
    item: 'assignment',
    wire: assignmentWire,
    document: graphql(
      `query($sectionId: ID!, $start: Int!, $limit: Int!) {
        assignments(sectionId: $sectionId, start: $start, limit: $limit) { total items { ...RestAssignment } }
      }`,
      [RestAssignment],
    ),
    variables: ({ params }) => ({ sectionId: params.section_id! }),
    shape: assignmentToWire,
  }),
  viewRoute({
    path: '/sections/{section_id}/assignments/{id}',
    summary: 'View a graded item of a section',
    wire: assignmentWire,
    document: graphql(
      `query($sectionId: ID!, $id: ID!) { assignment(sectionId: $sectionId, id: $id) { ...RestAssignment } }`,
      [RestAssignment],
    ),
    variables: ({ params }) => ({ sectionId: params.section_id!, id: params.id! }),
    shape: assignmentToWire,
  }),
];
