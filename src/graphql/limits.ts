import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import {
  type DocumentNode,
  type GraphQLError,
  type GraphQLNamedType,
  type GraphQLSchema,
  Kind,
  Lexer,
  type OperationDefinitionNode,
  type SelectionNode,
  Source,
  TokenKind,
  type ValidationContext,
  type ValueNode,
  getNamedType,
  getNullableType,
  isCompositeType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isUnionType,
  isListType,
  getVariableValues,
  parse,
  visit,
} from 'graphql';
import { type ComplexityEstimator, getComplexity } from 'graphql-query-complexity';
import type { Plugin } from 'graphql-yoga';
import { httpError } from '../core/errors';
import { defaultPageSize, maxPageSize } from './paging';

/**
 * Limits every GraphQL document meets before it executes, on /graphql and for the /v1 routes alike. Each was chosen so
 * that GraphiQL's introspection query and every document of the test suite and the route table pass with room to
 * spare (test/graphql/limits.test.ts checks both); the numbers in comments are those documents' largest values.
 */
export const queryLimits = {
  /** Lexical tokens of one document: GraphiQL's introspection has 163, the 1,000-alias attack 29,000. */
  tokens: 5_000,
  /**
   * Open brackets ({, [, () inside one another. graphql-js parses recursively and overflows its stack near 1,500
   * levels, fewer inside a request, so this is checked while lexing, before the parser recurses. Introspection: 10.
   */
  nesting: 64,
  /**
   * Selection depth of data, through fragments (a spread adds no level of its own). Introspection (`__schema`, depth 15
   * with its `ofType`s) is exempt: it reads no data, and its cost below bounds how much of it one request asks for.
   */
  depth: 12,
  /** Aliased fields in one operation. */
  aliases: 30,
  /** Directives in one operation. */
  directives: 30,
  /**
   * Estimated objects one request may produce (see the cost model below): 50 pages of 200 plain objects. Introspection
   * costs 2,730 and the largest /v1 read (200 groups with their school and category) 801.
   */
  cost: 10_000,
} as const;

/** Each mutation field costs at least this, on top of the objects it returns: a write is worth many reads. */
export const mutationFieldCost = 10;

/**
 * Expected sizes of lists that take no `limit` (relations a parent lists in full). A list not named here is estimated
 * at `defaultListEstimate`; a resource with a larger relation declares it here.
 */
export const listEstimates: Record<string, number> = {
  'Group.members': 100,
  'Section.enrollments': 40,
  // A school has a few grading periods a year; a page of 200 sections with theirs stays under the cost limit.
  'Section.gradingPeriods': 4,
  // A page of 200 albums with their content (`withcontent=1`) stays under the cost limit.
  'Album.contents': 25,
  // At most 20 files an event; a page of 200 events with their files (`with_attachments=1`) stays under the limit.
  'CalendarEvent.attachments': 5,
  'Query.calendarFeeds': 10,
  'Query.gradingGroups': 20,
  // A section's gradebook: its students, each with a grade per period (and the final) and per category.
  'SectionGrades.enrollments': 40,
  'SectionGrades.periods': 6,
  'SectionGrades.categories': 10,
  'EnrollmentGrades.periods': 6,
  'PeriodGrade.categories': 10,
  'Query.gradingPeriods': 10,
  'Query.gradingScales': 10,
  'Query.accessTokens': 10,
  'Query.apiClients': 10,
  // A day's attendance: at most four statuses, and the few students not present in each; a page of 200 days fits.
  'AttendancePage.totals': 4,
  'AttendanceDayConnection.totals': 4,
  'AttendanceDay.statuses': 3,
  'AttendanceStatusGroup.records': 8,
  // Most deliveries take one attempt; one given up after 72 hours has about a hundred. A page of targets with their
  // deliveries' attempts, at the default pages, stays under the limit.
  'WebhookDelivery.attemptLog': 10,
};
export const defaultListEstimate = 50;

/**
 * A long text field (`longText` in src/graphql/execution-bounds.ts) costs one object more per this many characters it
 * may hold, rounded down: a post's body (1,000,000) 15, an event's description (100,000) 1, a group's (65,535) nothing.
 * A page of many bodies is costly (30 pages of 200 posts with their bodies, 96,030), while /v1's largest page of posts
 * (3,201), a page of webhook targets with their deliveries' event objects (6,441) and /v1's page of 200 groups (801,
 * one rate-limit point) stay as they were or under the limit.
 */
export const longTextCharactersPerObject = 65_536;

/** The cost of one request, attached to the context before it is built, for the rate limiter and `extensions.cost`. */
export interface QueryCost {
  /** Estimated objects the operation may produce, mutation fields weighted by `mutationFieldCost`. */
  cost: number;
  /** Root mutation fields the operation runs. */
  mutations: number;
}

export const limitError = (code: string, message: string) => {
  const error = httpError(400, code, message);
  (error.extensions.http as { spec?: boolean }).spec = false;
  return error;
};

/**
 * Lexes the whole document, iteratively, stopping at `tokens` tokens or `nesting` open brackets: neither a huge
 * document nor a deeply nested one reaches graphql-js' recursive parser.
 */
export function assertDocumentWithinLimits(source: string | Source, limits = queryLimits): void {
  const lexer = new Lexer(typeof source === 'string' ? new Source(source) : source);
  let tokens = 0;
  let nesting = 0;
  for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
    if (++tokens > limits.tokens) {
      throw limitError('QUERY_TOO_LARGE', `The document has more than ${limits.tokens} tokens, the limit`);
    }
    if (token.kind === TokenKind.BRACE_L || token.kind === TokenKind.BRACKET_L || token.kind === TokenKind.PAREN_L) {
      if (++nesting > limits.nesting) {
        throw limitError(
          'QUERY_TOO_DEEP',
          `The document nests brackets more than ${limits.nesting} levels deep, the limit`,
        );
      }
    } else if (
      token.kind === TokenKind.BRACE_R ||
      token.kind === TokenKind.BRACKET_R ||
      token.kind === TokenKind.PAREN_R
    ) {
      nesting--;
    }
  }
}

/** GraphQL Armor's rules, reporting a 400 with a code of ours instead of throwing from inside validation. */
function armorRules(limits: typeof queryLimits) {
  const reportAs = (code: string) => ({
    propagateOnRejection: false,
    exposeLimits: true,
    onReject: [
      (context: ValidationContext | null, error: GraphQLError) =>
        context?.reportError(limitError(code, error.message.replace(/^Syntax Error: /, ''))),
    ],
  });
  return [
    maxDepthRule({ n: limits.depth, flattenFragments: true, ...reportAs('QUERY_TOO_DEEP') }),
    maxAliasesRule({ n: limits.aliases, ...reportAs('TOO_MANY_ALIASES') }),
    maxDirectivesRule({ n: limits.directives, ...reportAs('TOO_MANY_DIRECTIVES') }),
  ];
}

const average = (counts: number[]) =>
  Math.max(1, Math.ceil(counts.reduce((sum, n) => sum + n, 0) / (counts.length || 1)));

/**
 * Introspection lists are sized by this schema's own averages (fields per type, arguments per field, ...), so the
 * introspection query costs about the objects it returns and a nested one multiplies as its answer would. A type's
 * lists are averaged over every type, as `__schema { types { ... } }` asks each type for all of them: an object type
 * has no enum values, and one large enum (the event catalogue's) must not price every type as if it had its values.
 * Its single objects (`type`, `ofType`) cost nothing of their own: they are the same schema object again, and
 * counting each of the seven `ofType` levels GraphiQL asks for would price the standard query at ten times its size.
 */
function introspectionEstimates(schema: GraphQLSchema): Record<string, number> {
  const types = Object.values(schema.getTypeMap());
  const fields = types.flatMap((type) =>
    isObjectType(type) || isInterfaceType(type) ? Object.values(type.getFields()) : [],
  );
  const perType = (count: (type: GraphQLNamedType) => number) => average(types.map(count));
  return {
    '__Schema.types': types.length,
    '__Schema.directives': schema.getDirectives().length,
    '__Type.fields': perType((type) =>
      isObjectType(type) || isInterfaceType(type) ? Object.keys(type.getFields()).length : 0,
    ),
    '__Type.interfaces': perType((type) =>
      isObjectType(type) || isInterfaceType(type) ? type.getInterfaces().length : 0,
    ),
    '__Type.possibleTypes': perType((type) =>
      isUnionType(type) || isInterfaceType(type) ? schema.getPossibleTypes(type).length : 0,
    ),
    '__Type.inputFields': perType((type) => (isInputObjectType(type) ? Object.keys(type.getFields()).length : 0)),
    '__Type.enumValues': perType((type) => (isEnumType(type) ? type.getValues().length : 0)),
    '__Field.args': average(fields.map((field) => field.args.length)),
    '__Directive.args': average(schema.getDirectives().map((directive) => directive.args.length)),
  };
}

/** The arguments whose values `costEstimator` reads; @include and @skip decide which fields are counted at all. */
const costArguments = new Set(['limit', 'first', 'last', 'ids']);
const conditionalDirectives = new Set(['include', 'skip']);

/**
 * The cost model, in estimated objects: a scalar costs 0 (long text one object per `longTextCharactersPerObject`
 * characters it may hold), an object 1 plus its selection, a paged field (one with a `limit` argument, or a
 * connection's `first`/`last`) its page size (default 20, at most 200) times the cost of one item (a connection's
 * `edges` or `nodes` are its items; an edge's `node` costs only its selection), any other list its estimate times one item (`nodes`
 * its number of ids), and a mutation field `mutationFieldCost` more. List sizes multiply, so `groups(limit: 200) {
 * items { members { user { school { id } } } } }` is 200 × 100 × 3 objects.
 */
function costEstimator(schema: GraphQLSchema): ComplexityEstimator {
  const estimates = { ...introspectionEstimates(schema), ...listEstimates };
  const mutationType = schema.getMutationType();
  return ({ type, field, args, childComplexity }) => {
    const extra = type === mutationType ? mutationFieldCost : 0;
    const named = getNamedType(field.type);
    if (!isCompositeType(named)) {
      const longText = (field.extensions as { longText?: number }).longText;
      return extra + (longText ? Math.floor(longText / longTextCharactersPerObject) : 0);
    }
    const introspection = named.name.startsWith('__');
    if (field.args.some((arg) => arg.name === 'limit' || arg.name === 'first')) {
      // A connection whose default page is smaller than the usual says so in its extensions (`usersConnection`).
      const defaultSize = (field.extensions as { defaultPageSize?: number }).defaultPageSize ?? defaultPageSize;
      const limit = Math.min(Math.max(Number(args.limit ?? args.first ?? args.last ?? defaultSize), 1), maxPageSize);
      return extra + 1 + limit * childComplexity;
    }
    if (isListType(getNullableType(field.type))) {
      // A page's `items` (a connection's `edges` or `nodes`) are sized by the page's `limit` (`first`/`last`), counted on
      // the field that took it.
      const paged =
        (field.name === 'items' && type.name.endsWith('Page')) ||
        ((field.name === 'edges' || field.name === 'nodes') && type.name.endsWith('Connection'));
      // `nodes(ids)` answers one object per id: priced by the ids it is given (at most maxNodesPerRequest).
      const byIds = type.name === 'Query' && field.name === 'nodes' && Array.isArray(args.ids) ? args.ids.length : null;
      const size = paged ? 1 : (byIds ?? estimates[`${type.name}.${field.name}`] ?? defaultListEstimate);
      return extra + size * (1 + childComplexity);
    }
    // An edge's node is the item its edge stands for, counted there.
    const edgeNode = field.name === 'node' && type.name.endsWith('Edge');
    return extra + (introspection || edgeNode ? 0 : 1) + childComplexity;
  };
}

/** Root mutation fields the operation runs, through fragments: each is one write. */
function rootMutationFields(document: DocumentNode, operationName: string | undefined): number {
  const operations = document.definitions.filter(
    (node): node is OperationDefinitionNode => node.kind === Kind.OPERATION_DEFINITION,
  );
  const operation = operationName ? operations.find((node) => node.name?.value === operationName) : operations[0];
  if (operation?.operation !== 'mutation') return 0;
  const fragments = new Map(
    document.definitions.flatMap((node) =>
      node.kind === Kind.FRAGMENT_DEFINITION ? [[node.name.value, node] as const] : [],
    ),
  );
  // Validation has refused fragment cycles already.
  const count = (selections: readonly SelectionNode[]): number =>
    selections.reduce((sum, selection) => {
      if (selection.kind === Kind.FIELD) return sum + 1;
      const set =
        selection.kind === Kind.INLINE_FRAGMENT
          ? selection.selectionSet
          : fragments.get(selection.name.value)?.selectionSet;
      return sum + (set ? count(set.selections) : 0);
    }, 0);
  return count(operation.selectionSet.selections);
}

/**
 * The variables a document's cost depends on: those given to an argument the cost model reads or to @include/@skip.
 * Any other variable (a group's id, a filter, a mutation's input) leaves the cost as it is.
 */
function costVariables(document: DocumentNode): string[] {
  const names = new Set<string>();
  const collect = (value: ValueNode) =>
    visit(value, {
      Variable: (variable) => {
        names.add(variable.name.value);
      },
    });
  visit(document, {
    Field: (field) => {
      for (const argument of field.arguments ?? []) if (costArguments.has(argument.name.value)) collect(argument.value);
    },
    Directive: (directive) => {
      if (!conditionalDirectives.has(directive.name.value)) return;
      for (const argument of directive.arguments ?? []) collect(argument.value);
    },
  });
  return [...names];
}

/** The cost-bearing variables as a cache key; null for values JSON cannot write (a BigInt), whose cost is then computed each time. */
function keyOfVariables(names: string[], variables: Record<string, unknown>): string | null {
  try {
    // A variable left out (its default applies) stays apart from one given as null.
    return JSON.stringify(
      Object.fromEntries(names.filter((name) => name in variables).map((name) => [name, variables[name]])),
    );
  } catch {
    return null;
  }
}

/**
 * The error `getComplexity` reports for variables that do not coerce (the last of them), for a request whose cost was
 * known already: another request with the same cost-bearing variables says nothing about this one's others.
 */
function variablesError(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
  variables: Record<string, unknown>,
) {
  const errors = document.definitions
    .filter((node): node is OperationDefinitionNode => node.kind === Kind.OPERATION_DEFINITION)
    .filter((operation) => operationName === undefined || operation.name?.value === operationName)
    .flatMap((operation) => getVariableValues(schema, operation.variableDefinitions ?? [], variables).errors ?? []);
  return errors.at(-1);
}

/** Reads the request's cost computed during validation; undefined for a request that did not reach it (graphql-ws). */
export const queryCostOf = (context: object): QueryCost | undefined => (context as { queryCost?: QueryCost }).queryCost;

/**
 * Document limits as yoga plugins: tokens and bracket nesting before parsing; depth, aliases and directives (GraphQL
 * Armor) as validation rules; then the cost, computed once the document is valid and attached to the context for the
 * rate limiter. Every refusal is a 400 with a code naming the limit, before authentication and execution.
 */
export function useQueryLimits(limits = queryLimits): Plugin {
  const estimators = new WeakMap<GraphQLSchema, ComplexityEstimator>();
  // The cost is a function of the document, the operation and the variables the cost model reads: it is computed once
  // per document and values of those (a /v1 route runs one document with a few distinct page sizes, for any id; yoga
  // hands the same parsed document for the same text). Keyed by their JSON, for small values only.
  const costs = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<string, QueryCost>>>();
  const costVariablesOf = new WeakMap<DocumentNode, string[]>();
  const costsPerDocument = 256;
  const maxCostKeyLength = 1024;
  // Each rule makes its visitor per validation, so one set serves every request.
  const rules = armorRules(limits);
  return {
    // Checked on the request's parameters, so that the refusal is a 400 even for `Accept: application/json`, for which
    // yoga answers parse errors with 200 as the GraphQL-over-HTTP specification asks.
    onParams({ params }) {
      if (typeof params.query === 'string') assertDocumentWithinLimits(params.query, limits);
    },
    // And on every parse, for documents that arrive otherwise (graphql-ws).
    onParse({ setParseFn }) {
      setParseFn((source, options) => {
        assertDocumentWithinLimits(source, limits);
        return parse(source, { ...options, maxTokens: limits.tokens });
      });
    },
    onValidate({ addValidationRule, params, context }) {
      for (const rule of rules) addValidationRule(rule);
      // The cost depends on the variables, so its refusal is thrown rather than added to the validation result, which
      // yoga caches per document.
      return ({ valid, extendContext }) => {
        if (!valid) return;
        const { schema, documentAST } = params;
        let estimator = estimators.get(schema);
        if (!estimator) estimators.set(schema, (estimator = costEstimator(schema)));
        const request = (context as { params?: { variables?: Record<string, unknown>; operationName?: string } })
          .params;
        const operationName = request?.operationName ?? undefined;
        const variables = request?.variables ?? {};
        let names = costVariablesOf.get(documentAST);
        if (!names) costVariablesOf.set(documentAST, (names = costVariables(documentAST)));
        const variablesKey = keyOfVariables(names, variables);
        const key =
          variablesKey !== null && variablesKey.length <= maxCostKeyLength
            ? `${operationName ?? ''}\u0000${variablesKey}`
            : null;
        let byDocument = costs.get(schema);
        if (!byDocument) costs.set(schema, (byDocument = new WeakMap()));
        const known = key === null ? undefined : byDocument.get(documentAST)?.get(key);
        if (known) {
          const error = variablesError(schema, documentAST, operationName, variables);
          if (error) throw limitError('BAD_USER_INPUT', error.message);
          extendContext({ queryCost: known } as Record<string, unknown>);
          return;
        }
        let cost: number;
        try {
          cost = getComplexity({ schema, query: documentAST, variables, operationName, estimators: [estimator] });
        } catch (error) {
          // Variables that do not coerce, or a document whose fragments expand past the estimator's node budget.
          const message = (error as Error).message;
          throw limitError(
            /maximum allowed number of nodes/.test(message) ? 'QUERY_TOO_COSTLY' : 'BAD_USER_INPUT',
            message,
          );
        }
        if (cost > limits.cost) {
          throw limitError(
            'QUERY_TOO_COSTLY',
            `The query may cost ${cost} (estimated objects), over the limit of ${limits.cost}: ask for smaller pages or fewer fields`,
          );
        }
        const queryCost: QueryCost = { cost, mutations: rootMutationFields(documentAST, operationName) };
        if (key !== null) {
          let byVariables = byDocument.get(documentAST);
          if (!byVariables) byDocument.set(documentAST, (byVariables = new Map()));
          // A document asked with ever new variables (a client paging through) starts over rather than growing.
          if (byVariables.size >= costsPerDocument) byVariables.clear();
          byVariables.set(key, queryCost);
        }
        extendContext({ queryCost } as Record<string, unknown>);
      };
    },
  };
}
