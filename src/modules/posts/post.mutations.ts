import { objectIdInput, objectIdMember, withMembers } from '../../graphql/inputs';
import { payloadMutation } from '../../graphql/payloads';
import { RealmInput, parseId, realmInputSchema, realmRef } from '../../graphql/realm';
import { createPost, deletePost, updatePost } from './post.service';
import { createPostSchema, updatePostSchema } from './post.validation';

const realm = realmInputSchema.describe('The realm (district, school, user, section or group) the post belongs to.');
const types = { realm: RealmInput };

payloadMutation('createBlogPost', {
  description: 'Creates a post in a realm the viewer may post in.',
  input: withMembers(createPostSchema, { realm }),
  inputDescription: 'A new blog post, and the realm it is written in.',
  types,
  payload: { blogPost: { model: 'BlogPost', description: 'The new post.' } },
  resolve: async (viewer, { realm, ...post }, select) => ({
    blogPost: await createPost(viewer, realmRef(realm), post, select('blogPost')),
  }),
});
payloadMutation('updateBlogPost', {
  description: "Changes a post (the realm's administrators, or in a group its author while members may post).",
  input: withMembers(updatePostSchema, { id: objectIdMember('The blog post to change.'), realm }),
  inputDescription: 'The blog post, its realm, and changes to it; members left out keep their values.',
  types,
  payload: { blogPost: { model: 'BlogPost', description: 'The post as changed.' } },
  resolve: async (viewer, { id, realm, ...changes }, select) => ({
    blogPost: await updatePost(viewer, realmRef(realm), parseId(id, 'BlogPost'), changes, select('blogPost')),
  }),
});
payloadMutation('deleteBlogPost', {
  description: "Deletes a post (the realm's administrators, or in a group its author while members may post).",
  input: withMembers(objectIdInput('The blog post to delete.'), { realm }),
  inputDescription: 'The blog post to delete, and its realm.',
  types,
  payload: { deletedBlogPostId: { deleted: 'BlogPost', description: 'Global id of the deleted post.' } },
  resolve: async (viewer, { id, realm }) => ({
    deletedBlogPostId: (await deletePost(viewer, realmRef(realm), parseId(id, 'BlogPost'))).id,
  }),
});
