import { objectIdInput, objectIdMember, withMembers } from '../../graphql/inputs';
import { payloadMutation } from '../../graphql/payloads';
import { RealmInput, parseId, realmInputSchema, realmRef } from '../../graphql/realm';
import { createPage, deletePage, updatePage } from './page.service';
import { createPageSchema, updatePageSchema } from './page.validation';

const realm = realmInputSchema.describe('The realm (a course section or group) the page belongs to.');
const types = { realm: RealmInput };

payloadMutation('createPage', {
  description: 'Writes a page in a course section or group (its administrators).',
  input: withMembers(createPageSchema, { realm }),
  inputDescription: 'A new page, and the realm it is written in.',
  types,
  payload: { page: { model: 'Page', description: 'The new page.' } },
  resolve: async (viewer, { realm, ...page }, select) => ({
    page: await createPage(viewer, realmRef(realm), page, select('page')),
  }),
});
payloadMutation('updatePage', {
  description: 'Changes a page.',
  input: withMembers(updatePageSchema, { id: objectIdMember('The page to change.'), realm }),
  inputDescription: 'The page, its realm, and changes to it; members left out keep their values.',
  types,
  payload: { page: { model: 'Page', description: 'The page as changed.' } },
  resolve: async (viewer, { id, realm, ...changes }, select) => ({
    page: await updatePage(viewer, realmRef(realm), parseId(id, 'Page'), changes, select('page')),
  }),
});
payloadMutation('deletePage', {
  description: 'Deletes a page; pages nested under it move up to the top.',
  input: withMembers(objectIdInput('The page to delete.'), { realm }),
  inputDescription: 'The page to delete, and its realm.',
  types,
  payload: { deletedPageId: { deleted: 'Page', description: 'Global id of the deleted page.' } },
  resolve: async (viewer, { id, realm }) => ({
    deletedPageId: (await deletePage(viewer, realmRef(realm), parseId(id, 'Page'))).id,
  }),
});
