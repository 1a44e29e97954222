import { listenToRealms } from '../outbox/bus';
import type { ViewerUser } from './viewer';

/** What a bearer token stands for: its row and its user. */
export interface CachedBearer {
  /** The access token's row (AccessToken), or for an OAuth 2.0 token its record (src/oauth2/). */
  tokenId: number | { oauth2RecordId: string };
  expiresAt: number | null;
  user: ViewerUser;
}

/** What a consumer key stands for: its decrypted secret and its user. */
export interface CachedClient {
  secret: string;
  user: ViewerUser;
}

/** What an app's consumer key and access token stand for (three legs): both decrypted secrets and the approving user. */
export interface CachedAppToken {
  tokenId: number;
  consumerSecret: string;
  tokenSecret: string;
  user: ViewerUser;
}

type Kind = 'bearers' | 'clients' | 'appTokens';

interface Entry<Value> {
  value: Promise<Value | null>;
  /** Until when the entry may answer (Date.now() milliseconds). */
  freshUntil: number;
  userId: number | null;
}

export interface CredentialCacheOptions {
  /**
   * How long an entry answers without asking the database: the bound on how late a change reaches this instance when
   * nothing announces it (CREDENTIAL_CACHE_MS, 1,000 by default; 0 turns the cache off).
   */
  maxAgeMs: number;
  /** Entries kept at most; the oldest go first. */
  maxEntries?: number;
}

/**
 * Bearer token hash -> viewer, and consumer key -> (secret, viewer), so that a request whose credential was seen
 * within `maxAgeMs` needs no SQL statement to authenticate. Unknown credentials are not remembered (every attempt
 * with one reads the database, and the failure guard counts it).
 *
 * How a revocation, or a change of the user a credential stands for, reaches every instance within 1 s:
 * - every entry answers for at most `maxAgeMs` (1 s by default) after it was read from the database: the guarantee,
 *   whatever changed and however (a revocation, a role or school changed, a user deleted, a row edited by hand);
 * - at once on the instance that revokes (forgetCredentialsOf, called by the revocation);
 * - sooner in the usual case elsewhere: the cache follows the committed domain-event log (src/outbox/bus.ts) for the USER realm
 *   of every user it holds, where revocations are recorded (`api_client.delete`, `access_token.delete`,
 *   `app_authorization.delete`), and drops
 *   that user's entries on any event there. The instance that commits wakes its follower at once; with REDIS_URL every
 *   instance is told of each commit over Redis pub/sub and reads the log at once too; without Redis the others read it
 *   at their next poll (1 s).
 */
/** The caches of this process, so that a revocation committed here empties them at once. */
const caches = new Set<WeakRef<CredentialCache>>();

/**
 * Drops the user's entries from every cache of this process, for the code that revokes a credential once its
 * transaction has committed; other instances learn of it from the event log.
 */
export function forgetCredentialsOf(userId: number): void {
  for (const ref of caches) {
    const cache = ref.deref();
    if (cache) cache.forgetUser(userId);
    else caches.delete(ref);
  }
}

export class CredentialCache {
  private readonly bearers = new Map<string, Entry<CachedBearer>>();
  private readonly clients = new Map<string, Entry<CachedClient>>();
  private readonly appTokens = new Map<string, Entry<CachedAppToken>>();
  /** Per user held: the keys of their entries and the subscription to their USER realm's events. */
  private readonly users = new Map<number, Record<Kind, Set<string>> & { stop(): void }>();
  private readonly maxEntries: number;

  constructor(private readonly options: CredentialCacheOptions) {
    this.maxEntries = options.maxEntries ?? 10_000;
    caches.add(new WeakRef(this));
  }

  /** The bearer token with this hash, from the cache while fresh, otherwise from `load` (null: unknown). */
  bearer(tokenHash: string, load: () => Promise<CachedBearer | null>): Promise<CachedBearer | null> {
    return this.lookup(this.bearers, 'bearers', tokenHash, load);
  }

  /** The API client with this consumer key, from the cache while fresh, otherwise from `load` (null: unknown). */
  client(consumerKey: string, load: () => Promise<CachedClient | null>): Promise<CachedClient | null> {
    return this.lookup(this.clients, 'clients', consumerKey, load);
  }

  /**
   * The app access token `token` signed for with `consumerKey`, from the cache while fresh, otherwise from `load`
   * (null: unknown, or another app's token). Keyed by both, so another app's key never finds this token's entry.
   */
  appToken(consumerKey: string, token: string, load: () => Promise<CachedAppToken | null>) {
    return this.lookup(this.appTokens, 'appTokens', `${consumerKey}\n${token}`, load);
  }

  /** Drops every entry of the user: the next request with any of their credentials reads the database. */
  forgetUser(userId: number): void {
    const held = this.users.get(userId);
    if (!held) return;
    this.users.delete(userId);
    held.stop();
    for (const key of held.bearers) this.bearers.delete(key);
    for (const key of held.clients) this.clients.delete(key);
    for (const key of held.appTokens) this.appTokens.delete(key);
  }

  /** Drops everything and stops following the event log. */
  clear(): void {
    for (const userId of [...this.users.keys()]) this.forgetUser(userId);
    this.bearers.clear();
    this.clients.clear();
    this.appTokens.clear();
  }

  get size(): number {
    return this.bearers.size + this.clients.size + this.appTokens.size;
  }

  private lookup<Value extends { user: ViewerUser }>(
    entries: Map<string, Entry<Value>>,
    kind: Kind,
    key: string,
    load: () => Promise<Value | null>,
  ): Promise<Value | null> {
    if (this.options.maxAgeMs <= 0) return load();
    const now = Date.now();
    const cached = entries.get(key);
    if (cached && cached.freshUntil > now) return cached.value;
    if (cached) this.drop(entries, kind, key, cached);
    const entry: Entry<Value> = { value: load(), freshUntil: now + this.options.maxAgeMs, userId: null };
    entries.set(key, entry);
    this.evictOldest(entries, kind);
    entry.value.then(
      (value) => {
        // Unknown credentials are not kept; nor is an answer an invalidation overtook while it was being read.
        if (!value || entries.get(key) !== entry) {
          if (entries.get(key) === entry) entries.delete(key);
          return;
        }
        entry.userId = value.user.id;
        this.follow(value.user.id)[kind].add(key);
      },
      () => {
        if (entries.get(key) === entry) entries.delete(key);
      },
    );
    return entry.value;
  }

  private follow(userId: number) {
    let held = this.users.get(userId);
    if (!held) {
      const listening = listenToRealms([{ type: 'USER', id: userId }], () => this.forgetUser(userId));
      held = { bearers: new Set(), clients: new Set(), appTokens: new Set(), stop: listening.stop };
      this.users.set(userId, held);
    }
    return held;
  }

  private drop<Value>(entries: Map<string, Entry<Value>>, kind: Kind, key: string, entry: Entry<Value>) {
    entries.delete(key);
    if (entry.userId === null) return;
    const held = this.users.get(entry.userId);
    if (!held) return;
    held[kind].delete(key);
    if (held.bearers.size === 0 && held.clients.size === 0 && held.appTokens.size === 0) {
      this.users.delete(entry.userId);
      held.stop();
    }
  }

  private evictOldest<Value>(entries: Map<string, Entry<Value>>, kind: Kind) {
    while (entries.size > this.maxEntries) {
      const [oldestKey, oldest] = entries.entries().next().value as [string, Entry<Value>];
      this.drop(entries, kind, oldestKey, oldest);
    }
  }
}
