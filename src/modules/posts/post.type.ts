import { db } from '../../db/database';
import { canReadContents, isStorableId } from '../../auth/permissions';
import { builder } from '../../graphql/builder';
import { findIfVisible } from '../../graphql/visible';
import { pageArgs, pageOf, paged } from '../../graphql/paging';
import { RealmInput, RealmTypeEnum, parseId, realmRef } from '../../graphql/realm';

export const BlogPostType = builder.prismaObject('BlogPost', {
  description: 'A blog post owned by a district, school, user, course section or group.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Post id.' }),
    title: t.exposeString('title', { description: 'Title.' }),
    body: t.exposeString('body', { description: 'Body, as HTML.' }),
    realmType: t.expose('realmType', { type: RealmTypeEnum, description: 'Kind of owner.' }),
    realmId: t.exposeID('realmId', { description: 'Id of the owner.' }),
    authorId: t.exposeID('authorId', { nullable: true, description: 'User who wrote the post.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the post was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the post last changed.' }),
  }),
});

const BlogPostPage = pageOf('BlogPost', 'BlogPost', 'A page of blog posts.');

builder.queryFields((t) => ({
  blogPost: t.withAuth({ authenticated: true }).prismaField({
    type: 'BlogPost',
    nullable: true,
    description: 'A post of a realm; null when it or its realm does not exist or is hidden from the viewer.',
    args: { realm: t.arg({ type: RealmInput, required: true }), id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, { viewer }) => {
      const realm = realmRef(args.realm);
      const id = parseId(args.id);
      const visible = canReadContents(viewer, realm).then((readable) => readable && isStorableId(id));
      return findIfVisible(query, visible, (selection) =>
        db().blogPost.findFirst({ ...selection, where: { id, realmType: realm.type, realmId: realm.id } }),
      );
    },
  }),
  blogPosts: t.withAuth({ authenticated: true }).field({
    type: BlogPostPage,
    nullable: true,
    description: 'The posts of a realm, oldest first; null when the realm does not exist or is hidden.',
    args: { realm: t.arg({ type: RealmInput, required: true }), ...pageArgs },
    resolve: async (_root, args, { viewer }) => {
      const realm = realmRef(args.realm);
      if (!(await canReadContents(viewer, realm))) return null;
      const where = { realmType: realm.type, realmId: realm.id };
      return paged(
        args,
        (query, window) => db().blogPost.findMany({ ...query, where, orderBy: { id: 'asc' }, ...window }),
        () => db().blogPost.count({ where }),
      );
    },
  }),
}));
