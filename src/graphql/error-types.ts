import { builder } from './builder';
import { ConflictError, type FieldIssue, NotFoundError, ValidationError } from '../core/errors';

export const ErrorInterface = builder.interfaceRef<Error>('Error').implement({
  description: 'An expected failure of a mutation, returned as data rather than as a GraphQL error.',
  fields: (t) => ({ message: t.exposeString('message', { description: 'What went wrong, in a sentence.' }) }),
});

export const FieldIssueType = builder.objectRef<FieldIssue>('FieldIssue').implement({
  description: 'One invalid input member.',
  fields: (t) => ({
    field: t.exposeString('field', { description: 'Path of the input member, such as `options.inviteType`.' }),
    message: t.exposeString('message', { description: 'Why the value was rejected.' }),
  }),
});

builder.objectType(ValidationError, {
  name: 'ValidationError',
  description: 'The input was rejected; nothing was written.',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    issues: t.field({ type: [FieldIssueType], description: 'Each invalid member.', resolve: (error) => error.issues }),
  }),
});

builder.objectType(NotFoundError, {
  name: 'NotFoundError',
  description: 'The object does not exist or is not visible to the viewer; nothing was written.',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    objectType: t.exposeString('objectType', { description: 'Kind of object that was looked for.' }),
    objectId: t.string({ description: 'Id that was looked for.', resolve: (error) => String(error.objectId) }),
  }),
});

builder.objectType(ConflictError, {
  name: 'ConflictError',
  description: 'The change conflicts with existing data; nothing was written.',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    field: t.exposeString('field', { nullable: true, description: 'The input member that conflicts, if one does.' }),
  }),
});
