import { clearable, createInput, htmlText, requiredText, updateInput } from '../../core/validation';

const postFields = {
  title: requiredText(255).describe('Title.'),
  // Line breaks need a <br>, as on the platform.
  body: clearable(htmlText('BlogPost.body'), '').describe(
    'Body, as HTML, sanitized on write (scripts, event handlers and javascript: links are removed); line breaks need a <br>.',
  ),
};

export const createPostSchema = createInput(postFields, ['title']);
export const updatePostSchema = updateInput(postFields);
