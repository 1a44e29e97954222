import { GraphQLError } from 'graphql';

/** Why a member was refused, as a stable code clients can branch on (`UserError.code` in GraphQL). */
export type IssueCode =
  | 'INVALID'
  | 'REQUIRED'
  | 'TOO_LONG'
  | 'TOO_SHORT'
  | 'TOO_LARGE'
  | 'TOO_SMALL'
  | 'INVALID_FORMAT'
  /** changePassword: the current password given is not the user's. */
  | 'WRONG_PASSWORD'
  /** A new password too short, too simple, or made of the user's own names (docs/sign-in.md#passwords). */
  | 'WEAK_PASSWORD'
  /** changePassword: the user has no password yet (an administrator's sign-in link sets the first). */
  | 'NO_PASSWORD';

/**
 * One invalid input field. `field` is the path of the input member in GraphQL names, such as `options.inviteType`;
 * `code` is INVALID unless the check that refused it says more.
 */
export interface FieldIssue {
  field: string;
  message: string;
  code?: IssueCode;
}

/** Input that is well-typed but not acceptable (missing title, value out of range). An expected outcome: typed. */
export class ValidationError extends Error {
  constructor(readonly issues: FieldIssue[]) {
    super(issues.map((issue) => (issue.field ? `${issue.field}: ${issue.message}` : issue.message)).join('; '));
    this.name = 'ValidationError';
  }
}

/** The object named does not exist, or the viewer may not know it exists. */
export class NotFoundError extends Error {
  constructor(
    readonly objectType: string,
    readonly objectId: string | number,
  ) {
    super(`${objectType} ${objectId} was not found`);
    this.name = 'NotFoundError';
  }
}

/** The change conflicts with existing data, such as a username already taken in the school. */
export class ConflictError extends Error {
  constructor(
    message: string,
    readonly field: string | null = null,
  ) {
    super(message);
    this.name = 'ConflictError';
  }
}

/** Protocol-level failures carry their HTTP status, which both yoga and the REST facade answer with. */
export function httpError(status: number, code: string, message: string, headers?: Record<string, string>) {
  return new GraphQLError(message, { extensions: { code, http: { status, ...(headers ? { headers } : {}) } } });
}

/** A `Retry-After` header for a wait of `ms` milliseconds, in whole seconds and at least one. */
export const retryAfter = (ms: number) => ({ 'retry-after': String(Math.max(1, Math.ceil(ms / 1000))) });

/**
 * A query argument that cannot be used, such as a date text nobody can read (mutations answer with a ValidationError
 * instead). It names the argument so that the REST facade can name the query parameter the client sent.
 */
export const invalidArgument = (argument: string, reason: string) =>
  new GraphQLError(`${argument}: ${reason}`, {
    extensions: { code: 'BAD_USER_INPUT', argument, reason, http: { status: 400 } },
  });

export const forbidden = (message = 'You do not have permission to do this') => httpError(403, 'FORBIDDEN', message);
export const unauthenticated = (
  message = 'Authentication required: sign the request with OAuth 1.0a or send a bearer token',
) => httpError(401, 'UNAUTHENTICATED', message);
