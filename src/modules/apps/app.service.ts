import { credentialPolicy } from '../access/access.policy';
import { forgetCredentialsOf } from '../../auth/credential-cache';
import { authorize } from '../../auth/policy';
import { findByStorableId } from '../../auth/realms';
import { encryptSecret, randomToken } from '../../auth/secrets';
import type { Viewer } from '../../auth/viewer';
import { NotFoundError } from '../../core/errors';
import { validate } from '../../core/validation';
import { db } from '../../db/database';
import type { App, Prisma } from '../../generated/prisma/client';
import type { PrismaQuery } from '../../graphql/operations';
import { recordEvents, writeTransaction } from '../../outbox/record';
import { appEvents } from './app.events';
import { appPolicy } from './app.policy';
import { registerAppSchema, revokeAppAuthorizationSchema, updateAppSchema } from './app.validation';

export interface RegisteredApp {
  id: number;
  consumerKey: string;
  /** Shown once, when registered; only its encryption is stored. */
  consumerSecret: string;
}

/** Registers an app in the viewer's district: district administrators only. */
export async function registerApp(viewer: Viewer, serverKey: Buffer, input: unknown): Promise<RegisteredApp> {
  const { districtId } = viewer.user;
  await authorize(viewer, appPolicy, 'manage', districtId, districtId, 'District');
  const { name, description, redirectUris, clientType } = validate(registerAppSchema, input);
  const consumerKey = randomToken(16);
  const consumerSecret = randomToken(24);
  const app = await db().app.create({
    data: {
      districtId,
      name,
      description: description ?? '',
      redirectUris: redirectUris ?? [],
      clientType: clientType ?? 'CONFIDENTIAL',
      consumerKey,
      encryptedSecret: encryptSecret(consumerSecret, serverKey),
    },
    select: { id: true },
  });
  return { id: app.id, consumerKey, consumerSecret };
}

/** The app, once the viewer may manage it; an app of another district is not found. */
async function managedApp(viewer: Viewer, id: number) {
  const app = await findByStorableId(id, (storable) =>
    db().app.findUnique({ where: { id: storable }, select: { districtId: true } }),
  );
  if (!app) throw new NotFoundError('App', id);
  await authorize(viewer, appPolicy, 'manage', app.districtId, id);
  return app;
}

export async function updateApp(viewer: Viewer, id: number, input: unknown, select: PrismaQuery): Promise<App> {
  await managedApp(viewer, id);
  const changes = validate(updateAppSchema, input);
  try {
    return await db().app.update({ ...select, where: { id }, data: changes });
  } catch (error) {
    // Deleted by someone else since it was read.
    if ((error as { code?: string }).code === 'P2025') throw new NotFoundError('App', id);
    throw error;
  }
}

/** The users' scopes, for the revocation events recorded in their realms. */
async function revocationEvents(
  tx: Prisma.TransactionClient,
  authorizations: { id: number; userId: number }[],
  actorId: number,
) {
  const users = await tx.user.findMany({
    where: { id: { in: authorizations.map(({ userId }) => userId) } },
    select: { id: true, schoolId: true, school: { select: { districtId: true } } },
  });
  const byId = new Map(users.map((user) => [user.id, user]));
  await recordEvents(
    tx,
    appEvents.revoke,
    authorizations.map(({ id, userId }) => ({
      realm: { type: 'USER' as const, id: userId },
      objectId: id,
      actorId,
      scope: { districtId: byId.get(userId)!.school.districtId, schoolId: byId.get(userId)!.schoolId },
    })),
  );
}

/**
 * Deletes the app and so every authorization, access token and request token of it, with a revocation event in each
 * user's realm (the other instances' credential caches follow them); this instance's caches forget at once.
 */
export async function deleteApp(viewer: Viewer, id: number): Promise<{ id: number }> {
  await managedApp(viewer, id);
  const revoked = await writeTransaction(async (tx) => {
    const authorizations = await tx.appAuthorization.findMany({
      where: { appId: id },
      select: { id: true, userId: true },
    });
    if ((await tx.app.deleteMany({ where: { id } })).count === 0) throw new NotFoundError('App', id);
    await revocationEvents(tx, authorizations, viewer.id);
    return authorizations;
  });
  for (const { userId } of revoked) forgetCredentialsOf(userId);
  return { id };
}

/**
 * Revokes an app's access to a user (the viewer when `userId` is left out): the authorization and its access tokens
 * (OAuth 1.0a and 2.0) go; an administrator who manages the user's credentials may revoke it too. Unknown when the app does not act for
 * the user.
 */
export async function revokeAppAuthorization(viewer: Viewer, input: unknown) {
  const { appId: appIdText, userId: named } = validate(revokeAppAuthorizationSchema, input);
  const [appId, userId] = [Number(appIdText), named ? Number(named) : viewer.id];
  await authorize(viewer, credentialPolicy, 'revoke', userId, userId, 'User');
  const authorization = await findByStorableId(appId, (storable) =>
    db().appAuthorization.findUnique({ where: { userId_appId: { userId, appId: storable } }, select: { id: true } }),
  );
  if (!authorization) throw new NotFoundError('App', appId);
  await writeTransaction(async (tx) => {
    if ((await tx.appAuthorization.deleteMany({ where: { id: authorization.id } })).count === 0)
      throw new NotFoundError('App', appId);
    // OAuth 2.0: the grant, its codes and tokens, whose records hang off the user and app rather than the approval.
    await tx.oAuth2Record.deleteMany({ where: { userId, appId } });
    await revocationEvents(tx, [{ id: authorization.id, userId }], viewer.id);
  });
  forgetCredentialsOf(userId);
  return { appId, userId };
}
