import { z } from 'zod';
import { createInput, nodeId, requiredText, updateInput } from '../../core/validation';

const gradingGroupFields = {
  title: requiredText(255).describe('Title.'),
  enrollmentIds: z
    .array(nodeId('Enrollment').transform(Number))
    .max(1_000, 'must list at most 1,000 enrollments')
    .describe('Enrollments of the section in the group; a new list replaces the old one.'),
};

export const createGradingGroupSchema = createInput(gradingGroupFields, ['title']);
export const updateGradingGroupSchema = updateInput(gradingGroupFields);
