import { db } from '../../db/database';
import { builder } from '../../graphql/builder';
import { objectQuery } from '../../graphql/operations';
import { userFacts, userFactsSelection, userPolicy } from './user.policy';

objectQuery('user', 'User', userPolicy, {
  type: 'USER',
  selection: userFactsSelection,
  facts: userFacts,
});

builder.queryFields((t) => ({
  viewer: t.withAuth({ authenticated: true }).prismaField({
    type: 'User',
    description: 'The authenticated user.',
    resolve: (query, _root, _args, { viewer }) => db().user.findUniqueOrThrow({ ...query, where: { id: viewer.id } }),
  }),
}));
