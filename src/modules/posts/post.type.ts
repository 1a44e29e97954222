import { builder } from '../../graphql/builder';
import { RealmTypeEnum } from '../../graphql/realm';

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
