import type { EnumRef, GenericFieldRef } from '@pothos/core';
import { builder } from './builder';
import type { FieldIssue } from '../core/errors';

export const FieldIssueType = builder.objectRef<FieldIssue>('FieldIssue').implement({
  description: 'One invalid input member.',
  fields: (t) => ({
    field: t.exposeString('field', { description: 'Path of the input member, such as `options.inviteType`.' }),
    message: t.exposeString('message', { description: 'Why the value was rejected.' }),
  }),
});

/** What a mutation reports in `userErrors`: the failure's code, message and the input member it names. */
export interface UserErrorShape {
  field: string[] | null;
  code: string | number;
  message: string;
}

export const UserErrorCodeEnum = builder.enumType('UserErrorCode', {
  description: 'Why a mutation wrote nothing: stable values clients branch on (new ones may be added).',
  values: {
    INVALID: { description: 'The value is not acceptable (see the message).' },
    REQUIRED: { description: 'The member is required and was left out or empty.' },
    TOO_LONG: { description: 'The text or list is longer than allowed.' },
    TOO_SHORT: { description: 'The text or list is shorter than allowed.' },
    TOO_LARGE: { description: 'The number is larger than allowed.' },
    TOO_SMALL: { description: 'The number is smaller than allowed.' },
    INVALID_FORMAT: { description: 'The text is not in the required format (an email, a date, an id).' },
    NOT_FOUND: { description: 'An object the input names does not exist or is not visible to the viewer.' },
    CONFLICT: { description: 'The change conflicts with existing data, such as a name already taken.' },
    WRONG_PASSWORD: { description: "The current password given is not the viewer's." },
    WEAK_PASSWORD: { description: "The new password is too short, too simple, or holds the user's own names." },
    NO_PASSWORD: { description: "The user has no password yet: an administrator's sign-in link sets the first." },
  } as const,
});

export const UserErrorType = builder.objectRef<UserErrorShape>('UserError').implement({
  description:
    'An expected failure of a mutation, returned in its payload: nothing was written. Failures that are not about the input (permission, authentication, limits) are GraphQL errors instead, with `extensions.code`.',
  fields: (t) => ({
    field: t.exposeStringList('field', {
      nullable: true,
      description:
        'Path of the input member at fault, starting with the argument (`["input", "options", "inviteType"]`); null when the failure is not about one member.',
    }),
    code: t.field({
      type: UserErrorCodeEnum,
      description: 'Stable code of the failure.',
      resolve: (error) => error.code as never,
    }),
    message: t.exposeString('message', { description: 'What went wrong, in a sentence for people.' }),
  }),
});

type BuilderTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer Types> ? Types : never;

/** What every item result of a bulk write reports, whatever the item wrote. */
interface ItemOutcomeShape {
  code: string | number;
  message: string | null;
  issues: FieldIssue[];
}

/**
 * The type of one item's result in a bulk write: `code` (an enum whose values name /v1's `response_code`), `message`,
 * `issues`, and the fields `written` adds for what the item wrote.
 */
export function itemResultType<Result extends ItemOutcomeShape>(
  name: string,
  options: {
    description: string;
    codes: EnumRef<BuilderTypes, string | number>;
    written: (
      t: PothosSchemaTypes.ObjectFieldBuilder<BuilderTypes, Result>,
    ) => Record<string, GenericFieldRef<unknown>>;
  },
) {
  return builder.objectRef<Result>(name).implement({
    description: options.description,
    fields: (t) => ({
      code: t.field({ type: options.codes, description: 'What became of the item.', resolve: (result) => result.code }),
      message: t.field({
        type: 'String',
        nullable: true,
        description: 'Why the item was not written.',
        resolve: (result) => result.message,
      }),
      issues: t.field({
        type: [FieldIssueType],
        description: 'Each invalid member of an item refused with 400.',
        resolve: (result) => result.issues,
      }),
      ...options.written(t),
    }),
  });
}
