import type { GlobalIdType } from '../../core/global-id';
import { z } from 'zod';
import { clearable, createInput, htmlText, nodeId, requiredText, updateInput } from '../../core/validation';

/** A UTF-16 surrogate without its pair. */
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const ids = (type: GlobalIdType) => z.array(nodeId(type).transform(Number)).max(1_000, 'must list at most 1,000 ids');

const pageFields = {
  title: requiredText(255).describe('Title.'),
  body: clearable(htmlText('Page.body'), '').describe(
    'Content, as HTML, sanitized on write (scripts, event handlers and javascript: links are removed).',
  ),
  published: z.boolean().describe('Whether members see the page (default true); administrators always do.'),
  inline: z.boolean().describe('Whether the page shows inline in the list of materials (default false).'),
  parentId: clearable(nodeId('Page').transform(Number), null).describe(
    'The page of the same realm to nest this one under; null for the top.',
  ),
  assigneeIds: ids('Enrollment').describe(
    'Enrollments of the section to assign the page to; an empty list removes them all.',
  ),
  gradingGroupIds: ids('GradingGroup').describe(
    'Grading groups of the section to assign the page to; an empty list removes them all.',
  ),
  // The database's text arrays take well-formed Unicode only: a lone surrogate would fail the whole write.
  tags: z
    .array(requiredText(100).refine((tag) => !loneSurrogate.test(tag), 'must be well-formed Unicode text'))
    .max(50, 'must list at most 50 tags')
    .describe('Tags (topics, standards), in the order given; a list given replaces the old one.'),
};

export const createPageSchema = createInput(pageFields, ['title']);
export const updatePageSchema = updateInput(pageFields);
