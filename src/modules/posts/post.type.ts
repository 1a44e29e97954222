import { builder } from '../../graphql/builder';
import { htmlFields } from '../../core/html';
import { exposeColumns, exposeDatabaseId, exposeLongText, nodeId } from '../../graphql/columns';
import { RealmTypeEnum } from '../../graphql/realm';
import { realmField, userReference } from '../../graphql/references';
import { UserType } from '../users/user.type';

export const BlogPostType = builder.prismaNode('BlogPost', {
  id: nodeId,
  fields: (t) => ({
    ...exposeLongText(t, 'BlogPost', 'body', htmlFields['BlogPost.body'].maxLength),
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'BlogPost', ['title', 'realmId', 'authorId', 'createdAt', 'updatedAt']),
    realmType: t.expose('realmType', { type: RealmTypeEnum }),
    realm: t.field(realmField),
    author: t.field({
      type: UserType,
      nullable: true,
      description: 'The user who wrote the post (`authorId`); null when they are gone or hidden from the viewer.',
      select: { authorId: true },
      resolve: (post, _args, context) => userReference(post.authorId, context),
    }),
  }),
});
