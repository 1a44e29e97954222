/**
 * Typed GraphQL documents (gql.tada) for code that runs documents in-process, such as the /v1 REST routes:
 *
 *   const RestGroup = graphql(`fragment RestGroup on Group @_unmask { id title }`);
 *   const GroupQuery = graphql(`query ($id: ID!) { group(id: $id) { ...RestGroup } }`, [RestGroup]);
 *   type Data = ResultOf<typeof GroupQuery>; // { group: { id: string; title: string } | null }
 *
 * Types come from src/graphql/graphql-env.d.ts, the introspection `npm run schema` writes next to schema.graphql.
 * gql.tada types a field the schema lacks as `unknown` without complaint; `graphql` here rejects such a document
 * (and one spreading a fragment missing from its fragment list, or one it cannot parse) at the call, so
 * `npm run typecheck` fails. Arguments and inline-fragment type conditions are not checked; `npx gql.tada check` does.
 */
import { initGraphQLTada, type $tada, type ResultOf } from 'gql.tada';
import type { introspection } from './graphql-env';

const tada = initGraphQLTada<{
  introspection: introspection;
  /** As the schema serializes them: DateTime as an ISO 8601 string. */
  scalars: { DateTime: string; ID: string };
}>();

type Fragments = NonNullable<Parameters<typeof tada>[1]>;

/**
 * gql.tada's document overload on its own, so it can be instantiated below (`typeof tada<In, F>` also meets the
 * overload for gql.tada's turbo cache, which rejects a plain string). Used only for its type.
 */
const document = <const In extends string, const F extends Fragments = []>(input: In, fragments?: F) =>
  tada(input, fragments);
type Document<In extends string, F extends Fragments> = ReturnType<typeof document<In, F>>;

/**
 * Always among the fragments a document is typed with: gql.tada marks a spread of a fragment missing from a
 * non-empty list (`'Undefined Fragment'`), but types one in a document without a list as nothing at all.
 */
type Sentinel = Document<'fragment TypedDocumentSentinel on Query { __typename }', []>;

type Join<Path extends string, Key extends string> = Path extends '' ? Key : `${Path}.${Key}`;

/** Paths in a result type that gql.tada could not type: fields the schema lacks, fragments not passed. */
type UnknownPaths<T, Path extends string = ''> = unknown extends T
  ? Path
  : T extends readonly (infer Item)[]
    ? UnknownPaths<Item, Path>
    : T extends object
      ?
          | { [K in keyof T & string]-?: UnknownPaths<T[K], Join<Path, K>> }[keyof T & string]
          | (T extends { [$tada.fragmentRefs]: infer Refs }
              ? {
                  [K in keyof Refs & string]: Refs[K] extends 'Undefined Fragment'
                    ? `${Path}${Path extends '' ? '' : ' '}...${K}`
                    : never;
                }[keyof Refs & string]
              : never)
      : never;

type Check<D> = [D] extends [never]
  ? { 'not a GraphQL document gql.tada can parse': true }
  : [UnknownPaths<ResultOf<D>>] extends [never]
    ? unknown
    : { 'field not in the schema, or fragment not passed': UnknownPaths<ResultOf<D>> };

/** gql.tada's `graphql`, whose document argument is a type error when its result has an untyped path. */
export interface GraphQL extends Pick<typeof tada, 'scalar' | 'persisted'> {
  <const In extends string, const F extends Fragments = []>(
    input: In & Check<Document<In, [...F, Sentinel]>>,
    fragments?: F,
  ): Document<In, [...F, Sentinel]>;
}

export const graphql: GraphQL = tada;

export type { FragmentOf, ResultOf, TadaDocumentNode, VariablesOf } from 'gql.tada';
