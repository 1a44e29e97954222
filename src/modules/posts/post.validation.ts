import { clearable, createInput, htmlText, requiredText, updateInput } from '../../core/validation';

const postFields = {
  title: requiredText(255),
  // Line breaks need a <br>, as on the platform.
  body: clearable(htmlText('BlogPost.body'), ''),
};

export const createPostSchema = createInput(postFields, ['title']);
export const updatePostSchema = updateInput(postFields);
