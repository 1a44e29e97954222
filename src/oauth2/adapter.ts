// oidc-provider's storage on Prisma: one table for every model it keeps (src/oauth2/provider.ts), and its clients
// read from the district's registered apps.
import type { Adapter, AdapterPayload, ClientMetadata } from 'oidc-provider';
import { forgetCredentialsOf } from '../auth/credential-cache';
import { decryptSecret, hashToken } from '../auth/secrets';
import { db } from '../db/database';
import type { Prisma } from '../generated/prisma/client';
import { userIdOfAccount } from './accounts';
import { firstPartyClient } from './first-party';

/**
 * An app as an OAuth 2.0 client: its consumer key is the client_id; a confidential app authenticates with its consumer
 * secret (Basic or in the form), a public one with none (PKCE alone). An app with no redirect URI cannot be one.
 * Custom schemes (`com.example.app:/callback`) make it a native client, whose http redirects must be loopback ones.
 */
async function clientOf(consumerKey: string, serverKey: Buffer): Promise<ClientMetadata | undefined> {
  const app = await db().app.findUnique({
    where: { consumerKey },
    select: { name: true, redirectUris: true, clientType: true, encryptedSecret: true },
  });
  if (!app || app.redirectUris.length === 0) return undefined;
  const confidential = app.clientType === 'CONFIDENTIAL';
  return {
    client_id: consumerKey,
    client_name: app.name,
    redirect_uris: app.redirectUris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    application_type: app.redirectUris.every((uri) => /^https?:/i.test(uri)) ? 'web' : 'native',
    ...(confidential
      ? {
          client_secret: decryptSecret(app.encryptedSecret, serverKey),
          token_endpoint_auth_method: 'client_secret_basic',
        }
      : { token_endpoint_auth_method: 'none' }),
  };
}

/** Tokens whose removal empties their user's credential cache here at once (other instances follow within 1 s). */
const credentialKinds = new Set(['AccessToken', 'RefreshToken']);

/**
 * One oidc-provider model's records. Ids are stored as SHA-256 hashes, as Lectern's other tokens are: for codes and
 * tokens the id is the credential itself. The user and app columns tie records to their user and app, so deleting
 * either (or `revokeAppAuthorization`) deletes them.
 */
class RecordAdapter implements Adapter {
  constructor(private readonly kind: string) {}

  private key(id: string) {
    return { kind_id: { kind: this.kind, id: hashToken(id) } };
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const userId = payload.accountId ? userIdOfAccount(payload.accountId) : null;
    const appId = payload.clientId
      ? ((await db().app.findUnique({ where: { consumerKey: payload.clientId }, select: { id: true } }))?.id ?? null)
      : null;
    const columns = {
      payload: payload as Prisma.InputJsonValue,
      grantId: payload.grantId ?? null,
      uid: payload.uid ?? null,
      userId,
      appId,
      expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
    };
    await db().oAuth2Record.upsert({
      where: this.key(id),
      create: { kind: this.kind, id: hashToken(id), ...columns },
      update: columns,
    });
  }

  private async findWhere(where: Prisma.OAuth2RecordWhereInput): Promise<AdapterPayload | undefined> {
    const row = await db().oAuth2Record.findFirst({
      where: { ...where, kind: this.kind, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] },
      select: { payload: true, consumedAt: true },
    });
    if (!row) return undefined;
    const payload = row.payload as AdapterPayload;
    return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
  }

  find(id: string) {
    return this.findWhere({ id: hashToken(id) });
  }

  findByUid(uid: string) {
    return this.findWhere({ uid });
  }

  // The device flow, the only user of user codes, is off.
  async findByUserCode(): Promise<undefined> {
    return undefined;
  }

  async consume(id: string): Promise<void> {
    await db().oAuth2Record.updateMany({ where: this.key(id).kind_id, data: { consumedAt: new Date() } });
  }

  async destroy(id: string): Promise<void> {
    const row = await db().oAuth2Record.findUnique({ where: this.key(id), select: { userId: true } });
    await db().oAuth2Record.deleteMany({ where: this.key(id).kind_id });
    if (row?.userId && credentialKinds.has(this.kind)) forgetCredentialsOf(row.userId);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    const rows = await db().oAuth2Record.findMany({
      where: { kind: this.kind, grantId },
      select: { userId: true },
      distinct: ['userId'],
    });
    await db().oAuth2Record.deleteMany({ where: { kind: this.kind, grantId } });
    for (const { userId } of rows) if (userId && credentialKinds.has(this.kind)) forgetCredentialsOf(userId);
  }
}

/** Clients are the apps, and Lectern's own (first-party.ts): read, never written (apps are registered through GraphQL). */
class AppClientAdapter extends RecordAdapter {
  constructor(
    private readonly serverKey: Buffer,
    private readonly issuer: string,
  ) {
    super('Client');
  }

  override async find(id: string) {
    return (firstPartyClient(id, this.issuer) ?? (await clientOf(id, this.serverKey))) as AdapterPayload | undefined;
  }
}

/** oidc-provider's `adapter` option: a factory by model name. */
export const recordAdapter = (serverKey: Buffer, issuer: string) => (kind: string) =>
  kind === 'Client' ? new AppClientAdapter(serverKey, issuer) : new RecordAdapter(kind);

/** Forgets records past their lifetime; any instance may run it (beside the other sweeps). */
export async function pruneOAuth2Records(): Promise<number> {
  const { count } = await db().oAuth2Record.deleteMany({ where: { expiresAt: { lte: new Date() } } });
  return count;
}
