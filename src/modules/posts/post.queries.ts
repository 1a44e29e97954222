import { db } from '../../db/database';
import { builder } from '../../graphql/builder';
import { pageArgs, pageOf, paged, offsetListBeside } from '../../graphql/paging';
import { realmObjectQuery } from '../../graphql/operations';
import { RealmInput, realmRef } from '../../graphql/realm';
import { assertReadable } from './post.service';
import {
  type RealmArgument,
  connectionOf,
  connectionOptions,
  hiddenUnless,
  keysetWindow,
} from '../../graphql/connections';
import type { RealmRef } from '../../auth/realms';

const BlogPostPage = pageOf('BlogPost', 'A page of blog posts.');

const postsOf = (realm: RealmRef) => ({ realmType: realm.type, realmId: realm.id });

realmObjectQuery('blogPost', 'BlogPost', {
  description: 'A post of a realm; null when it or its realm does not exist or is hidden from the viewer.',
  readable: assertReadable,
});

builder.queryFields((t) => ({
  blogPosts: t.withAuth({ authenticated: true }).field({
    ...offsetListBeside('blogPostsConnection'),
    type: BlogPostPage,
    nullable: true,
    description: 'The posts of a realm, oldest first; null when the realm does not exist or is hidden.',
    args: {
      realm: t.arg({
        type: RealmInput,
        required: true,
        description: 'The realm (district, school, user, section or group) whose posts to list.',
      }),
      ...pageArgs,
    },
    resolve: async (_root, args, { viewer }) => {
      const realm = realmRef(args.realm);
      if (!(await assertReadable(viewer, realm))) return null;
      const where = postsOf(realm);
      return paged(args, {
        findMany: (query) => db().blogPost.findMany({ ...query, where }),
        count: () => db().blogPost.count({ where }),
      });
    },
  }),
  blogPostsConnection: t.withAuth({ authenticated: true }).prismaConnection(
    {
      type: 'BlogPost',
      ...connectionOptions,
      ...hiddenUnless((args: { realm: RealmArgument }, { viewer }) => assertReadable(viewer, realmRef(args.realm))),
      description:
        'The posts `blogPosts` lists, as a Relay connection in the same order; null when the realm does not exist or is hidden.',
      args: {
        realm: t.arg({
          type: RealmInput,
          required: true,
          description: 'The realm (district, school, user, section or group) whose posts to list.',
        }),
      },
      resolve: (query, _root, args) => db().blogPost.findMany(keysetWindow(query, postsOf(realmRef(args.realm)))),
      totalCount: (_root, args) => db().blogPost.count({ where: postsOf(realmRef(args.realm)) }),
    },
    connectionOf('BlogPost'),
  ),
}));
