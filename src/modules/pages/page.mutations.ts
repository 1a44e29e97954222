import { NotFoundError } from '../../core/errors';
import { deleteMutation, objectMutation, ownerRealm, required } from '../../graphql/operations';
import { changesInput, inputFromSchema } from '../../graphql/inputs';
import { parseId, realmRef } from '../../graphql/realm';
import { createPage, deletePage, updatePage } from './page.service';
import { createPageSchema, updatePageSchema } from './page.validation';

const CreatePageInput = inputFromSchema('CreatePageInput', createPageSchema, 'A new page.');
const UpdatePageInput = changesInput('UpdatePageInput', updatePageSchema, 'a page');

objectMutation('createPage', {
  type: 'Page',
  description: 'Writes a page in a course section or group (its administrators).',
  args: (arg) => ({
    realm: arg(ownerRealm('page')),
    input: arg(required(CreatePageInput, 'The new page.')),
  }),
  resolve: (viewer, args, query) => createPage(viewer, realmRef(args.realm), args.input, query),
});
objectMutation('updatePage', {
  type: 'Page',
  description: 'Changes a page.',
  args: (arg) => ({
    realm: arg(ownerRealm('page')),
    id: arg.id({ required: true, description: 'The page to change.' }),
    input: arg(required(UpdatePageInput, 'What to change; members left out keep their values.')),
  }),
  resolve: (viewer, args, query) =>
    updatePage(viewer, realmRef(args.realm), parseId(args.id, 'Page'), args.input, query),
});
deleteMutation('deletePage', {
  description: 'Deletes a page; pages nested under it move up to the top.',
  errors: [NotFoundError],
  args: (arg) => ({
    realm: arg(ownerRealm('page')),
    id: arg.id({ required: true, description: 'The page to delete.' }),
  }),
  resolve: (viewer, args) => deletePage(viewer, realmRef(args.realm), parseId(args.id, 'Page')),
});
