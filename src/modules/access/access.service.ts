import { forgetCredentialsOf } from '../../auth/credential-cache';
import { authorize } from '../../auth/policy';
import { findByStorableId } from '../../auth/realms';
import { encryptSecret, hashToken, randomToken } from '../../auth/secrets';
import type { Viewer } from '../../auth/viewer';
import { NotFoundError } from '../../core/errors';
import { validate } from '../../core/validation';
import { db } from '../../db/database';
import { type EventKind, defineEvent } from '../../outbox/catalogue';
import { recordEvent, writeTransaction } from '../../outbox/record';
import type { Prisma } from '../../generated/prisma/client';
import { credentialPolicy } from './access.policy';
import { accessTokenSchema, apiClientSchema } from './access.validation';

const credentialEvent = (type: `${string}.${string}`, object: string, description: string) =>
  defineEvent(type, { object, realms: ['USER'], description });
export const credentialEvents = {
  createApiClient: credentialEvent(
    'api_client.create',
    'ApiClient',
    'OAuth consumer credentials were issued for a user.',
  ),
  deleteApiClient: credentialEvent('api_client.delete', 'ApiClient', 'OAuth consumer credentials were revoked.'),
  createAccessToken: credentialEvent('access_token.create', 'AccessToken', 'A bearer token was issued for a user.'),
  deleteAccessToken: credentialEvent('access_token.delete', 'AccessToken', 'A bearer token was revoked.'),
};

export interface IssuedApiClient {
  id: number;
  userId: number;
  name: string;
  consumerKey: string;
  /** Shown once, when issued; only its encryption is stored. */
  consumerSecret: string;
}

/** The realm facts of a credential's owner, looked up first so that an unknown user is a NotFoundError. */
async function credentialOwner(tx: Prisma.TransactionClient, userId: number) {
  const user = await tx.user.findUnique({
    where: { id: userId },
    select: { schoolId: true, school: { select: { districtId: true } } },
  });
  if (!user) throw new NotFoundError('User', userId);
  return { userId, districtId: user.school.districtId, schoolId: user.schoolId };
}

/** A credential event, in the realm of the user the credential belongs to. */
function recordCredentialEvent(
  tx: Prisma.TransactionClient,
  owner: Awaited<ReturnType<typeof credentialOwner>>,
  kind: EventKind,
  event: { objectId: number; actorId: number | null },
) {
  return recordEvent(tx, kind, { realm: { type: 'USER', id: owner.userId }, ...event, scope: owner });
}

export interface ApiClientOptions {
  userId: number;
  name?: string;
  /** A given key and secret (the bootstrap credential) are kept; otherwise both are random. */
  consumerKey?: string;
  consumerSecret?: string;
  actorId?: number | null;
}

/** Issues OAuth consumer credentials for a user. Used by the mutation and the CLI. */
export function issueApiClient(serverKey: Buffer, options: ApiClientOptions): Promise<IssuedApiClient> {
  return writeTransaction((tx) => issueApiClientIn(tx, serverKey, options));
}

/** issueApiClient inside a caller's transaction, for writes that create the user in the same transaction. */
export async function issueApiClientIn(
  tx: Prisma.TransactionClient,
  serverKey: Buffer,
  options: ApiClientOptions,
): Promise<IssuedApiClient> {
  const consumerKey = options.consumerKey ?? randomToken(16);
  const consumerSecret = options.consumerSecret ?? randomToken(24);
  const owner = await credentialOwner(tx, options.userId);
  const client = await tx.apiClient.create({
    data: {
      userId: options.userId,
      name: options.name ?? '',
      consumerKey,
      encryptedSecret: encryptSecret(consumerSecret, serverKey),
    },
  });
  await recordCredentialEvent(tx, owner, credentialEvents.createApiClient, {
    objectId: client.id,
    actorId: options.actorId ?? null,
  });
  return { id: client.id, userId: options.userId, name: client.name, consumerKey, consumerSecret };
}

export interface IssuedAccessToken {
  id: number;
  name: string;
  expiresAt: Date | null;
  /** Shown once; only its SHA-256 is stored. */
  token: string;
}

export async function issueAccessToken(options: {
  userId: number;
  name?: string;
  expiresInDays?: number | null;
  actorId?: number | null;
}): Promise<IssuedAccessToken> {
  const token = randomToken(32);
  const expiresAt = options.expiresInDays ? new Date(Date.now() + options.expiresInDays * 86_400_000) : null;
  return writeTransaction(async (tx) => {
    const owner = await credentialOwner(tx, options.userId);
    const created = await tx.accessToken.create({
      data: { userId: options.userId, name: options.name ?? '', tokenHash: hashToken(token), expiresAt },
    });
    await recordCredentialEvent(tx, owner, credentialEvents.createAccessToken, {
      objectId: created.id,
      actorId: options.actorId ?? null,
    });
    return { id: created.id, name: created.name, expiresAt, token };
  });
}

/** Credentials for the viewer, or for a user the viewer manages the credentials of. */
export async function issueApiClientFor(viewer: Viewer, serverKey: Buffer, input: unknown) {
  const { userId: named, name } = validate(apiClientSchema, input);
  const userId = named ? Number(named) : viewer.id;
  await authorize(viewer, credentialPolicy, 'issue', userId, userId);
  return issueApiClient(serverKey, { userId, name, actorId: viewer.id });
}

/** Bearer tokens are issued to the viewer only: a token for someone else would be handed to the wrong person. */
export async function issueAccessTokenFor(viewer: Viewer, input: unknown) {
  const options = validate(accessTokenSchema, input);
  return issueAccessToken({ userId: viewer.id, ...options, actorId: viewer.id });
}

/** How to find and delete one kind of credential, for the revocation both kinds share. */
interface CredentialStore {
  objectType: 'ApiClient' | 'AccessToken';
  revoked: EventKind;
  ownerOf(id: number): Promise<{ userId: number } | null>;
  /** The number of rows deleted: 0 when a concurrent revocation came first. */
  delete(tx: Prisma.TransactionClient, id: number): Promise<number>;
}

async function revoke(viewer: Viewer, store: CredentialStore, id: number) {
  const notFound = () => new NotFoundError(store.objectType, id);
  const credential = await findByStorableId(id, store.ownerOf);
  if (!credential) throw notFound();
  // A credential of a user the viewer does not see is as unknown as one that does not exist: its owner stays private.
  await authorize(viewer, credentialPolicy, 'revoke', credential.userId, id, store.objectType);
  await writeTransaction(async (tx) => {
    const owner = await credentialOwner(tx, credential.userId);
    // deleteMany: a concurrent revocation of the same credential is a NotFoundError, not a failed delete (500).
    if ((await store.delete(tx, id)) === 0) throw notFound();
    await recordCredentialEvent(tx, owner, store.revoked, { objectId: id, actorId: viewer.id });
  });
  forgetCredentialsOf(credential.userId);
  return { id };
}

const credentialStores: Record<'apiClient' | 'accessToken', CredentialStore> = {
  apiClient: {
    objectType: 'ApiClient',
    revoked: credentialEvents.deleteApiClient,
    ownerOf: (id) => db().apiClient.findUnique({ where: { id }, select: { userId: true } }),
    delete: async (tx, id) => (await tx.apiClient.deleteMany({ where: { id } })).count,
  },
  accessToken: {
    objectType: 'AccessToken',
    revoked: credentialEvents.deleteAccessToken,
    ownerOf: (id) => db().accessToken.findUnique({ where: { id }, select: { userId: true } }),
    delete: async (tx, id) => (await tx.accessToken.deleteMany({ where: { id } })).count,
  },
};

export const revokeApiClient = (viewer: Viewer, id: number) => revoke(viewer, credentialStores.apiClient, id);
export const revokeAccessToken = (viewer: Viewer, id: number) => revoke(viewer, credentialStores.accessToken, id);
