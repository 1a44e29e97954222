/**
 * A default page fits the default limits, everywhere: every list of the schema, at its default arguments and reached
 * through the lists above it (a page of webhook targets with each one's deliveries with each one's attempts), is under
 * the cost limit with every field of its items, long text included.
 */
import {
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  getNamedType,
  getNullableType,
  isAbstractType,
  isCompositeType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  parse,
} from 'graphql';
import { createYoga } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { queryCostOf, queryLimits, useQueryLimits } from '../../src/graphql/limits';
import { schema } from '../../src/graphql/schema';

type Field = GraphQLField<unknown, unknown>;

/** A literal of a required argument's type; the cost depends on none of them (`nodes` is given one id). */
function sample(type: GraphQLInputType): string {
  if (isNonNullType(type)) return sample(type.ofType);
  if (isListType(type)) return `[${sample(type.ofType)}]`;
  if (isEnumType(type)) return type.getValues()[0]!.name;
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields()).filter(
      (field) => isNonNullType(field.type) && field.defaultValue === undefined,
    );
    return `{ ${fields.map((field) => `${field.name}: ${sample(field.type)}`).join(', ')} }`;
  }
  if (type.name === 'Int' || type.name === 'Float') return '1';
  if (type.name === 'Boolean') return 'true';
  if (type.name === 'DateTime') return '"2026-09-01T00:00:00Z"';
  return '"1"';
}

/** The field called with its required arguments only: every other one at its default. */
function call(field: Field): string {
  const required = field.args.filter((arg) => isNonNullType(arg.type) && arg.defaultValue === undefined);
  return required.length
    ? `${field.name}(${required.map((arg) => `${arg.name}: ${sample(arg.type)}`).join(', ')})`
    : field.name;
}

/** Every field of an item that needs no arguments and selects nothing. */
function everyLeaf(type: GraphQLObjectType): string {
  const leaves = Object.values(type.getFields()).filter(
    (field) => isLeafType(getNamedType(field.type)) && !field.args.some((arg) => isNonNullType(arg.type)),
  );
  return leaves.map((field) => field.name).join(' ') || '__typename';
}

/** A list: a paged field (an offset page or a connection) or a list of objects. */
const isList = (field: Field) =>
  isCompositeType(getNamedType(field.type)) &&
  (isListType(getNullableType(field.type)) || field.args.some((arg) => arg.name === 'limit' || arg.name === 'first'));

/** The type of a field's items, and how a selection of one item is written inside the field. */
function itemsOf(field: Field): { type: GraphQLNamedType; wrap: (inner: string) => string } {
  const named = getNamedType(field.type);
  if (isObjectType(named) && named.name.endsWith('Page') && named.getFields().items) {
    return {
      type: getNamedType(named.getFields().items!.type),
      wrap: (inner) => `${call(field)} { items { ${inner} } }`,
    };
  }
  if (isObjectType(named) && named.name.endsWith('Connection') && named.getFields().edges) {
    const edge = getNamedType(named.getFields().edges!.type) as GraphQLObjectType;
    return {
      type: getNamedType(edge.getFields().node!.type),
      wrap: (inner) => `${call(field)} { edges { node { ${inner} } } }`,
    };
  }
  return { type: named, wrap: (inner) => `${call(field)} { ${inner} }` };
}

interface Chain {
  path: string;
  document: string;
}

/**
 * Every chain of lists from a root field (a list, or one object whose lists start the chain), each list's items
 * stepping into their own lists, no type twice on a chain; the document asks for every field of the last list's items.
 */
function chainsOfLists(): Chain[] {
  const chains: Chain[] = [];
  const roots = [['query', schema.getQueryType()!] as const, ['mutation', schema.getMutationType()!] as const];
  for (const [operation, root] of roots) {
    const walk = (
      type: GraphQLObjectType,
      path: string[],
      onPath: ReadonlySet<string>,
      wrap: (inner: string) => string,
    ) => {
      for (const field of Object.values(type.getFields())) {
        // A root field's object, and a mutation payload's, lead to lists; past them, only lists do.
        const opens = type === root || type.name.endsWith('Payload');
        if (!isCompositeType(getNamedType(field.type)) || (!opens && !isList(field))) continue;
        const here = [...path, `${type.name}.${field.name}`];
        const items = itemsOf(field);
        // Items of an abstract type (`nodes`) are walked as each type they may be.
        const abstract = isAbstractType(items.type);
        const possible = isAbstractType(items.type)
          ? schema.getPossibleTypes(items.type)
          : isObjectType(items.type)
            ? [items.type]
            : [];
        for (const each of possible) {
          const into = (inner: string) => wrap(items.wrap(abstract ? `... on ${each.name} { ${inner} }` : inner));
          const path = abstract ? [...here.slice(0, -1), `${here.at(-1)} (${each.name})`] : here;
          if (isList(field))
            chains.push({ path: path.join(' > '), document: `${operation} { ${into(everyLeaf(each))} }` });
          if (!onPath.has(each.name)) walk(each, path, new Set([...onPath, each.name]), into);
        }
      }
    };
    walk(root, [], new Set([root.name]), (inner) => inner);
  }
  return chains;
}

describe('default pages', () => {
  const yoga = createYoga({ schema, plugins: [useQueryLimits()], logging: false });
  const chains = chainsOfLists();

  /** The cost the limits plugin computes for a document, or the refusal's message. */
  function costOf(document: string): number | string {
    const context = { request: new Request('http://lectern.test/graphql'), params: { variables: {} } };
    const enveloped = yoga.getEnveloped(context);
    try {
      const errors = enveloped.validate(enveloped.schema, parse(document));
      return errors.length ? errors.map((error: Error) => error.message).join('; ') : queryCostOf(context)!.cost;
    } catch (error) {
      return (error as Error).message;
    }
  }

  it('walks every list, through the lists above it', () => {
    const paths = chains.map((chain) => chain.path);
    // The delivery log of issue 43 (20,441 with its attempts estimated at 50), and lists of lists of lists.
    expect(paths).toEqual(
      expect.arrayContaining([
        'Query.triggerTargets > TriggerTarget.deliveries > WebhookDelivery.attemptLog',
        'Query.triggerTargetsConnection > TriggerTarget.deliveriesConnection > WebhookDelivery.attemptLogConnection',
        'Query.sectionGrades > SectionGrades.enrollments > EnrollmentGrades.periods > PeriodGrade.categories',
        'Query.blogPosts',
        'Mutation.createGroup > CreateGroupPayload.group > Group.members',
      ]),
    );
  });

  it('keeps each at its default page under the cost limit, with every field of its items', () => {
    const refused = chains.flatMap((chain) => {
      const cost = costOf(chain.document);
      return typeof cost === 'number' && cost <= queryLimits.cost ? [] : [`${chain.path}: ${cost}`];
    });
    expect(refused).toEqual([]);
    expect(
      costOf(
        chains.find(
          (chain) => chain.path === 'Query.triggerTargets > TriggerTarget.deliveries > WebhookDelivery.attemptLog',
        )!.document,
      ),
    ).toBe(4441);
  });
});
