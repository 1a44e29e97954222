import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';

const secretKey = 'k'.repeat(32);

/** The problems loadConfig reports for `env`; fails the test when it accepts it. */
function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    const { problems, message } = error as ConfigError;
    expect(message).toBe(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    return problems;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    expect(loadConfig({})).toEqual({
      host: '127.0.0.1',
      port: 4000,
      publicUrl: null,
      dataDir: './.data',
      databaseUrl: null,
      secretKey: null,
      redisUrl: null,
      rateLimit: { points: 15, windowSeconds: 5 },
      bodyLimitBytes: 1024 * 1024,
      responseLimitBytes: 32 * 1024 * 1024,
      uploadLimitBytes: 100 * 1024 * 1024,
      uploadUnattachedTtlMs: 24 * 3_600_000,
      webPackageLimits: { maxFiles: 2_000, maxBytes: 500 * 1024 ** 2, maxRatio: 100 },
      s3: null,
      queryTimeoutMs: 10_000,
      subscriptionsPerCredential: 25,
      allowedHosts: new Set(),
      trustProxyHops: 0,
      authFailureLimits: {
        perAddress: { points: 20, windowSeconds: 60 },
        perConsumerKey: { points: 50, windowSeconds: 60 },
        anonymousPerAddress: { points: 60, windowSeconds: 60 },
      },
      signInFailuresPerAccount: { points: 10, windowSeconds: 900 },
      sessionLifetimeMs: 7 * 86_400_000,
      signInLinkLifetimeMs: 72 * 3_600_000,
      oidcProviders: [],
      oauthSkewSeconds: 300,
      credentialCacheMs: 1000,
      bootstrap: null,
      seedDemo: 'auto',
      logLevel: 'info',
      webhooks: { allowHosts: new Set(), allowHttp: false },
      webhookTimeoutMs: 10_000,
      webhookLogRetentionDays: 30,
      corsOrigins: null,
      trustedDocumentsPath: null,
      metrics: null,
    });
  });

  it('treats empty and blank values as unset', () => {
    expect(loadConfig({ PORT: '', RATE_LIMIT: '  ', PUBLIC_URL: '', SECRET_KEY: '' })).toMatchObject({
      port: 4000,
      rateLimit: { points: 15, windowSeconds: 5 },
      publicUrl: null,
      secretKey: null,
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      HOST: '0.0.0.0',
      PORT: ' 8080 ',
      PUBLIC_URL: 'https://api.example.org/base/',
      DATA_DIR: '/var/lib/lectern',
      DATABASE_URL: 'postgresql://lectern@db:5432/lectern',
      SECRET_KEY: secretKey,
      REDIS_URL: 'redis://cache:6379',
      RATE_LIMIT: '100/1m',
      BODY_LIMIT: '512kb',
      RESPONSE_LIMIT: '4mb',
      UPLOAD_LIMIT: '1gb',
      UPLOAD_UNATTACHED_TTL: '2h',
      QUERY_TIMEOUT: '2500ms',
      SUBSCRIPTIONS_PER_CREDENTIAL: '5',
      ALLOWED_HOSTS: 'api.example.org, Lectern.Local:8080',
      TRUST_PROXY: '2',
      AUTH_FAILURES_PER_ADDRESS: '10/30s',
      AUTH_FAILURES_PER_CONSUMER_KEY: 'off',
      ANONYMOUS_REQUESTS_PER_ADDRESS: '100/1m',
      SIGN_IN_FAILURES_PER_ACCOUNT: '5/1h',
      SESSION_LIFETIME: '12h',
      SIGN_IN_LINK_LIFETIME: '7d',
      OIDC_PROVIDERS: JSON.stringify([
        {
          id: 'springfield-google',
          name: 'Google',
          issuer: 'https://accounts.google.com',
          clientId: 'id.apps.googleusercontent.com',
          clientSecret: 'google-secret',
          districtId: 3,
        },
      ]),
      OAUTH_TIMESTAMP_SKEW: '60',
      CREDENTIAL_CACHE_MS: '250',
      BOOTSTRAP_CONSUMER_KEY: 'boot-key',
      BOOTSTRAP_CONSUMER_SECRET: 'boot-secret',
      SEED_DEMO: 'on',
      LOG_LEVEL: 'debug',
      WEBHOOK_ALLOW_HOSTS: '127.0.0.1:9000, Receiver.Local',
      WEBHOOK_ALLOW_HTTP: 'ON',
      WEBHOOK_LOG_RETENTION_DAYS: '7',
      WEBHOOK_TIMEOUT: '30s',
      CORS_ORIGINS: 'https://app.example.org, http://localhost:5173',
      TRUSTED_DOCUMENTS: '/etc/lectern/persisted-query-manifest.json',
      METRICS_PORT: '9464',
      METRICS_HOST: '10.0.0.5',
      METRICS_TOKEN: 'scrape-token-0123456789',
      WEB_PACKAGE_MAX_FILES: '50',
      WEB_PACKAGE_MAX_BYTES: '2gb',
      WEB_PACKAGE_MAX_RATIO: '20',
    });
    expect(config).toEqual({
      host: '0.0.0.0',
      port: 8080,
      publicUrl: new URL('https://api.example.org/base/'),
      dataDir: '/var/lib/lectern',
      databaseUrl: 'postgresql://lectern@db:5432/lectern',
      secretKey,
      redisUrl: 'redis://cache:6379',
      rateLimit: { points: 100, windowSeconds: 60 },
      bodyLimitBytes: 512 * 1024,
      responseLimitBytes: 4 * 1024 * 1024,
      uploadLimitBytes: 1024 ** 3,
      uploadUnattachedTtlMs: 2 * 3_600_000,
      webPackageLimits: { maxFiles: 50, maxBytes: 2 * 1024 ** 3, maxRatio: 20 },
      s3: null,
      queryTimeoutMs: 2500,
      subscriptionsPerCredential: 5,
      allowedHosts: new Set(['api.example.org', 'lectern.local:8080']),
      trustProxyHops: 2,
      authFailureLimits: {
        perAddress: { points: 10, windowSeconds: 30 },
        perConsumerKey: null,
        anonymousPerAddress: { points: 100, windowSeconds: 60 },
      },
      signInFailuresPerAccount: { points: 5, windowSeconds: 3600 },
      sessionLifetimeMs: 12 * 3_600_000,
      signInLinkLifetimeMs: 7 * 86_400_000,
      oidcProviders: [
        {
          id: 'springfield-google',
          name: 'Google',
          issuer: new URL('https://accounts.google.com'),
          clientId: 'id.apps.googleusercontent.com',
          clientSecret: 'google-secret',
          districtId: 3,
        },
      ],
      oauthSkewSeconds: 60,
      credentialCacheMs: 250,
      bootstrap: { consumerKey: 'boot-key', consumerSecret: 'boot-secret' },
      seedDemo: 'on',
      logLevel: 'debug',
      webhooks: { allowHosts: new Set(['127.0.0.1:9000', 'receiver.local']), allowHttp: true },
      webhookTimeoutMs: 30_000,
      webhookLogRetentionDays: 7,
      corsOrigins: new Set(['https://app.example.org', 'http://localhost:5173']),
      trustedDocumentsPath: '/etc/lectern/persisted-query-manifest.json',
      metrics: { port: 9464, host: '10.0.0.5', token: 'scrape-token-0123456789' },
    });
  });

  it.each([
    ['15/5s', { points: 15, windowSeconds: 5 }],
    ['10/s', { points: 10, windowSeconds: 1 }],
    ['3 / 2h', { points: 3, windowSeconds: 7200 }],
    ['off', null],
    ['OFF', null],
  ])('reads RATE_LIMIT=%s', (value, expected) => {
    expect(loadConfig({ RATE_LIMIT: value }).rateLimit).toEqual(expected);
  });

  it.each([
    ['auto', 'auto'],
    ['on', 'on'],
    ['off', 'off'],
    [' Off ', 'off'],
    ['', 'auto'],
  ])('reads SEED_DEMO=%j', (value, expected) => {
    expect(loadConfig({ SEED_DEMO: value }).seedDemo).toBe(expected);
  });

  it.each([
    ['10s', 10_000],
    ['500ms', 500],
    ['1m', 60_000],
    ['30', 30_000],
  ])('reads QUERY_TIMEOUT=%s', (value, expected) => {
    expect(loadConfig({ QUERY_TIMEOUT: value }).queryTimeoutMs).toBe(expected);
  });

  it.each([
    ['65536', 65536],
    ['1kb', 1024],
    ['64k', 65536],
    ['2MB', 2 * 1024 * 1024],
    ['10b', 10],
  ])('reads BODY_LIMIT=%s', (value, expected) => {
    expect(loadConfig({ BODY_LIMIT: value }).bodyLimitBytes).toBe(expected);
  });

  it.each([
    ['1gb', 1024 ** 3],
    ['250mb', 250 * 1024 ** 2],
    ['2047mb', 2047 * 1024 ** 2],
    ['1', 1],
  ])('reads UPLOAD_LIMIT=%s', (value, expected) => {
    expect(loadConfig({ UPLOAD_LIMIT: value }).uploadLimitBytes).toBe(expected);
  });

  it('reads S3_* into the bucket settings; an endpoint implies path-style URLs unless told otherwise', () => {
    expect(
      loadConfig({
        S3_BUCKET: 'school-files',
        S3_ENDPOINT: 'http://minio:9000',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_PREFIX: 'lectern/',
      }).s3,
    ).toEqual({
      bucket: 'school-files',
      region: 'us-east-1',
      endpoint: 'http://minio:9000',
      forcePathStyle: true,
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
      prefix: 'lectern/',
    });
    expect(loadConfig({ S3_BUCKET: 'school-files', S3_REGION: 'eu-west-1' }).s3).toEqual({
      bucket: 'school-files',
      region: 'eu-west-1',
      endpoint: null,
      forcePathStyle: false,
      credentials: null,
      prefix: '',
    });
    expect(
      loadConfig({ S3_BUCKET: 'b-1', S3_ENDPOINT: 'https://s3.example.org', S3_FORCE_PATH_STYLE: 'off' }).s3
        ?.forcePathStyle,
    ).toBe(false);
  });

  it.each([
    ['30m', 30 * 60_000],
    ['7d', 7 * 86_400_000],
    ['3600', 3_600_000],
  ])('reads UPLOAD_UNATTACHED_TTL=%s', (value, expected) => {
    expect(loadConfig({ UPLOAD_UNATTACHED_TTL: value }).uploadUnattachedTtlMs).toBe(expected);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT: Invalid input: expected number, received NaN'],
    [{ PORT: '70000' }, 'PORT: Too big: expected number to be <=65535'],
    [{ PORT: '80.5' }, 'PORT: Invalid input: expected int, received number'],
    [{ RATE_LIMIT: 'lots' }, 'RATE_LIMIT: must look like 15/5s, 100/1m or off'],
    [{ RATE_LIMIT: '0/5s' }, 'RATE_LIMIT: must look like 15/5s, 100/1m or off'],
    [{ BODY_LIMIT: 'huge' }, 'BODY_LIMIT: must be a size such as 1mb, 512kb or 65536'],
    [{ TRUST_PROXY: 'on' }, 'TRUST_PROXY: must be off or the number of proxies in front of the server'],
    [{ AUTH_FAILURES_PER_ADDRESS: 'lots' }, 'AUTH_FAILURES_PER_ADDRESS: must look like 20/1m, 5/10s or off'],
    [{ ALLOWED_HOSTS: 'http://x, ok.example:8080' }, 'ALLOWED_HOSTS: not a host or host:port: http://x'],
    [{ QUERY_TIMEOUT: '0s' }, 'QUERY_TIMEOUT: must be a duration such as 10s, 500ms or 1m'],
    [{ WEBHOOK_TIMEOUT: '500ms' }, 'WEBHOOK_TIMEOUT: must be a duration from 1s to 1m, such as 10s or 30s'],
    [{ WEBHOOK_TIMEOUT: '2m' }, 'WEBHOOK_TIMEOUT: must be a duration from 1s to 1m, such as 10s or 30s'],
    [{ WEBHOOK_TIMEOUT: 'soon' }, 'WEBHOOK_TIMEOUT: must be a duration from 1s to 1m, such as 10s or 30s'],
    [{ BODY_LIMIT: '1.5mb' }, 'BODY_LIMIT: must be a size such as 1mb, 512kb or 65536'],
    [{ RESPONSE_LIMIT: 'lots' }, 'RESPONSE_LIMIT: must be a size such as 32mb, 4mb or 1gb'],
    [{ RESPONSE_LIMIT: '0' }, 'RESPONSE_LIMIT: must be a size such as 32mb, 4mb or 1gb'],
    [{ DATABASE_URL: 'postgresql://db/lectern' }, 'SECRET_KEY: is required when DATABASE_URL is set'],
    [{ DATABASE_URL: 'mysql://db/lectern', SECRET_KEY: secretKey }, 'DATABASE_URL: must be a postgresql:// URL'],
    [{ SECRET_KEY: 'too-short' }, 'SECRET_KEY: must be at least 32 characters'],
    [{ PUBLIC_URL: 'ftp://api.example.org' }, 'PUBLIC_URL: must be an http(s) URL'],
    [{ PUBLIC_URL: 'api.example.org' }, 'PUBLIC_URL: must be an http(s) URL'],
    [{ REDIS_URL: 'http://cache:6379' }, 'REDIS_URL: must be a redis:// URL'],
    [{ OAUTH_TIMESTAMP_SKEW: '0' }, 'OAUTH_TIMESTAMP_SKEW: Too small: expected number to be >=1'],
    [{ SEED_DEMO: 'yes' }, 'SEED_DEMO: must be auto, on or off'],
    [{ UPLOAD_LIMIT: 'big' }, 'UPLOAD_LIMIT: must be a size from 1 byte to 2047mb, such as 100mb or 1gb'],
    [{ UPLOAD_LIMIT: '2gb' }, 'UPLOAD_LIMIT: must be a size from 1 byte to 2047mb, such as 100mb or 1gb'],
    [{ UPLOAD_LIMIT: '0' }, 'UPLOAD_LIMIT: must be a size from 1 byte to 2047mb, such as 100mb or 1gb'],
    [{ S3_ENDPOINT: 'http://minio:9000' }, 'S3_BUCKET: is required with S3_ENDPOINT'],
    [{ S3_BUCKET: 'Not_A_Bucket' }, 'S3_BUCKET: must be an S3 bucket name'],
    [
      { S3_BUCKET: 'files', S3_ACCESS_KEY_ID: 'id' },
      'S3_ACCESS_KEY_ID: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together',
    ],
    [{ S3_BUCKET: 'files', S3_ENDPOINT: 'minio:9000' }, 'S3_ENDPOINT: must be an http(s) URL'],
    [{ S3_BUCKET: 'files', S3_FORCE_PATH_STYLE: 'yes' }, 'S3_FORCE_PATH_STYLE: must be on or off'],
    [{ UPLOAD_UNATTACHED_TTL: 'never' }, 'UPLOAD_UNATTACHED_TTL: must be a duration such as 24h, 30m or 7d'],
    [{ WEBHOOK_ALLOW_HTTP: 'yes' }, 'WEBHOOK_ALLOW_HTTP: must be on or off'],
    [{ WEB_PACKAGE_MAX_FILES: '0' }, 'WEB_PACKAGE_MAX_FILES: Too small: expected number to be >=1'],
    [{ WEB_PACKAGE_MAX_RATIO: 'lots' }, 'WEB_PACKAGE_MAX_RATIO: Invalid input: expected number, received NaN'],
    [{ WEB_PACKAGE_MAX_BYTES: 'huge' }, 'WEB_PACKAGE_MAX_BYTES: must be a size such as 500mb or 2gb'],
    [{ WEBHOOK_LOG_RETENTION_DAYS: '0' }, 'WEBHOOK_LOG_RETENTION_DAYS: Too small: expected number to be >=1'],
    [
      { WEBHOOK_ALLOW_HOSTS: 'localhost, https://hook.example' },
      'WEBHOOK_ALLOW_HOSTS: not a host or host:port: https://hook.example',
    ],
    [
      { BOOTSTRAP_CONSUMER_KEY: 'k' },
      'BOOTSTRAP_CONSUMER_SECRET: BOOTSTRAP_CONSUMER_KEY and BOOTSTRAP_CONSUMER_SECRET must be set together',
    ],
    [
      { BOOTSTRAP_CONSUMER_SECRET: 's' },
      'BOOTSTRAP_CONSUMER_KEY: BOOTSTRAP_CONSUMER_KEY and BOOTSTRAP_CONSUMER_SECRET must be set together',
    ],
  ])('refuses %j, naming the variable', (env, problem) => {
    expect(problemsOf(env)).toEqual([problem]);
  });

  const provider = {
    id: 'google',
    name: 'Google',
    issuer: 'https://accounts.google.com',
    clientId: 'client',
    clientSecret: 'secret',
    districtId: 1,
  };
  it.each([
    ['{"id":', 'OIDC_PROVIDERS: must be a JSON array of providers'],
    [{ provider }, 'OIDC_PROVIDERS: must be a JSON array of providers'],
    [
      [{ ...provider, id: 'Google Workspace' }],
      'OIDC_PROVIDERS.0.id: must be a slug of up to 32 lower-case letters, digits and -',
    ],
    [
      [{ ...provider, issuer: 'http://idp.example' }],
      'OIDC_PROVIDERS.0.issuer: must be an https URL (http only for localhost)',
    ],
    [[{ ...provider, clientSecret: '' }], 'OIDC_PROVIDERS.0.clientSecret: must not be empty'],
    [
      [{ ...provider, districtId: '1' }],
      'OIDC_PROVIDERS.0.districtId: Invalid input: expected number, received string',
    ],
    [[provider, { ...provider, name: 'Other' }], 'OIDC_PROVIDERS: ids must be unique'],
  ])('refuses OIDC_PROVIDERS %j, naming the field', (providers, problem) => {
    const text = typeof providers === 'string' ? providers : JSON.stringify(providers);
    expect(problemsOf({ OIDC_PROVIDERS: text })).toEqual([problem]);
  });

  it('takes a plain-http OIDC issuer on this machine only', () => {
    const local = { ...provider, issuer: 'http://127.0.0.1:9000/realms/test' };
    const [read] = loadConfig({ OIDC_PROVIDERS: JSON.stringify([local]) }).oidcProviders;
    expect(read?.issuer.href).toBe('http://127.0.0.1:9000/realms/test');
  });

  it('refuses an unknown LOG_LEVEL, listing the levels', () => {
    const [problem] = problemsOf({ LOG_LEVEL: 'verbose' });
    expect(problem).toMatch(/^LOG_LEVEL: /);
    for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      expect(problem).toContain(`"${level}"`);
  });

  it('reports every problem together, cross-variable ones included', () => {
    expect(
      problemsOf({
        PORT: 'abc',
        RATE_LIMIT: 'lots',
        BODY_LIMIT: 'huge',
        DATABASE_URL: 'postgresql://db/lectern',
        PUBLIC_URL: 'ftp://api.example.org',
        BOOTSTRAP_CONSUMER_KEY: 'only-the-key',
      }),
    ).toEqual([
      'PORT: Invalid input: expected number, received NaN',
      'PUBLIC_URL: must be an http(s) URL',
      'SECRET_KEY: is required when DATABASE_URL is set',
      'BOOTSTRAP_CONSUMER_SECRET: BOOTSTRAP_CONSUMER_KEY and BOOTSTRAP_CONSUMER_SECRET must be set together',
      'RATE_LIMIT: must look like 15/5s, 100/1m or off',
      'BODY_LIMIT: must be a size such as 1mb, 512kb or 65536',
    ]);
  });

  it('does not ask for SECRET_KEY twice when it is set but too short', () => {
    expect(problemsOf({ DATABASE_URL: 'postgresql://db/lectern', SECRET_KEY: 'short' })).toEqual([
      'SECRET_KEY: must be at least 32 characters',
    ]);
  });
});
