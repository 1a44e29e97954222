/**
 * The webhook address guard (src/webhooks/address.ts) on the addresses themselves; the answers of target
 * creation over HTTP are in test/rest/triggers.test.ts.
 */
import type http from 'node:http';
import https from 'node:https';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { deliveryAgent, isPublicAddress, publicAddressLookup } from '../../src/webhooks/address';

describe('isPublicAddress', () => {
  it.each([
    ['8.8.8.8', true],
    ['2606:4700::1111', true],
    ['::ffff:8.8.8.8', true],
    ['127.0.0.1', false],
    ['10.0.0.1', false],
    ['100.64.0.1', false],
    ['::1', false],
    ['::', false],
    ['::ffff:127.0.0.1', false],
    ['fc00::1', false],
    // IPv4-compatible, written either way: refused whole, a public IPv4 address in it too.
    ['::7f00:1', false],
    ['::127.0.0.1', false],
    ['::8.8.8.8', false],
    ['::808:808', false],
    // Ranges that embed an IPv4 address, refused whole.
    ['64:ff9b::7f00:1', false],
    ['64:ff9b::8.8.8.8', false],
    ['2002:a00:1::1', false],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', false],
    ['::ffff:0:7f00:1', false],
    ['not an address', false],
  ])('%s: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

describe('at delivery', () => {
  it('refuses a target whose URL holds an address that is not public, saved before its range was refused', () => {
    expect(deliveryAgent(new URL('https://[::127.0.0.1]:8443/hook'))).toEqual({
      refused: 'target address is not a public address',
    });
    expect(deliveryAgent(new URL('https://[2606:4700::1111]/hook'))).toHaveProperty('agent');
  });

  it('fails the lookup of a name that resolves to such an address', async () => {
    const lookup = promisify(publicAddressLookup) as unknown as (hostname: string, options: object) => Promise<unknown>;
    // A literal resolves to itself.
    await expect(lookup('::7f00:1', { all: true })).rejects.toMatchObject({
      code: 'EADDRNOTPUBLIC',
      message: '::7f00:1 resolves to ::7f00:1, which is not a public address',
    });
    await expect(lookup('::7f00:1', {})).rejects.toMatchObject({ code: 'EADDRNOTPUBLIC' });
    await expect(lookup('8.8.8.8', { all: true })).resolves.toEqual([{ address: '8.8.8.8', family: 4 }]);
  });

  it('connects through that lookup', async () => {
    const { agent } = deliveryAgent(new URL('https://localhost:9/hook')) as { agent: http.Agent };
    const failure = await new Promise((resolve) =>
      https.get('https://localhost:9/hook', { agent }, () => resolve(null)).on('error', resolve),
    );
    expect(failure).toMatchObject({ code: 'EADDRNOTPUBLIC' });
  });
});
