/// <reference types="vite/client" />
import { beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql/schema';
import { restRoutes } from '../../src/rest/routes';
import { clientsFor } from '../support/client';
import { type World, createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';
import {
  type CaseTable,
  type Fixture,
  cast,
  caseTitle,
  coverage,
  expected,
  routeKey,
  runCase,
} from '../support/permissions';

const server = useTestServer();
const clients = clientsFor(server);

/** Every table in cases/: a new resource joins the matrix by adding its file. */
const tables = Object.values(import.meta.glob<CaseTable>('./cases/*.ts', { eager: true, import: 'default' }));

let world: World;

beforeAll(async () => {
  world = await createWorld();
  await Promise.all([clients.restFor(cast, world), clients.graphqlFor(cast, world)]);
});

describe('every operation has cases', () => {
  const declared = coverage(tables);
  const routes = restRoutes.map(routeKey);
  const fields = [schema.getQueryType()!, schema.getMutationType()!, schema.getSubscriptionType()!].flatMap((type) =>
    Object.keys(type.getFields()).map((field) => `${type.name}.${field}`),
  );

  it('declares cases for every /v1 route', () => {
    expect(routes.filter((route) => !declared.routes.has(route))).toEqual([]);
  });

  it('declares cases for every Query, Mutation and Subscription field', () => {
    expect(fields.filter((field) => !declared.fields.has(field))).toEqual([]);
  });

  it('declares cases only for routes and fields that exist', () => {
    expect(
      [...declared.routes, ...declared.fields].filter((name) => !routes.includes(name) && !fields.includes(name)),
    ).toEqual([]);
  });
});

describe.each(tables.map((table) => [table.area, table] as const))('%s', (_area, table) => {
  let fixture: Fixture<unknown>;

  beforeAll(async () => {
    fixture = { ...world, ...(await table.setup(world, server)), server };
  });

  it.each(table.cases.map((entry) => [caseTitle(entry), entry] as const))('%s', async (_title, entry) => {
    const { outcomes, notes } = await runCase(entry, fixture, world, clients);
    expect(outcomes, `${cast.join(' ')}\n${notes.join('\n')}`).toBe(expected(entry));
  });
});
