import { builder } from '../../graphql/builder';
import { exposeColumns } from '../../graphql/columns';

// The type a category's `defaultGradingScale` resolves to. Scales themselves (levels, their queries and mutations)
// belong to the gradebook module; this declares only what a category shows of one.
builder.prismaObject('GradingScale', {
  fields: (t) => ({
    ...exposeColumns(t, 'GradingScale', ['id', 'title']),
  }),
});
