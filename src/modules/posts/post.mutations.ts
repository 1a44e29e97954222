import { NotFoundError } from '../../core/errors';
import { deleteMutation, objectMutation, ownerRealm, required } from '../../graphql/operations';
import { changesInput, inputFromSchema } from '../../graphql/inputs';
import { parseId, realmRef } from '../../graphql/realm';
import { createPost, deletePost, updatePost } from './post.service';
import { createPostSchema, updatePostSchema } from './post.validation';

const CreateBlogPostInput = inputFromSchema('CreateBlogPostInput', createPostSchema, 'A new blog post.');
const UpdateBlogPostInput = changesInput('UpdateBlogPostInput', updatePostSchema, 'a blog post');

objectMutation('createBlogPost', {
  type: 'BlogPost',
  description: 'Creates a post in a realm the viewer may post in.',
  args: (arg) => ({
    realm: arg(ownerRealm('post')),
    input: arg(required(CreateBlogPostInput, 'The new blog post.')),
  }),
  resolve: (viewer, args, query) => createPost(viewer, realmRef(args.realm), args.input, query),
});
objectMutation('updateBlogPost', {
  type: 'BlogPost',
  description: "Changes a post (the realm's administrators, or in a group its author while members may post).",
  args: (arg) => ({
    realm: arg(ownerRealm('post')),
    id: arg.id({ required: true, description: 'The blog post to change.' }),
    input: arg(required(UpdateBlogPostInput, 'What to change; members left out keep their values.')),
  }),
  resolve: (viewer, args, query) =>
    updatePost(viewer, realmRef(args.realm), parseId(args.id, 'BlogPost'), args.input, query),
});
deleteMutation('deleteBlogPost', {
  description: "Deletes a post (the realm's administrators, or in a group its author while members may post).",
  errors: [NotFoundError],
  args: (arg) => ({
    realm: arg(ownerRealm('post')),
    id: arg.id({ required: true, description: 'The blog post to delete.' }),
  }),
  resolve: (viewer, args) => deletePost(viewer, realmRef(args.realm), parseId(args.id, 'BlogPost')),
});
