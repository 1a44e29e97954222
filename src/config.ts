import { z } from 'zod';

/** Requests allowed per window and consumer key, or null when rate limiting is off. */
export interface RateLimit {
  points: number;
  windowSeconds: number;
}

/**
 * Whether the server seeds the demo district into a database without any district when it starts: `auto` on the
 * embedded database only, `on` on PostgreSQL too, `off` never.
 */
export type SeedDemoMode = 'auto' | 'on' | 'off';

/**
 * Counted per window, each null when off: failed authentications per client address and per consumer key, and
 * requests without a credential per client address.
 */
export interface AuthFailureLimits {
  perAddress: RateLimit | null;
  perConsumerKey: RateLimit | null;
  anonymousPerAddress: RateLimit | null;
}

/** An S3-compatible bucket for uploaded files (S3_*); the folder DATA_DIR/files when not configured. */
export interface S3Settings {
  bucket: string;
  region: string;
  /** An S3-compatible service's URL (MinIO, Ceph, ...); AWS when null. */
  endpoint: string | null;
  /** Path-style URLs (`endpoint/bucket/key`), which most S3-compatible services need. */
  forcePathStyle: boolean;
  /** Static credentials; the AWS SDK's default chain (environment, instance role) when null. */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  /** Prefix of every object key, so one bucket can serve several installations. */
  prefix: string;
}

/** Where `/metrics` is served (METRICS_*); metrics are off when neither a port nor a token is set. */
export interface MetricsSettings {
  /** A listener of its own for `/metrics`, on `host`; null: only the main port serves it, behind the token. */
  port: number | null;
  host: string;
  /** The bearer token a scrape must send, on either port; null: the metrics port is open to whoever reaches it. */
  token: string | null;
}

/**
 * An upstream OpenID Connect provider a district's people sign in with (OIDC_PROVIDERS, docs/sign-in.md): Google
 * Workspace, Microsoft Entra or another issuer with discovery.
 */
export interface OidcProviderSettings {
  /** Short slug in the provider's URLs: `/sign-in/oidc/{id}`. */
  id: string;
  /** Shown on the sign-in page's button: "Sign in with {name}". */
  name: string;
  issuer: URL;
  clientId: string;
  clientSecret: string;
  /** The district whose users this provider signs in; nobody of another district. */
  districtId: number;
}

export interface Config {
  host: string;
  port: number;
  /** Base URL clients call (behind a proxy); links and OAuth signatures use it when set. */
  publicUrl: URL | null;
  /** Hosts (`host[:port]`, lower case) whose Host header links may be built from when PUBLIC_URL is not set. */
  allowedHosts: ReadonlySet<string>;
  /** Proxies in front of the server appending to X-Forwarded-For; 0: the socket's peer is the client. */
  trustProxyHops: number;
  authFailureLimits: AuthFailureLimits;
  /** Failed sign-ins on the sign-in page per account (or per name nobody has), or null when off. */
  signInFailuresPerAccount: RateLimit | null;
  /** How long a browser stays signed in from its sign-in, in milliseconds (docs/sign-in.md). */
  sessionLifetimeMs: number;
  /** How long a sign-in link works from when it was made, in milliseconds. */
  signInLinkLifetimeMs: number;
  /** Identity providers the sign-in page offers beside the password. */
  oidcProviders: OidcProviderSettings[];
  dataDir: string;
  databaseUrl: string | null;
  /** Server key that encrypts consumer secrets; read from DATA_DIR when null (embedded default only). */
  secretKey: string | null;
  redisUrl: string | null;
  rateLimit: RateLimit | null;
  bodyLimitBytes: number;
  /** Bytes of long text (bodies, descriptions, event objects) one answer may hold: past them it stops with a 400. */
  responseLimitBytes: number;
  /** Largest uploaded file (`PUT /v1/upload/{id}`), in bytes. */
  uploadLimitBytes: number;
  /** How long an upload may stay unattached before the sweep removes it, in milliseconds. */
  uploadUnattachedTtlMs: number;
  /** What one web content package may unpack to: files, bytes in all, and bytes per compressed byte of an entry. */
  webPackageLimits: WebPackageLimits;
  s3: S3Settings | null;
  /** Deadline of one GraphQL execution (and of one PostgreSQL statement), in milliseconds. */
  queryTimeoutMs: number;
  /** Concurrent GraphQL subscriptions one credential may hold in this instance (graphql-ws and SSE together). */
  subscriptionsPerCredential: number;
  oauthSkewSeconds: number;
  /** How long a credential read from the database answers for this instance, in ms (see src/auth/credential-cache.ts). */
  credentialCacheMs: number;
  bootstrap: { consumerKey: string; consumerSecret: string } | null;
  seedDemo: SeedDemoMode;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  webhooks: WebhookAddressPolicy;
  /** How long a webhook receiver has to answer one attempt, in milliseconds; leases are sized from it. */
  webhookTimeoutMs: number;
  /** Days the delivery log keeps finished deliveries (and their attempts). */
  webhookLogRetentionDays: number;
  /** Origins (`https://host[:port]`) whose scripts may call the APIs (CORS); any origin when null. */
  corsOrigins: ReadonlySet<string> | null;
  /** A persisted-query manifest (TRUSTED_DOCUMENTS): /graphql then runs only the operations it lists. */
  trustedDocumentsPath: string | null;
  metrics: MetricsSettings | null;
}

/**
 * Which webhook target URLs may be used. By default only https to public addresses; development and tests open it for
 * named hosts (any address they resolve to, loopback included) and for plain http.
 */
export interface WebhookAddressPolicy {
  /** Hosts (`host` or `host:port`, lower case) exempt from the address check. */
  allowHosts: ReadonlySet<string>;
  /** Whether http:// targets are accepted besides https://. */
  allowHttp: boolean;
}

/** Limits on unpacking a web content package's zip, checked while inflating (WEB_PACKAGE_*). */
export interface WebPackageLimits {
  maxFiles: number;
  maxBytes: number;
  /** Largest ratio of an entry's unpacked to compressed size: more is a zip bomb. */
  maxRatio: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

const sizeUnits: Record<string, number> = {
  b: 1,
  kb: 1024,
  k: 1024,
  mb: 1024 ** 2,
  m: 1024 ** 2,
  gb: 1024 ** 3,
  g: 1024 ** 3,
};
/** Upload sizes are stored and served as 32-bit integers (GraphQL's Int). */
const maxUploadLimit = 2 ** 31 - 1;
const durationUnits: Record<string, number> = { s: 1, m: 60, h: 3600 };

const durationMs = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `10s`, `500ms`, `1m`, `24h`, `7d`; a bare number is seconds. */
function parseDurationMs(text: string): number | null {
  const match = /^(\d+)\s*(ms|s|m|h|d)?$/i.exec(text.trim());
  if (!match || Number(match[1]) < 1) return null;
  return Number(match[1]) * durationMs[(match[2] ?? 's').toLowerCase() as keyof typeof durationMs];
}

const hostPattern = /^(?:[a-z\d-]+(?:\.[a-z\d-]+)*|\[[\da-f:.]+\])(?::\d{1,5})?$/;
const parseHostList = (text: string) =>
  text
    .split(',')
    .map((host) => host.trim().toLowerCase())
    .filter(Boolean);

function parseSize(text: string): number | null {
  const match = /^(\d+)\s*(b|kb?|mb?|gb?)?$/i.exec(text.trim());
  return match ? Number(match[1]) * sizeUnits[(match[2] ?? 'b').toLowerCase()] : null;
}

/** `15/5s` means 15 requests per 5 seconds; `off` disables the limiter. */
function parseRateLimit(text: string): RateLimit | null | undefined {
  if (text.trim().toLowerCase() === 'off') return null;
  const match = /^(\d+)\s*\/\s*(\d*)\s*(s|m|h)$/i.exec(text.trim());
  if (!match || Number(match[1]) < 1) return undefined;
  return { points: Number(match[1]), windowSeconds: Number(match[2] || 1) * durationUnits[match[3].toLowerCase()] };
}

const optional = z
  .string()
  .transform((value) => value.trim())
  .optional()
  .transform((value) => (value ? value : undefined));

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

const oidcProviderSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'must be a slug of up to 32 lower-case letters, digits and -'),
  name: z.string().trim().min(1, 'must not be empty').max(60, 'must be at most 60 characters'),
  // Plain http only on this machine, for a development or test provider.
  issuer: z.url({ protocol: /^https?$/, error: 'must be an https URL' }).refine((text) => {
    const url = new URL(text);
    return url.protocol === 'https:' || loopbackHosts.has(url.hostname);
  }, 'must be an https URL (http only for localhost)'),
  clientId: z.string().min(1, 'must not be empty'),
  clientSecret: z.string().min(1, 'must not be empty'),
  districtId: z.number().int().positive(),
});

const oidcProvidersSchema = z
  .string()
  .transform((text, context) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      context.addIssue({ code: 'custom', message: 'must be a JSON array of providers' });
      return z.NEVER;
    }
  })
  .pipe(
    z
      .array(oidcProviderSchema, { error: 'must be a JSON array of providers' })
      .refine((providers) => new Set(providers.map((p) => p.id)).size === providers.length, 'ids must be unique'),
  );

const environmentSchema = z.object({
  HOST: optional.default('127.0.0.1'),
  PORT: optional.pipe(z.coerce.number<string | undefined>().int().min(0).max(65535).default(4000)),
  PUBLIC_URL: optional.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
  ALLOWED_HOSTS: optional.default(''),
  TRUST_PROXY: optional.pipe(
    z
      .string()
      .regex(/^(off|\d{1,2})$/i, 'must be off or the number of proxies in front of the server')
      .default('off'),
  ),
  AUTH_FAILURES_PER_ADDRESS: optional.default('20/1m'),
  AUTH_FAILURES_PER_CONSUMER_KEY: optional.default('50/1m'),
  ANONYMOUS_REQUESTS_PER_ADDRESS: optional.default('60/1m'),
  SIGN_IN_FAILURES_PER_ACCOUNT: optional.default('10/15m'),
  SESSION_LIFETIME: optional.default('7d'),
  SIGN_IN_LINK_LIFETIME: optional.default('72h'),
  OIDC_PROVIDERS: optional.pipe(oidcProvidersSchema.optional()),
  DATA_DIR: optional.default('./.data'),
  DATABASE_URL: optional.pipe(z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgresql:// URL' }).optional()),
  SECRET_KEY: optional.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  REDIS_URL: optional.pipe(z.url({ protocol: /^rediss?$/, error: 'must be a redis:// URL' }).optional()),
  RATE_LIMIT: optional.default('15/5s'),
  BODY_LIMIT: optional.default('1mb'),
  RESPONSE_LIMIT: optional.default('32mb'),
  UPLOAD_LIMIT: optional.default('100mb'),
  UPLOAD_UNATTACHED_TTL: optional.default('24h'),
  WEB_PACKAGE_MAX_FILES: optional.pipe(z.coerce.number<string | undefined>().int().min(1).max(100_000).default(2_000)),
  WEB_PACKAGE_MAX_BYTES: optional.default('500mb'),
  WEB_PACKAGE_MAX_RATIO: optional.pipe(z.coerce.number<string | undefined>().int().min(1).max(10_000).default(100)),
  S3_BUCKET: optional.pipe(
    z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name')
      .optional(),
  ),
  S3_REGION: optional.default('us-east-1'),
  S3_ENDPOINT: optional.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
  S3_FORCE_PATH_STYLE: optional
    .transform((value) => value?.toLowerCase())
    .pipe(z.enum(['on', 'off'], { error: 'must be on or off' }).optional()),
  S3_ACCESS_KEY_ID: optional,
  S3_SECRET_ACCESS_KEY: optional,
  S3_PREFIX: optional.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9!_.*'()/-]*$/, "must be a key prefix of letters, digits and !_.*'()/-")
      .default(''),
  ),
  QUERY_TIMEOUT: optional.default('10s'),
  SUBSCRIPTIONS_PER_CREDENTIAL: optional.pipe(z.coerce.number<string | undefined>().int().min(1).default(25)),
  OAUTH_TIMESTAMP_SKEW: optional.pipe(z.coerce.number<string | undefined>().int().min(1).default(300)),
  CREDENTIAL_CACHE_MS: optional.pipe(z.coerce.number<string | undefined>().int().min(0).default(1000)),
  BOOTSTRAP_CONSUMER_KEY: optional,
  BOOTSTRAP_CONSUMER_SECRET: optional,
  SEED_DEMO: optional
    .transform((value) => value?.toLowerCase())
    .pipe(z.enum(['auto', 'on', 'off'], { error: 'must be auto, on or off' }).default('auto')),
  WEBHOOK_ALLOW_HOSTS: optional.default(''),
  WEBHOOK_ALLOW_HTTP: optional
    .transform((value) => value?.toLowerCase())
    .pipe(z.enum(['on', 'off'], { error: 'must be on or off' }).default('off')),
  WEBHOOK_LOG_RETENTION_DAYS: optional.pipe(z.coerce.number<string | undefined>().int().min(1).default(30)),
  WEBHOOK_TIMEOUT: optional.default('10s'),
  CORS_ORIGINS: optional.default('*'),
  TRUSTED_DOCUMENTS: optional,
  METRICS_PORT: optional.pipe(z.coerce.number<string | undefined>().int().min(1).max(65535).optional()),
  METRICS_HOST: optional,
  METRICS_TOKEN: optional.pipe(
    z
      .string()
      .min(16, 'must be at least 16 characters')
      .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
      .optional(),
  ),
  LOG_LEVEL: optional.pipe(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
});

/**
 * Checks across variables, run on the raw environment rather than as a refinement of the schema: zod skips
 * refinements once a field has failed, which would hide these problems behind an unrelated bad PORT.
 */
function crossFieldProblems(env: Record<string, string | undefined>): string[] {
  const value = (name: string) => env[name]?.trim() || undefined;
  const problems: string[] = [];
  if (value('DATABASE_URL') && !value('SECRET_KEY')) problems.push('SECRET_KEY: is required when DATABASE_URL is set');
  if (Boolean(value('BOOTSTRAP_CONSUMER_KEY')) !== Boolean(value('BOOTSTRAP_CONSUMER_SECRET'))) {
    const missing = value('BOOTSTRAP_CONSUMER_KEY') ? 'BOOTSTRAP_CONSUMER_SECRET' : 'BOOTSTRAP_CONSUMER_KEY';
    problems.push(`${missing}: BOOTSTRAP_CONSUMER_KEY and BOOTSTRAP_CONSUMER_SECRET must be set together`);
  }
  if (parseRateLimit(value('RATE_LIMIT') ?? '15/5s') === undefined) {
    problems.push('RATE_LIMIT: must look like 15/5s, 100/1m or off');
  }
  if (parseDurationMs(value('QUERY_TIMEOUT') ?? '10s') === null) {
    problems.push('QUERY_TIMEOUT: must be a duration such as 10s, 500ms or 1m');
  }
  for (const name of [
    'AUTH_FAILURES_PER_ADDRESS',
    'AUTH_FAILURES_PER_CONSUMER_KEY',
    'ANONYMOUS_REQUESTS_PER_ADDRESS',
    'SIGN_IN_FAILURES_PER_ACCOUNT',
  ]) {
    const text = value(name);
    if (text && parseRateLimit(text) === undefined) problems.push(`${name}: must look like 20/1m, 5/10s or off`);
  }
  const badHosts = parseHostList(value('ALLOWED_HOSTS') ?? '').filter((host) => !hostPattern.test(host));
  if (badHosts.length) problems.push(`ALLOWED_HOSTS: not a host or host:port: ${badHosts.join(', ')}`);
  const badWebhookHosts = parseHostList(value('WEBHOOK_ALLOW_HOSTS') ?? '').filter((host) => !hostPattern.test(host));
  if (badWebhookHosts.length)
    problems.push(`WEBHOOK_ALLOW_HOSTS: not a host or host:port: ${badWebhookHosts.join(', ')}`);
  if (parseSize(value('BODY_LIMIT') ?? '1mb') === null) {
    problems.push('BODY_LIMIT: must be a size such as 1mb, 512kb or 65536');
  }
  const responseLimit = parseSize(value('RESPONSE_LIMIT') ?? '32mb');
  if (responseLimit === null || responseLimit < 1 || responseLimit > Number.MAX_SAFE_INTEGER) {
    problems.push('RESPONSE_LIMIT: must be a size such as 32mb, 4mb or 1gb');
  }
  const s3Variables = [
    'S3_REGION',
    'S3_ENDPOINT',
    'S3_FORCE_PATH_STYLE',
    'S3_ACCESS_KEY_ID',
    'S3_SECRET_ACCESS_KEY',
    'S3_PREFIX',
  ];
  const strayS3 = s3Variables.filter((name) => value(name));
  if (!value('S3_BUCKET') && strayS3.length) problems.push(`S3_BUCKET: is required with ${strayS3.join(', ')}`);
  if (Boolean(value('S3_ACCESS_KEY_ID')) !== Boolean(value('S3_SECRET_ACCESS_KEY'))) {
    problems.push('S3_ACCESS_KEY_ID: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together');
  }
  const uploadLimit = parseSize(value('UPLOAD_LIMIT') ?? '100mb');
  if (uploadLimit === null || uploadLimit < 1 || uploadLimit > maxUploadLimit) {
    problems.push('UPLOAD_LIMIT: must be a size from 1 byte to 2047mb, such as 100mb or 1gb');
  }
  const webPackageBytes = parseSize(value('WEB_PACKAGE_MAX_BYTES') ?? '500mb');
  if (webPackageBytes === null || webPackageBytes < 1 || webPackageBytes > Number.MAX_SAFE_INTEGER) {
    problems.push('WEB_PACKAGE_MAX_BYTES: must be a size such as 500mb or 2gb');
  }
  const webhookTimeout = parseDurationMs(value('WEBHOOK_TIMEOUT') ?? '10s');
  if (webhookTimeout === null || webhookTimeout < 1000 || webhookTimeout > 60_000) {
    problems.push('WEBHOOK_TIMEOUT: must be a duration from 1s to 1m, such as 10s or 30s');
  }
  if (parseDurationMs(value('UPLOAD_UNATTACHED_TTL') ?? '24h') === null) {
    problems.push('UPLOAD_UNATTACHED_TTL: must be a duration such as 24h, 30m or 7d');
  }
  for (const [name, fallback] of [
    ['SESSION_LIFETIME', '7d'],
    ['SIGN_IN_LINK_LIFETIME', '72h'],
  ] as const) {
    const lifetime = parseDurationMs(value(name) ?? fallback);
    if (lifetime === null || lifetime < 60_000)
      problems.push(`${name}: must be a duration of 1m or more, such as 12h or 7d`);
  }
  if (value('METRICS_HOST') && !value('METRICS_PORT')) problems.push('METRICS_HOST: is only used with METRICS_PORT');
  if (value('METRICS_PORT') && Number(value('METRICS_PORT')) === Number(value('PORT') ?? 4000))
    problems.push('METRICS_PORT: must differ from PORT (set METRICS_TOKEN to serve /metrics on the main port)');
  const badOrigins = parseCorsOrigins(value('CORS_ORIGINS') ?? '*')?.filter((origin) => !isOrigin(origin)) ?? [];
  if (badOrigins.length)
    problems.push(`CORS_ORIGINS: not an origin such as https://app.example.org: ${badOrigins.join(', ')}`);
  return problems;
}

/** `*` (any origin) or a comma-separated list of origins; null stands for any. */
function parseCorsOrigins(text: string): string[] | null {
  const origins = text
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  return origins.length === 0 || origins.includes('*') ? null : origins;
}

function isOrigin(text: string): boolean {
  try {
    const url = new URL(text);
    return /^https?:$/.test(url.protocol) && url.origin === text;
  } catch {
    return false;
  }
}

/** Reads and validates the environment once; every problem is reported together so an operator fixes them in one go. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = environmentSchema.safeParse(env);
  const problems = [
    ...(parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)),
    ...crossFieldProblems(env),
  ];
  if (!parsed.success || problems.length) throw new ConfigError(problems);
  const e = parsed.data;
  const corsOrigins = parseCorsOrigins(e.CORS_ORIGINS);
  return {
    host: e.HOST,
    port: e.PORT,
    publicUrl: e.PUBLIC_URL ? new URL(e.PUBLIC_URL) : null,
    allowedHosts: new Set(parseHostList(e.ALLOWED_HOSTS)),
    trustProxyHops: e.TRUST_PROXY.toLowerCase() === 'off' ? 0 : Number(e.TRUST_PROXY),
    authFailureLimits: {
      perAddress: parseRateLimit(e.AUTH_FAILURES_PER_ADDRESS) ?? null,
      perConsumerKey: parseRateLimit(e.AUTH_FAILURES_PER_CONSUMER_KEY) ?? null,
      anonymousPerAddress: parseRateLimit(e.ANONYMOUS_REQUESTS_PER_ADDRESS) ?? null,
    },
    signInFailuresPerAccount: parseRateLimit(e.SIGN_IN_FAILURES_PER_ACCOUNT) ?? null,
    sessionLifetimeMs: parseDurationMs(e.SESSION_LIFETIME)!,
    signInLinkLifetimeMs: parseDurationMs(e.SIGN_IN_LINK_LIFETIME)!,
    oidcProviders: (e.OIDC_PROVIDERS ?? []).map((provider) => ({ ...provider, issuer: new URL(provider.issuer) })),
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL ?? null,
    secretKey: e.SECRET_KEY ?? null,
    redisUrl: e.REDIS_URL ?? null,
    rateLimit: parseRateLimit(e.RATE_LIMIT) ?? null,
    bodyLimitBytes: parseSize(e.BODY_LIMIT)!,
    responseLimitBytes: parseSize(e.RESPONSE_LIMIT)!,
    uploadLimitBytes: parseSize(e.UPLOAD_LIMIT)!,
    uploadUnattachedTtlMs: parseDurationMs(e.UPLOAD_UNATTACHED_TTL)!,
    webPackageLimits: {
      maxFiles: e.WEB_PACKAGE_MAX_FILES,
      maxBytes: parseSize(e.WEB_PACKAGE_MAX_BYTES)!,
      maxRatio: e.WEB_PACKAGE_MAX_RATIO,
    },
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          region: e.S3_REGION,
          endpoint: e.S3_ENDPOINT ?? null,
          // S3-compatible services mostly need path-style URLs; AWS wants virtual-hosted ones.
          forcePathStyle: e.S3_FORCE_PATH_STYLE ? e.S3_FORCE_PATH_STYLE === 'on' : Boolean(e.S3_ENDPOINT),
          credentials:
            e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
              ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
              : null,
          prefix: e.S3_PREFIX,
        }
      : null,
    queryTimeoutMs: parseDurationMs(e.QUERY_TIMEOUT)!,
    subscriptionsPerCredential: e.SUBSCRIPTIONS_PER_CREDENTIAL,
    oauthSkewSeconds: e.OAUTH_TIMESTAMP_SKEW,
    credentialCacheMs: e.CREDENTIAL_CACHE_MS,
    bootstrap:
      e.BOOTSTRAP_CONSUMER_KEY && e.BOOTSTRAP_CONSUMER_SECRET
        ? { consumerKey: e.BOOTSTRAP_CONSUMER_KEY, consumerSecret: e.BOOTSTRAP_CONSUMER_SECRET }
        : null,
    seedDemo: e.SEED_DEMO,
    logLevel: e.LOG_LEVEL,
    webhooks: { allowHosts: new Set(parseHostList(e.WEBHOOK_ALLOW_HOSTS)), allowHttp: e.WEBHOOK_ALLOW_HTTP === 'on' },
    webhookTimeoutMs: parseDurationMs(e.WEBHOOK_TIMEOUT)!,
    webhookLogRetentionDays: e.WEBHOOK_LOG_RETENTION_DAYS,
    corsOrigins: corsOrigins && new Set(corsOrigins),
    trustedDocumentsPath: e.TRUSTED_DOCUMENTS ?? null,
    metrics:
      e.METRICS_PORT || e.METRICS_TOKEN
        ? { port: e.METRICS_PORT ?? null, host: e.METRICS_HOST ?? e.HOST, token: e.METRICS_TOKEN ?? null }
        : null,
  };
}
