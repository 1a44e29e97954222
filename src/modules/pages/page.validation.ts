import type { GlobalIdType } from '../../core/global-id';
import { z } from 'zod';
import { clearable, createInput, htmlText, nodeId, requiredText, updateInput } from '../../core/validation';

/** A UTF-16 surrogate without its pair. */
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const ids = (type: GlobalIdType) => z.array(nodeId(type).transform(Number)).max(1_000, 'must list at most 1,000 ids');

const pageFields = {
  title: requiredText(255),
  body: clearable(htmlText('Page.body'), ''),
  published: z.boolean(),
  inline: z.boolean(),
  parentId: clearable(nodeId('Page').transform(Number), null),
  assigneeIds: ids('Enrollment'),
  gradingGroupIds: ids('GradingGroup'),
  // The database's text arrays take well-formed Unicode only: a lone surrogate would fail the whole write.
  tags: z.array(requiredText(100).refine((tag) => !loneSurrogate.test(tag), 'must be well-formed Unicode text')).max(50, 'must list at most 50 tags'),
};

export const createPageSchema = createInput(pageFields, ['title']);
export const updatePageSchema = updateInput(pageFields);
