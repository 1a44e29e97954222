import { bodyMaxLength, clearable, createInput, requiredText, storableText, updateInput } from '../../core/validation';

const postFields = {
  title: requiredText(255),
  // HTML; line breaks need a <br>, as on the platform.
  body: clearable(storableText(bodyMaxLength), ''),
};

export const createPostSchema = createInput(postFields, ['title']);
export const updatePostSchema = updateInput(postFields);
