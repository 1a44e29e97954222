import { builder } from '../../graphql/builder';
import { exposeColumns } from '../../graphql/columns';
import { RealmTypeEnum } from '../../graphql/realm';

export const BlogPostType = builder.prismaObject('BlogPost', {
  fields: (t) => ({
    ...exposeColumns(t, 'BlogPost', ['id', 'title', 'body', 'realmId', 'authorId', 'createdAt', 'updatedAt']),
    realmType: t.expose('realmType', { type: RealmTypeEnum }),
  }),
});
