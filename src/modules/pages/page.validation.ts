import { z } from 'zod';
import { clearable, createInput, numericId, requiredText, storableText, updateInput } from '../../core/validation';

const ids = z.array(numericId.transform(Number)).max(1_000, 'must list at most 1,000 ids');

const pageFields = {
  title: requiredText(255),
  // HTML, sanitized before it is stored.
  body: clearable(storableText(1_000_000), ''),
  published: z.boolean(),
  inline: z.boolean(),
  parentId: clearable(numericId.transform(Number), null),
  assigneeIds: ids,
  gradingGroupIds: ids,
};

export const createPageSchema = createInput(pageFields, ['title']);
export const updatePageSchema = updateInput(pageFields);
