import { can } from '../../auth/policy';
import { builder } from '../../graphql/builder';
import { htmlFields } from '../../core/html';
import { exposeColumns, exposeDatabaseId, exposeLongText, nodeId } from '../../graphql/columns';
import { RealmTypeEnum } from '../../graphql/realm';
import { realmField, userReference } from '../../graphql/references';
import { UserType } from '../users/user.type';
import { audienceSelection, isShownTo, pagePolicy } from './page.policy';

const PageType = builder.prismaNode('Page', {
  id: nodeId,
  fields: (t) => ({
    ...exposeLongText(t, 'Page', 'body', htmlFields['Page.body'].maxLength),
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'Page', [
      'title',
      'published',
      'inline',
      'parentId',
      'realmId',
      'authorId',
      'createdAt',
      'updatedAt',
    ]),
    tags: t.exposeStringList('tags'),
    realmType: t.expose('realmType', { type: RealmTypeEnum }),
    realm: t.field(realmField),
    author: t.field({
      type: UserType,
      nullable: true,
      description: 'The user who wrote the page (`authorId`); null when they are gone or hidden from the viewer.',
      select: { authorId: true },
      resolve: (page, _args, context) => userReference(page.authorId, context),
    }),
    childIds: t.idList({
      description: 'The pages nested under this one that the viewer sees, in the order they were made.',
      select: (_args, { viewer }) => ({
        realmType: true,
        realmId: true,
        children: { orderBy: { id: 'asc' }, select: { id: true, ...audienceSelection(viewer!.id) } },
      }),
      resolve: async (page, _args, { viewer }) => {
        const administers = await can(viewer!, pagePolicy, 'write', { type: page.realmType, id: page.realmId });
        return page.children.filter((child) => isShownTo(child, administers)).map((child) => child.id);
      },
    }),
    assigneeIds: t.idList({
      description: 'The enrollments the page is individually assigned to; empty when it is not.',
      select: { assignees: { orderBy: { enrollmentId: 'asc' }, select: { enrollmentId: true } } },
      resolve: (page) => page.assignees.map((assignee) => assignee.enrollmentId),
    }),
    gradingGroupIds: t.idList({
      description: 'The grading groups the page is assigned to; empty when it is not.',
      select: { gradingGroups: { orderBy: { gradingGroupId: 'asc' }, select: { gradingGroupId: true } } },
      resolve: (page) => page.gradingGroups.map((group) => group.gradingGroupId),
    }),
  }),
});

// Declared once the type exists: the parent is a Page itself.
builder.prismaObjectField(PageType, 'parent', (t) =>
  t.field({
    type: PageType,
    nullable: true,
    description:
      'The page this one is nested under (`parentId`); null at the top, and when the viewer may not see the parent.',
    select: (_args, { viewer }, nestedSelection) => ({
      realmType: true,
      realmId: true,
      parent: nestedSelection({ select: audienceSelection(viewer!.id) }),
    }),
    resolve: async (page, _args, { viewer }) => {
      if (!page.parent) return null;
      const administers = await can(viewer!, pagePolicy, 'write', { type: page.realmType, id: page.realmId });
      // The row holds what the document selects beneath `parent` too (nestedSelection), which its type leaves out.
      return isShownTo(page.parent, administers) ? (page.parent as never) : null;
    },
  }),
);
