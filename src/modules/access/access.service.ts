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
  const user = await tx.user.findUnique({
    where: { id: options.userId },
    select: { schoolId: true, school: { select: { districtId: true } } },
  });
  if (!user) throw new NotFoundError('User', options.userId);
  const client = await tx.apiClient.create({
    data: { userId: options.userId, name: options.name ?? '', consumerKey, encryptedSecret: encryptSecret(consumerSecret, serverKey) },
  });
  await recordEvent(tx, {
    type: 'api_client.create',
    realm: { type: 'USER', id: options.userId },
    objectId: client.id,
    actorId: options.actorId ?? null,
    districtId: user.school.districtId,
    schoolId: user.schoolId,
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
    const user = await tx.user.findUnique({
      where: { id: options.userId },
      select: { schoolId: true, school: { select: { districtId: true } } },
    });
    if (!user) throw new NotFoundError('User', options.userId);
    const created = await tx.accessToken.create({
      data: { userId: options.userId, name: options.name ?? '', tokenHash: hashToken(token), expiresAt },
    });
    await recordEvent(tx, {
      type: 'access_token.create',
      realm: { type: 'USER', id: options.userId },
      objectId: created.id,
      actorId: options.actorId ?? null,
      districtId: user.school.districtId,
      schoolId: user.schoolId,
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

async function ownerScope(userId: number) {
  const user = await db().user.findUniqueOrThrow({
    where: { id: userId },
    select: { schoolId: true, school: { select: { districtId: true } } },
  });
  return { districtId: user.school.districtId, schoolId: user.schoolId };
}

export async function revokeApiClient(viewer: Viewer, id: number) {
  const client = await db().apiClient.findUnique({ where: { id }, select: { userId: true } });
  if (!client) throw new NotFoundError('ApiClient', id);
  await assertManagesCredentialsOf(viewer, client.userId);
  const scope = await ownerScope(client.userId);
  await writeTransaction(async (tx) => {
    await tx.apiClient.delete({ where: { id } });
    await recordEvent(tx, {
      type: 'api_client.delete',
      realm: { type: 'USER', id: client.userId },
      objectId: id,
      actorId: viewer.id,
      ...scope,
    });
  });
  return { id };
}

export async function revokeAccessToken(viewer: Viewer, id: number) {
  const token = await db().accessToken.findUnique({ where: { id }, select: { userId: true } });
  if (!token) throw new NotFoundError('AccessToken', id);
  await assertManagesCredentialsOf(viewer, token.userId);
  const scope = await ownerScope(token.userId);
  await writeTransaction(async (tx) => {
    await tx.accessToken.delete({ where: { id } });
    await recordEvent(tx, {
      type: 'access_token.delete',
      realm: { type: 'USER', id: token.userId },
      objectId: id,
      actorId: viewer.id,
      ...scope,
    });
  });
  return { id };
}
