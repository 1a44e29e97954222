/**
 * The one shape of every mutation, as GitHub's and Shopify's: `xxx(input: XxxInput!): XxxPayload`. The payload holds
 * the changed object(s), the parents a client cache needs refreshed, the global id of what a delete removed, and
 * `userErrors` (field, code, message) for expected failures, in which case nothing was written. Mutation fields are
 * nullable, so a permission failure in one field of a document never hides the committed result of another.
 */
import type { ObjectRef } from '@pothos/core';
import { queryFromInfo } from '@pothos/plugin-prisma';
import type { z } from 'zod';
import type { Viewer } from '../auth/viewer';
import { ConflictError, NotFoundError, ValidationError } from '../core/errors';
import { type GlobalIdType, encodeGlobalId, readId } from '../core/global-id';
import type PrismaTypes from '../generated/pothos-types';
import { type AuthenticatedContext, builder } from './builder';
import { type UserErrorShape, UserErrorType } from './error-types';
import { type NamedTypes, inputFromSchema } from './inputs';
import type { PrismaQuery } from './operations';

type Model = keyof PrismaTypes & string;
type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/** A member of a payload besides `userErrors`. Every member is null when the mutation reports userErrors. */
export type PayloadMember =
  /** A Prisma object, loaded with what the client selects under it (see `select` below). */
  | { model: Model; description: string }
  /** A plain object (not a row), or a list of them. */
  | { type: ObjectRef<Types, unknown>; list?: boolean; description: string }
  /** The global id of an object that no longer exists; the resolver gives its database id. */
  | { deleted: GlobalIdType; description: string }
  /** A value shown only in this answer, such as the secret URL of a new feed. */
  | { scalar: 'String'; description: string };

type MemberValue<Member> = Member extends { model: infer Name extends Model }
  ? PrismaTypes[Name]['Shape']
  : Member extends { type: ObjectRef<Types, infer Shape>; list: true }
    ? Shape[]
    : Member extends { type: ObjectRef<Types, infer Shape> }
      ? Shape
      : Member extends { deleted: GlobalIdType }
        ? number
        : Member extends { scalar: 'String' }
          ? string
          : never;

type PayloadValues<Members> = { [Name in keyof Members]?: MemberValue<Members[Name]> | null };

type Payload = Record<string, unknown> & { userErrors: UserErrorShape[] };

const capitalized = (name: string) => name[0]!.toUpperCase() + name.slice(1);

/**
 * `name(input: NameInput!): NamePayload`. The input type is made from `input`, a strict zod object schema (see
 * inputFromSchema: members named once, described once); `types` names the GraphQL types of members zod cannot name.
 * `resolve` runs the service with the viewer and the input as the client sent it, and answers the payload's members;
 * `select(member)` is the Prisma selection the client made under a `model` member, to spread into the service's
 * Prisma call so that its relations load in the same statement. A ValidationError, NotFoundError or ConflictError
 * the service throws becomes `userErrors`; anything else (a permission failure) is a GraphQL error on this field only.
 * A mutation that takes nothing (it acts on the viewer alone) leaves `input` out and has no argument.
 */
export function payloadMutation<Schema extends z.ZodType, Members extends Record<string, PayloadMember>>(
  name: string,
  options: {
    description: string;
    input?: Schema;
    /** What the input is, in a sentence (its GraphQL description); given with `input`. */
    inputDescription?: string;
    types?: NamedTypes<Schema>;
    payload: Members;
    resolve: (
      viewer: Viewer,
      input: z.input<Schema>,
      select: (member: keyof Members & string) => PrismaQuery,
      context: AuthenticatedContext,
    ) => Promise<PayloadValues<Members>>;
  },
) {
  const typeName = capitalized(name);
  const inputDescription = options.inputDescription ?? '';
  const Input = options.input && inputFromSchema(`${typeName}Input`, options.input, inputDescription, options.types);
  const PayloadType = builder.objectRef<Payload>(`${typeName}Payload`).implement({
    description: `What \`${name}\` answers: the objects it changed, or \`userErrors\` when it wrote nothing.`,
    fields: (t) => ({
      ...Object.fromEntries(
        Object.entries(options.payload).map(([member, spec]) => [member, payloadField(t, member, spec)]),
      ),
      userErrors: t.field({
        type: [UserErrorType],
        description: 'Why nothing was written; empty when the mutation succeeded.',
        resolve: (payload) => payload.userErrors,
      }),
    }),
  });
  builder.mutationField(name, (t) =>
    t.withAuth({ authenticated: true }).field({
      type: PayloadType,
      nullable: true,
      description: options.description,
      args: Input ? { input: t.arg({ type: Input, required: true, description: inputDescription }) } : {},
      resolve: async (_root, args, context, info) => {
        const select = (member: string) => queryFromInfo({ context, info, path: [member] }) as PrismaQuery;
        // Pothos types the argument from the input type, which is made at run time from the schema.
        const { input } = args as { input: z.input<Schema> };
        try {
          const values = await options.resolve(context.viewer, input, select, context);
          return { ...values, userErrors: [] };
        } catch (error) {
          const userErrors = userErrorsOf(error, input);
          if (!userErrors) throw error;
          return { userErrors };
        }
      },
    }),
  );
}

type PayloadFieldBuilder = PothosSchemaTypes.ObjectFieldBuilder<Types, Payload>;

function payloadField(t: PayloadFieldBuilder, member: string, spec: PayloadMember) {
  const value = (payload: Payload) => payload[member] ?? null;
  if ('deleted' in spec) {
    const type = spec.deleted;
    return t.id({
      nullable: true,
      description: spec.description,
      resolve: (payload) => {
        const id = value(payload);
        return id === null ? null : encodeGlobalId(type, id as number);
      },
    });
  }
  if ('scalar' in spec) {
    return t.string({ nullable: true, description: spec.description, resolve: (payload) => value(payload) as string });
  }
  // Prisma objects are referenced by their model's type name; the plugin loads what the client selects under them
  // from the `select(member)` the service spread into its call.
  const type = 'model' in spec ? spec.model : spec.list ? [spec.type] : spec.type;
  return t.field({ type: type as never, nullable: true, description: spec.description, resolve: value as never });
}

/** The typed errors of a service as `userErrors`; null for any other failure, which stays a GraphQL error. */
function userErrorsOf(error: unknown, input: unknown): UserErrorShape[] | null {
  const inInput = (path: string | null) => (path ? ['input', ...path.split('.')] : null);
  if (error instanceof ValidationError) {
    return error.issues.map((issue) => ({
      field: inInput(issue.field),
      code: issue.code ?? 'INVALID',
      message: issue.message,
    }));
  }
  if (error instanceof NotFoundError) {
    const path = memberNaming(input, error.objectType as GlobalIdType, Number(error.objectId));
    return [{ field: path ? ['input', ...path] : null, code: 'NOT_FOUND', message: error.message }];
  }
  if (error instanceof ConflictError)
    return [{ field: inInput(error.field), code: 'CONFLICT', message: error.message }];
  return null;
}

/**
 * The path of the input member that named the missing object, by its global or database id; where several hold that
 * id (a database id is only digits), the one whose name names the type (`groupId` for a Group), else the first.
 */
function memberNaming(input: unknown, type: GlobalIdType, id: number): string[] | null {
  const found: string[][] = [];
  const walk = (value: unknown, path: string[]) => {
    if (typeof value === 'string') {
      const reading = readId(value, type);
      if ('id' in reading && reading.id === id) found.push(path);
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, member] of Object.entries(value)) walk(member, [...path, key]);
    }
  };
  walk(input, []);
  const named = found.find((path) => path.some((key) => key.toLowerCase().startsWith(type.toLowerCase())));
  return named ?? found[0] ?? null;
}
