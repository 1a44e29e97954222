import { encryptSecret, hashToken, randomToken } from '../../auth/secrets';
import { accessTo } from '../../auth/permissions';
import type { Viewer } from '../../auth/viewer';
import { db } from '../../db/database';
import { recordEvent, writeTransaction } from '../../events/record';
import type { Prisma } from '../../generated/prisma/client';
import { NotFoundError, forbidden } from '../../graphql/errors';

export interface IssuedApiClient {
  id: number;
  userId: number;
  name: string;
  consumerKey: string;
  /** Shown once, when issued; only its encryption is stored. */
  consumerSecret: string;
}

/** Records a credential event in the realm of the user the credential belongs to; an unknown user is NotFound. */
async function recordCredentialEvent(
  tx: Prisma.TransactionClient,
  event: { type: string; userId: number; objectId: number; actorId: number | null },
) {
  const user = await tx.user.findUnique({
    where: { id: event.userId },
    select: { schoolId: true, school: { select: { districtId: true } } },
  });
  if (!user) throw new NotFoundError('User', event.userId);
  await recordEvent(tx, {
    type: event.type,
    realm: { type: 'USER', id: event.userId },
    objectId: event.objectId,
    actorId: event.actorId,
    districtId: user.school.districtId,
    schoolId: user.schoolId,
  });
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
  const client = await tx.apiClient.create({
    data: { userId: options.userId, name: options.name ?? '', consumerKey, encryptedSecret: encryptSecret(consumerSecret, serverKey) },
  });
  await recordCredentialEvent(tx, {
    type: 'api_client.create',
    userId: options.userId,
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

export async function issueAccessToken(
  options: { userId: number; name?: string; expiresInDays?: number | null; actorId?: number | null },
): Promise<IssuedAccessToken> {
  const token = randomToken(32);
  const expiresAt = options.expiresInDays ? new Date(Date.now() + options.expiresInDays * 86_400_000) : null;
  return writeTransaction(async (tx) => {
    const created = await tx.accessToken.create({
      data: { userId: options.userId, name: options.name ?? '', tokenHash: hashToken(token), expiresAt },
    });
    await recordCredentialEvent(tx, {
      type: 'access_token.create',
      userId: options.userId,
      objectId: created.id,
      actorId: options.actorId ?? null,
    });
    return { id: created.id, name: created.name, expiresAt, token };
  });
}

/** Users manage their own credentials; their school's administrators manage theirs too. */
export async function assertManagesCredentialsOf(viewer: Viewer, userId: number) {
  const result = await accessTo(viewer, { type: 'USER', id: userId });
  if (!result || result.access === 'hidden') throw new NotFoundError('User', userId);
  if (result.access !== 'administer') throw forbidden('You may not manage this user\'s credentials');
}

export async function revokeApiClient(viewer: Viewer, id: number) {
  const client = await db().apiClient.findUnique({ where: { id }, select: { userId: true } });
  if (!client) throw new NotFoundError('ApiClient', id);
  await assertManagesCredentialsOf(viewer, client.userId);
  await writeTransaction(async (tx) => {
    await tx.apiClient.delete({ where: { id } });
    await recordCredentialEvent(tx, { type: 'api_client.delete', userId: client.userId, objectId: id, actorId: viewer.id });
  });
  return { id };
}

export async function revokeAccessToken(viewer: Viewer, id: number) {
  const token = await db().accessToken.findUnique({ where: { id }, select: { userId: true } });
  if (!token) throw new NotFoundError('AccessToken', id);
  await assertManagesCredentialsOf(viewer, token.userId);
  await writeTransaction(async (tx) => {
    await tx.accessToken.delete({ where: { id } });
    await recordCredentialEvent(tx, { type: 'access_token.delete', userId: token.userId, objectId: id, actorId: viewer.id });
  });
  return { id };
}
