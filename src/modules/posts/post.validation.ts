import { z } from 'zod';
import { clearable, createInput, requiredText, updateInput } from '../../core/validation';

const postFields = {
  title: requiredText(255),
  // HTML; line breaks need a <br>, as on the platform.
  body: clearable(z.string().max(1_000_000, 'must be at most 1,000,000 characters'), ''),
};

export const createPostSchema = createInput(postFields, ['title']);
export const updatePostSchema = updateInput(postFields);
