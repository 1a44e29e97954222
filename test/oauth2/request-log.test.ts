/**
 * The OAuth 2.0 endpoints are served beside yoga, with a request log of their own: like yoga's, it writes method, path
 * and status, and never the query or body, where codes, tokens, verifiers and passwords travel.
 */
import { Writable } from 'node:stream';
import * as client from 'openid-client';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { clientsFor } from '../support/client';
import { type World, createWorld } from '../support/factories';
import { type TestServer, listenOnLoopback, useTestServer } from '../support/harness';
import { givePassword } from '../signin/pages';
import {
  Browser,
  leftFor,
  pageOf,
  registerOAuth2App,
  relyingParty,
  startAuthorization,
  viewerWith,
} from './oauth2-support';

const server = useTestServer();
const password = 'correct horse battery staple';
const lines: string[] = [];
let world: World;
let origin: string;
let close: () => Promise<void>;

beforeAll(async () => {
  world = await createWorld();
  await givePassword(world.student.id, password);
  const sink = new Writable({
    write: (chunk, _encoding, done) => {
      lines.push(String(chunk));
      done();
    },
  });
  const app = createApp({
    config: server.config,
    database: server.database,
    serverKey: server.serverKey,
    logger: pino({ level: 'info' }, sink),
  });
  const listening = await listenOnLoopback({ ...server, app } as TestServer);
  origin = `http://127.0.0.1:${listening.port}`;
  close = listening.close;
});
afterAll(() => close?.());

describe('the OAuth 2.0 request log', () => {
  it('writes each request without codes, tokens, verifiers or passwords', async () => {
    const admin = await clientsFor(server).graphql(world.districtAdmin);
    const app = await registerOAuth2App(admin, 'PUBLIC');
    const config = await relyingParty(origin, app, 'PUBLIC');
    const pending = await startAuthorization(config);
    const browser = new Browser(origin);
    const signInPage = pageOf(await browser.follow(pending.url));
    const consent = pageOf(await browser.signIn(signInPage, world.student.username, password));
    const back = await leftFor(await browser.answer(consent, 'approve'));
    const tokens = await client.authorizationCodeGrant(config, back, {
      pkceCodeVerifier: pending.verifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
    });
    expect(await viewerWith(origin, tokens.access_token)).toBe(String(world.student.id));
    const rotated = await client.refreshTokenGrant(config, tokens.refresh_token!);
    await client.tokenRevocation(config, rotated.access_token);

    const log = lines.join('');
    const secrets = {
      code: back.searchParams.get('code')!,
      verifier: pending.verifier,
      password,
      accessToken: tokens.access_token,
      refreshToken: tokens.refresh_token!,
      rotated: rotated.refresh_token!,
      idToken: tokens.id_token!,
    };
    for (const [name, secret] of Object.entries(secrets)) expect(log.includes(secret), name).toBe(false);
    const paths = lines.map((line) => JSON.parse(line)).filter((line) => line.msg === 'request');
    expect(paths).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ method: 'GET', path: '/oauth2/authorize', status: 303 }),
        expect.objectContaining({ method: 'POST', path: '/oauth2/token', status: 200 }),
        expect.objectContaining({ method: 'POST', path: '/oauth2/revoke', status: 200 }),
      ]),
    );
  });
});
