import { builder } from '../../graphql/builder';
import { DeletedType } from '../../graphql/deleted';
import { RealmInput, parseId, realmRef } from '../../graphql/realm';
import { createPost, deletePost, updatePost } from './post.service';

const CreateBlogPostInput = builder.inputType('CreateBlogPostInput', {
  description: 'A new blog post.',
  fields: (t) => ({
    title: t.string({ required: true, description: 'Title.' }),
    body: t.string({ description: 'Body, as HTML; line breaks need a <br>.' }),
  }),
});

const UpdateBlogPostInput = builder.inputType('UpdateBlogPostInput', {
  description: 'Changes to a blog post; members left out keep their values.',
  fields: (t) => ({
    title: t.string({ description: 'Title.' }),
    body: t.string({ description: 'Body, as HTML.' }),
  }),
});

builder.mutationFields((t) => ({
  createBlogPost: t.withAuth({ authenticated: true }).prismaField({
    type: 'BlogPost',
    description: 'Creates a post in a realm the viewer administers.',
    errors: {},
    args: { realm: t.arg({ type: RealmInput, required: true }), input: t.arg({ type: CreateBlogPostInput, required: true }) },
    resolve: (query, _root, args, { viewer }) => createPost(viewer, realmRef(args.realm), args.input, query),
  }),
  updateBlogPost: t.withAuth({ authenticated: true }).prismaField({
    type: 'BlogPost',
    description: 'Changes a post of a realm the viewer administers.',
    errors: {},
    args: {
      realm: t.arg({ type: RealmInput, required: true }),
      id: t.arg.id({ required: true }),
      input: t.arg({ type: UpdateBlogPostInput, required: true }),
    },
    resolve: (query, _root, args, { viewer }) =>
      updatePost(viewer, realmRef(args.realm), parseId(args.id), args.input, query),
  }),
  deleteBlogPost: t.withAuth({ authenticated: true }).field({
    type: DeletedType,
    description: 'Deletes a post of a realm the viewer administers.',
    errors: {},
    args: { realm: t.arg({ type: RealmInput, required: true }), id: t.arg.id({ required: true }) },
    resolve: (_root, args, { viewer }) => deletePost(viewer, realmRef(args.realm), parseId(args.id)),
  }),
}));
