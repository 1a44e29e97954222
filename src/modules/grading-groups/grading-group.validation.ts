import { z } from 'zod';
import { createInput, nodeId, requiredText, updateInput } from '../../core/validation';

const gradingGroupFields = {
  title: requiredText(255),
  enrollmentIds: z.array(nodeId('Enrollment').transform(Number)).max(1_000, 'must list at most 1,000 enrollments'),
};

export const createGradingGroupSchema = createInput(gradingGroupFields, ['title']);
export const updateGradingGroupSchema = updateInput(gradingGroupFields);
