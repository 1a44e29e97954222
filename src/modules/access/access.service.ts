import { encryptSecret, hashToken, randomToken } from '../../auth/secrets';
import { accessTo, findByStorableId } from '../../auth/permissions';
import type { Viewer } from '../../auth/viewer';
import { db } from '../../db/database';
import { recordEvent, writeTransaction } from '../../events/record';
import type { Prisma } from '../../generated/prisma/client';
import { NotFoundError, forbidden } from '../../core/errors';

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
  event: { type: string; objectId: number; actorId: number | null },
) {
  return recordEvent(tx, {
    type: event.type,
    realm: { type: 'USER', id: owner.userId },
    objectId: event.objectId,
    actorId: event.actorId,
    districtId: owner.districtId,
    schoolId: owner.schoolId,
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
  const owner = await credentialOwner(tx, options.userId);
  const client = await tx.apiClient.create({
    data: { userId: options.userId, name: options.name ?? '', consumerKey, encryptedSecret: encryptSecret(consumerSecret, serverKey) },
  });
  await recordCredentialEvent(tx, owner, { type: 'api_client.create', objectId: client.id, actorId: options.actorId ?? null });
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
    const owner = await credentialOwner(tx, options.userId);
    const created = await tx.accessToken.create({
      data: { userId: options.userId, name: options.name ?? '', tokenHash: hashToken(token), expiresAt },
    });
    await recordCredentialEvent(tx, owner, { type: 'access_token.create', objectId: created.id, actorId: options.actorId ?? null });
    return { id: created.id, name: created.name, expiresAt, token };
  });
}

/**
 * Users manage their own credentials, and whoever administers their user realm manages theirs too (permissions.ts:
 * not a school administrator for a district administrator, whose credentials would lend district powers).
 * `hidden` names what the viewer looked for when the user is not visible: the user itself, or a credential of theirs
 * (whose owner must not be revealed).
 */
export async function assertManagesCredentialsOf(
  viewer: Viewer,
  userId: number,
  hidden: () => Error = () => new NotFoundError('User', userId),
) {
  const result = await accessTo(viewer, { type: 'USER', id: userId });
  if (!result || result.access === 'hidden') throw hidden();
  if (result.access !== 'administer') throw forbidden('You may not manage this user\'s credentials');
}

export async function revokeApiClient(viewer: Viewer, id: number) {
  const notFound = () => new NotFoundError('ApiClient', id);
  const client = await findByStorableId(id, (id) => db().apiClient.findUnique({ where: { id }, select: { userId: true } }));
  if (!client) throw notFound();
  await assertManagesCredentialsOf(viewer, client.userId, notFound);
  await writeTransaction(async (tx) => {
    const owner = await credentialOwner(tx, client.userId);
    // deleteMany: a concurrent revocation of the same client is a NotFoundError, not a failed delete (500).
    if ((await tx.apiClient.deleteMany({ where: { id } })).count === 0) throw notFound();
    await recordCredentialEvent(tx, owner, { type: 'api_client.delete', objectId: id, actorId: viewer.id });
  });
  return { id };
}

export async function revokeAccessToken(viewer: Viewer, id: number) {
  const notFound = () => new NotFoundError('AccessToken', id);
  const token = await findByStorableId(id, (id) => db().accessToken.findUnique({ where: { id }, select: { userId: true } }));
  if (!token) throw notFound();
  await assertManagesCredentialsOf(viewer, token.userId, notFound);
  await writeTransaction(async (tx) => {
    const owner = await credentialOwner(tx, token.userId);
    if ((await tx.accessToken.deleteMany({ where: { id } })).count === 0) throw notFound();
    await recordCredentialEvent(tx, owner, { type: 'access_token.delete', objectId: id, actorId: viewer.id });
  });
  return { id };
}
