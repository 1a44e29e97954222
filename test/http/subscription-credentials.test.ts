import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { issueAccessToken } from '../../src/modules/access/access.service';
import { type World, createWorld } from '../support/factories';
import { listenOnLoopback, useTestServer } from '../support/harness';

const server = useTestServer();
let world: World;
let token: string;
let url: string;
let close: () => Promise<void>;

beforeAll(async () => {
  world = await createWorld();
  ({ token } = await issueAccessToken({ userId: world.student.id }));
  const listening = await listenOnLoopback(server);
  url = `ws://127.0.0.1:${listening.port}/graphql`;
  close = listening.close;
});
afterAll(() => close());

/** A WebSocket that sends the given headers with its upgrade request, as clients outside a browser can. */
const withUpgradeHeaders = (headers: Record<string, string>) =>
  class extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      super(address, protocols, { headers });
    }
  };

const viewerQuery = '{ viewer { id: databaseId } }';

describe('credentials of graphql-ws operations', () => {
  it('come from the connection params', async () => {
    const client = createClient({
      url,
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: `Bearer ${token}` },
    });
    const { value } = await client.iterate({ query: viewerQuery }).next();
    expect(value?.data).toEqual({ viewer: { id: String(world.student.id) } });
    await client.dispose();
  });

  it("come from the subscribe message's extensions.headers, as GraphiQL sends its headers tab", async () => {
    // GraphiQL's connection_init carries an empty payload.
    const client = createClient({ url, webSocketImpl: WebSocket, connectionParams: {} });
    const { value } = await client
      .iterate({ query: viewerQuery, extensions: { headers: { authorization: `Bearer ${token}` } } })
      .next();
    expect(value?.data).toEqual({ viewer: { id: String(world.student.id) } });
    await client.dispose();
  });

  it("come from the WebSocket upgrade request's headers", async () => {
    const client = createClient({ url, webSocketImpl: withUpgradeHeaders({ Authorization: `Bearer ${token}` }) });
    const { value } = await client.iterate({ query: viewerQuery }).next();
    expect(value?.data).toEqual({ viewer: { id: String(world.student.id) } });
    await client.dispose();
  });

  it('prefer the connection params, then the message, to the upgrade request', async () => {
    const client = createClient({
      url,
      webSocketImpl: withUpgradeHeaders({ Authorization: `Bearer ${token}` }),
      connectionParams: { Authorization: 'Bearer nope' },
    });
    await expect(client.iterate({ query: viewerQuery }).next()).rejects.toEqual([
      expect.objectContaining({ message: 'Invalid or expired bearer token' }),
    ]);
    await expect(
      client.iterate({ query: viewerQuery, extensions: { headers: { Authorization: `Bearer ${token}` } } }).next(),
    ).rejects.toEqual([expect.objectContaining({ message: 'Invalid or expired bearer token' })]);
    await client.dispose();

    const fromMessage = createClient({ url, webSocketImpl: withUpgradeHeaders({ Authorization: 'Bearer nope' }) });
    const { value } = await fromMessage
      .iterate({ query: viewerQuery, extensions: { headers: { Authorization: `Bearer ${token}` } } })
      .next();
    expect(value?.data).toEqual({ viewer: { id: String(world.student.id) } });
    await fromMessage.dispose();
  });

  it('are required: without one the operation is refused as unauthenticated', async () => {
    const client = createClient({ url, webSocketImpl: WebSocket });
    const { value } = await client.iterate({ query: viewerQuery }).next();
    expect(value?.data).toBeNull();
    expect(value?.errors).toEqual([
      expect.objectContaining({ extensions: expect.objectContaining({ code: 'UNAUTHENTICATED' }) }),
    ]);
    await client.dispose();
  });
});
