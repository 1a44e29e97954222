import { builder } from '../../graphql/builder';
import { exposeColumns, exposeOptionalText } from '../../graphql/columns';
import { RealmTypeEnum } from '../../graphql/realm';

export const BlogPostType = builder.prismaObject('BlogPost', {
  fields: (t) => ({
    ...exposeOptionalText(t, 'BlogPost', ['body']),
    ...exposeColumns(t, 'BlogPost', ['id', 'title', 'realmId', 'authorId', 'createdAt', 'updatedAt']),
    realmType: t.expose('realmType', { type: RealmTypeEnum }),
  }),
});
