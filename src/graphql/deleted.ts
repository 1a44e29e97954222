import { builder } from './builder';

/** What a delete mutation returns: the id of the object that no longer exists. */
export const DeletedType = builder.objectRef<{ id: number }>('Deleted').implement({
  description: 'The object was deleted; deletes are irreversible.',
  fields: (t) => ({ id: t.exposeID('id', { description: 'Id of the deleted object.' }) }),
});
