import { builder } from '../../graphql/builder';
import { NotFoundError, ValidationError } from '../../core/errors';
import { deleteMutation, objectMutation, required } from '../../graphql/operations';
import { RealmInput, parseId, realmRef } from '../../graphql/realm';
import { createPage, deletePage, updatePage } from './page.service';

const pageInput = (name: string, description: string, create: boolean) =>
  builder.inputType(name, {
    description,
    fields: (t) => ({
      title: t.string({ required: create, description: 'Title.' }),
      body: t.string({ description: 'Content, as HTML, sanitized on write (scripts, event handlers and javascript: links are removed).' }),
      published: t.boolean({ description: 'Whether members see the page (default true); administrators always do.' }),
      inline: t.boolean({ description: 'Whether the page shows inline in the list of materials (default false).' }),
      parentId: t.id({ description: 'The page of the same realm to nest this one under; null for the top.' }),
      assigneeIds: t.idList({ description: 'Enrollments of the section to assign the page to; an empty list removes them all.' }),
      gradingGroupIds: t.idList({ description: 'Grading groups of the section to assign the page to; an empty list removes them all.' }),
      tags: t.stringList({ description: 'Tags (topics, standards), in the order given; a list given replaces the old one.' }),
    }),
  });
const CreatePageInput = pageInput('CreatePageInput', 'A new page.', true);
const UpdatePageInput = pageInput('UpdatePageInput', 'Changes to a page; members left out keep their values.', false);

objectMutation('createPage', {
  type: 'Page',
  description: 'Writes a page in a course section or group (its administrators).',
  errors: [ValidationError, NotFoundError],
  args: (arg) => ({ realm: arg(required(RealmInput, 'The realm (district, school, user, section or group) the page belongs to.')), input: arg(required(CreatePageInput, 'The new page.')) }),
  resolve: (viewer, args, query) => createPage(viewer, realmRef(args.realm), args.input, query),
});
objectMutation('updatePage', {
  type: 'Page',
  description: 'Changes a page.',
  errors: [ValidationError, NotFoundError],
  args: (arg) => ({ realm: arg(required(RealmInput, 'The realm (district, school, user, section or group) the page belongs to.')), id: arg.id({ required: true, description: 'The page to change.' }), input: arg(required(UpdatePageInput, 'What to change; members left out keep their values.')) }),
  resolve: (viewer, args, query) => updatePage(viewer, realmRef(args.realm), parseId(args.id, 'Page'), args.input, query),
});
deleteMutation('deletePage', {
  description: 'Deletes a page; pages nested under it move up to the top.',
  errors: [NotFoundError],
  args: (arg) => ({ realm: arg(required(RealmInput, 'The realm (district, school, user, section or group) the page belongs to.')), id: arg.id({ required: true, description: 'The page to delete.' }) }),
  resolve: (viewer, args) => deletePage(viewer, realmRef(args.realm), parseId(args.id, 'Page')),
});
