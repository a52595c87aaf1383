import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG } from '../../shared/site-config';
import { DEFAULT_CARD_TESTING_SETTINGS } from './card-testing-settings';
import {
  DEFAULT_BACKUP_HOUR,
  DEFAULT_BACKUP_KEEP,
  DEFAULT_DIGEST_HOUR,
  DEFAULT_ORG_LEGAL_NAME,
  DEVELOPMENT_COOKIE_SECRET,
  loadConfig,
  testDatabaseUrl,
} from './config';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const productionSecret = 'x'.repeat(32);

describe('loadConfig', () => {
  it('applies the documented defaults to an empty environment', () => {
    const config = loadConfig({});
    expect(config).toEqual({
      isProduction: false,
      port: 3000,
      host: '0.0.0.0',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      paymentGateway: 'test',
      refundSettlePause: false,
      site: DEFAULT_SITE_CONFIG,
      embedOrigins: [],
      logLevel: 'info',
      cookieSecret: DEVELOPMENT_COOKIE_SECRET,
      webRoot: path.join(repoRoot, 'dist', 'web'),
      trustProxy: false,
      webhooks: { allowHttp: true, allowPrivateTargets: false, pollIntervalMs: 1000, timeoutMs: 10000 },
      gatewayTimeoutMs: 20_000,
      pendingTimeoutMs: 120_000,
      reconcileIntervalMs: 30_000,
      shutdownTimeoutMs: 10_000,
      minAmountCents: 100,
      redisUrl: undefined,
      cardTesting: DEFAULT_CARD_TESTING_SETTINGS,
      mail: {
        smtpUrl: undefined,
        from: 'Belize Barrier Reef Donations <receipts@localhost>',
        dir: path.resolve('./data/mail'),
        pollIntervalMs: 1_000,
      },
      organization: {
        legalName: DEFAULT_ORG_LEGAL_NAME,
        address: undefined,
        taxId: undefined,
        taxStatement: undefined,
      },
      adminToken: undefined,
      billing: { intervalMs: 60_000, retryDays: [1, 3, 7] },
      digest: undefined,
      staffTimeZone: 'UTC',
      campaigns: [],
      campaignFiguresMaxAgeMs: 60_000,
    });
  });

  it('reads every variable it knows', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATA_DIR: 'memory://',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/donations',
      PAYMENT_GATEWAY: 'test',
      ORGANIZATION_URL: 'https://reef.example.org/',
      PUBLIC_URL: 'https://give.example.org',
      LOG_LEVEL: 'warn',
      COOKIE_SECRET: productionSecret,
      WEB_ROOT: '/srv/web',
      TRUST_PROXY: 'true',
      GATEWAY_TIMEOUT_MS: '5000',
      PENDING_TIMEOUT_MS: '60000',
      RECONCILE_INTERVAL_MS: '1000',
      SHUTDOWN_TIMEOUT_MS: '25000',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: 'memory://',
      databaseUrl: 'postgres://postgres@127.0.0.1:5432/donations',
      site: { organizationUrl: 'https://reef.example.org/', publicUrl: 'https://give.example.org' },
      logLevel: 'warn',
      cookieSecret: productionSecret,
      webRoot: '/srv/web',
      trustProxy: true,
      gatewayTimeoutMs: 5000,
      pendingTimeoutMs: 60_000,
      reconcileIntervalMs: 1000,
      shutdownTimeoutMs: 25_000,
    });
  });

  it('refuses a PENDING_TIMEOUT_MS not above GATEWAY_TIMEOUT_MS: the reconciler would race a charge under way', () => {
    expect(() => loadConfig({ GATEWAY_TIMEOUT_MS: '5000', PENDING_TIMEOUT_MS: '5000' })).toThrow(
      /PENDING_TIMEOUT_MS \(5000\) must be greater than GATEWAY_TIMEOUT_MS \(5000\)/,
    );
  });

  it('reads EMBED_ORIGINS as origins, each once, and lets no site frame the pages when it is unset (issue #35)', () => {
    expect(loadConfig({}).embedOrigins).toEqual([]);
    expect(loadConfig({ EMBED_ORIGINS: ' https://Reef.Example.org/ , http://localhost:8080,https://reef.example.org' }).embedOrigins).toEqual([
      'https://reef.example.org',
      'http://localhost:8080',
    ]);
  });

  it('links to the site on its own PORT when PUBLIC_URL is unset', () => {
    const config = loadConfig({ PORT: '3300' });
    expect(config.site.publicUrl).toBe('http://localhost:3300');
    expect(config.mail.from).toBe('Belize Barrier Reef Donations <receipts@localhost>');
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' })).toMatchObject({ port: 3000, databaseUrl: undefined });
  });

  it.each(['abc', '-1', '70000', '3000.5'])('rejects PORT=%s, naming PORT', (port) => {
    expect(() => loadConfig({ PORT: port })).toThrow(/PORT/);
  });

  it.each([
    ['DATABASE_URL', 'mysql://root@localhost/db'],
    ['PAYMENT_GATEWAY', 'stripe'],
    ['LOG_LEVEL', 'verbose'],
    ['ORGANIZATION_URL', 'not a url'],
    ['PUBLIC_URL', 'ftp://example.org'],
    ['COOKIE_SECRET', 'too-short'],
    ['TRUST_PROXY', 'yes please'],
    ['GATEWAY_TIMEOUT_MS', '0'],
    ['PENDING_TIMEOUT_MS', '1.5'],
    ['RECONCILE_INTERVAL_MS', '-10'],
    ['RECONCILE_INTERVAL_MS', String(25 * 60 * 60 * 1000)],
    ['SHUTDOWN_TIMEOUT_MS', '0'],
    ['SHUTDOWN_TIMEOUT_MS', '10s'],
    ['EMBED_ORIGINS', '*'],
    ['EMBED_ORIGINS', 'https://reef.example.org/donate'],
    ['EMBED_ORIGINS', 'ftp://reef.example.org'],
    ['EMBED_ORIGINS', 'https://reef.example.org,not an origin'],
  ])('rejects a bad %s, naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });

  it('refuses to start in production without COOKIE_SECRET', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/COOKIE_SECRET/);
  });

  it('refuses the public development secret in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', COOKIE_SECRET: DEVELOPMENT_COOKIE_SECRET })).toThrow(/COOKIE_SECRET/);
  });

  it('starts in production with a secret of its own', () => {
    const config = loadConfig({ NODE_ENV: 'production', COOKIE_SECRET: productionSecret });
    expect(config).toMatchObject({ isProduction: true, cookieSecret: productionSecret });
  });
});

describe('loadConfig: card-testing defence and minimum amount (issue #4)', () => {
  it('has the documented defaults: 5 per IP per 10 minutes, 5 per e-mail per hour, 3 declines per card per hour', () => {
    expect(DEFAULT_CARD_TESTING_SETTINGS).toEqual({
      enabled: true,
      ipRefusals: { max: 5, windowMs: 600_000 },
      ipAttempts: { max: 60, windowMs: 600_000 },
      emailAttempts: { max: 5, windowMs: 3_600_000 },
      cardDeclines: { max: 3, windowMs: 3_600_000 },
      velocity: { max: 3, windowMs: 600_000, delayMinMs: 250, delayMaxMs: 1000 },
      keyPrefix: 'reef-donations:rate-limit:',
    });
  });

  it('reads every limit, the Redis URL and the minimum amount', () => {
    const config = loadConfig({
      RATE_LIMITS: 'on',
      RATE_LIMIT_IP_MAX: '10',
      RATE_LIMIT_IP_WINDOW_MS: '60000',
      RATE_LIMIT_IP_CEILING_MAX: '100',
      RATE_LIMIT_IP_CEILING_WINDOW_MS: '120000',
      RATE_LIMIT_EMAIL_MAX: '7',
      RATE_LIMIT_EMAIL_WINDOW_MS: '120000',
      RATE_LIMIT_CARD_DECLINES_MAX: '2',
      RATE_LIMIT_CARD_WINDOW_MS: '7200000',
      VELOCITY_DECLINES_MAX: '4',
      VELOCITY_WINDOW_MS: '300000',
      VELOCITY_DELAY_MIN_MS: '0',
      VELOCITY_DELAY_MAX_MS: '0',
      RATE_LIMIT_KEY_PREFIX: 'donations:eu-1:',
      REDIS_URL: 'redis://cache.internal:6379/2',
      MIN_DONATION_AMOUNT: '2.50',
    });
    expect(config).toMatchObject({
      minAmountCents: 250,
      site: { minAmountDollars: 2.5 },
      redisUrl: 'redis://cache.internal:6379/2',
      cardTesting: {
        enabled: true,
        ipRefusals: { max: 10, windowMs: 60_000 },
        ipAttempts: { max: 100, windowMs: 120_000 },
        emailAttempts: { max: 7, windowMs: 120_000 },
        cardDeclines: { max: 2, windowMs: 7_200_000 },
        velocity: { max: 4, windowMs: 300_000, delayMinMs: 0, delayMaxMs: 0 },
        keyPrefix: 'donations:eu-1:',
      },
    });
  });

  it('turns every limit off with RATE_LIMITS=off outside production', () => {
    expect(loadConfig({ RATE_LIMITS: 'off' }).cardTesting.enabled).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test', RATE_LIMITS: 'off' }).cardTesting.enabled).toBe(false);
  });

  it('takes REFUND_SETTLE_PAUSE=on outside production only (a process test fault point; decision 0095)', () => {
    expect(loadConfig({ REFUND_SETTLE_PAUSE: 'on' }).refundSettlePause).toBe(true);
    expect(() => loadConfig({ NODE_ENV: 'production', COOKIE_SECRET: productionSecret, REFUND_SETTLE_PAUSE: 'on' })).toThrow(
      /REFUND_SETTLE_PAUSE=on is refused when NODE_ENV=production/,
    );
    expect(loadConfig({ NODE_ENV: 'production', COOKIE_SECRET: productionSecret, REFUND_SETTLE_PAUSE: 'off' }).refundSettlePause).toBe(false);
  });

  it('takes WEBHOOKS_ALLOW_PRIVATE_TARGETS=on outside production only, and http:// endpoints outside production only (issue #38)', () => {
    expect(loadConfig({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'on' }).webhooks).toMatchObject({ allowPrivateTargets: true, allowHttp: true });
    expect(() => loadConfig({ NODE_ENV: 'production', COOKIE_SECRET: productionSecret, WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'on' })).toThrow(
      /WEBHOOKS_ALLOW_PRIVATE_TARGETS=on is refused when NODE_ENV=production/,
    );
    expect(loadConfig({ NODE_ENV: 'production', COOKIE_SECRET: productionSecret }).webhooks).toMatchObject({ allowPrivateTargets: false, allowHttp: false });
  });

  it('refuses RATE_LIMITS=off when NODE_ENV=production, naming the variable', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', COOKIE_SECRET: productionSecret, RATE_LIMITS: 'off' })).toThrow(
      /RATE_LIMITS=off is refused when NODE_ENV=production/,
    );
    expect(loadConfig({ NODE_ENV: 'production', COOKIE_SECRET: productionSecret }).cardTesting.enabled).toBe(true);
  });

  it.each([
    ['RATE_LIMITS', 'false'],
    ['RATE_LIMIT_IP_MAX', '0'],
    ['RATE_LIMIT_IP_MAX', 'five'],
    ['RATE_LIMIT_IP_WINDOW_MS', '0'],
    ['RATE_LIMIT_IP_CEILING_MAX', '0'],
    ['RATE_LIMIT_IP_CEILING_WINDOW_MS', '-5'],
    ['RATE_LIMIT_EMAIL_MAX', '2.5'],
    ['RATE_LIMIT_EMAIL_WINDOW_MS', '10m'],
    ['RATE_LIMIT_CARD_DECLINES_MAX', '-3'],
    ['RATE_LIMIT_CARD_WINDOW_MS', String(25 * 60 * 60 * 1000)],
    ['VELOCITY_DECLINES_MAX', ''.padEnd(8, '9')],
    ['VELOCITY_WINDOW_MS', 'soon'],
    ['VELOCITY_DELAY_MIN_MS', '-1'],
    ['VELOCITY_DELAY_MAX_MS', '60000'],
    ['RATE_LIMIT_KEY_PREFIX', 'has spaces'],
    ['REDIS_URL', 'http://127.0.0.1:6379'],
    ['MIN_DONATION_AMOUNT', '0.50'],
    ['MIN_DONATION_AMOUNT', '5.01'],
    ['MIN_DONATION_AMOUNT', '2.505'],
    ['MIN_DONATION_AMOUNT', '$2'],
  ])('rejects %s=%j, naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`Invalid configuration: .*${name}`));
  });

  it('refuses a velocity delay whose minimum is above its maximum', () => {
    expect(() => loadConfig({ VELOCITY_DELAY_MIN_MS: '900', VELOCITY_DELAY_MAX_MS: '300' })).toThrow(
      /VELOCITY_DELAY_MIN_MS \(900\) must not be greater than VELOCITY_DELAY_MAX_MS \(300\)/,
    );
  });

  it('takes MIN_DONATION_AMOUNT from $1 to the smallest preset, $5', () => {
    expect(loadConfig({ MIN_DONATION_AMOUNT: '1' }).minAmountCents).toBe(100);
    expect(loadConfig({ MIN_DONATION_AMOUNT: '5' }).minAmountCents).toBe(500);
    expect(loadConfig({ MIN_DONATION_AMOUNT: '3.99' })).toMatchObject({ minAmountCents: 399, site: { minAmountDollars: 3.99 } });
  });
});

describe('loadConfig: mail, organisation profile and operator token (issue #12)', () => {
  it('reads SMTP_URL, MAIL_FROM, MAIL_DIR, the organisation profile and ADMIN_TOKEN', () => {
    const config = loadConfig({
      DATA_DIR: '/srv/reef',
      SMTP_URL: 'smtps://user:secret@mail.example.org:465',
      MAIL_FROM: 'Reef Receipts <receipts@reef.example.org>',
      MAIL_POLL_INTERVAL_MS: '500',
      ORG_LEGAL_NAME: 'Reef Trust Ltd',
      ORG_ADDRESS: '1 Front Street, Belize City, Belize',
      ORG_TAX_ID: 'BZ-CH-123',
      RECEIPT_TAX_STATEMENT: 'Our own wording.',
      ADMIN_TOKEN: 'a'.repeat(32),
    });
    expect(config.mail).toEqual({
      smtpUrl: 'smtps://user:secret@mail.example.org:465',
      from: 'Reef Receipts <receipts@reef.example.org>',
      dir: '/srv/reef/mail',
      pollIntervalMs: 500,
    });
    expect(config.organization).toEqual({
      legalName: 'Reef Trust Ltd',
      address: '1 Front Street, Belize City, Belize',
      taxId: 'BZ-CH-123',
      taxStatement: 'Our own wording.',
    });
    expect(config.adminToken).toBe('a'.repeat(32));
    expect(loadConfig({ MAIL_DIR: 'out/mail' }).mail.dir).toBe(path.resolve('out/mail'));
    expect(loadConfig({ MAIL_FROM: 'receipts@reef.example.org' }).mail.from).toBe('receipts@reef.example.org');
    expect(loadConfig({ PUBLIC_URL: 'https://give.example.org' }).mail.from).toBe(
      'Belize Barrier Reef Donations <receipts@give.example.org>',
    );
  });

  it.each([
    ['SMTP_URL', 'http://mail.example.org', 'must be an smtp:// or smtps:// URL'],
    ['MAIL_FROM', 'not an address', 'must be an address'],
    ['MAIL_FROM', 'Name <a@b>\r\nBcc: x@y', 'must be an address'],
    ['MAIL_POLL_INTERVAL_MS', '0', 'must be at least 1 millisecond'],
    ['ADMIN_TOKEN', 'short', 'must be at least 32 characters'],
    ['ADMIN_TOKEN', 'correct horse battery staple 0123456789', 'must be printable ASCII characters without spaces'],
    ['ADMIN_TOKEN', 'é'.repeat(40), 'must be printable ASCII characters without spaces'],
    ['ORG_LEGAL_NAME', 'x'.repeat(201), 'must be at most 200 characters'],
  ])('refuses %s=%j, naming the variable', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(`${name} ${message}`);
  });
});

describe('loadConfig: the staff digest (issue #14)', () => {
  it('is off without STAFF_EMAILS, whatever DIGEST_HOUR and TZ say', () => {
    expect(loadConfig({ DIGEST_HOUR: '9', TZ: 'America/Belize' }).digest).toBeUndefined();
    // TZ is the C library's too: a host's `:/etc/localtime` does not stop a server that sends no digest.
    expect(loadConfig({ TZ: ':/etc/localtime' }).digest).toBeUndefined();
  });

  it('reads STAFF_EMAILS (spaces ignored, one per address in any case), DIGEST_HOUR and TZ (as Intl spells it)', () => {
    expect(loadConfig({ STAFF_EMAILS: ' ops@reef.example.org,Treasurer@Reef.example.org , treasurer@reef.example.org', DIGEST_HOUR: '0', TZ: 'america/belize' }).digest).toEqual({
      staffEmails: ['ops@reef.example.org', 'Treasurer@Reef.example.org'],
      hour: 0,
      timeZone: 'America/Belize',
    });
  });

  it('sends at 07:00 UTC by default', () => {
    expect(loadConfig({ STAFF_EMAILS: 'ops@reef.example.org' }).digest).toEqual({ staffEmails: ['ops@reef.example.org'], hour: DEFAULT_DIGEST_HOUR, timeZone: 'UTC' });
    expect(DEFAULT_DIGEST_HOUR).toBe(7);
  });

  it.each([
    ['STAFF_EMAILS', 'ops@reef.example.org, not-an-address', 'must be e-mail addresses separated by commas; "not-an-address" is not one'],
    ['STAFF_EMAILS', 'ops@reef.example.org,', 'must be e-mail addresses separated by commas; "" is not one'],
    ['STAFF_EMAILS', Array.from({ length: 21 }, (_, n) => `staff${n}@reef.example.org`).join(','), 'must list at most 20 addresses'],
    ['DIGEST_HOUR', '24', 'must be a whole hour from 0 to 23'],
    ['DIGEST_HOUR', '7am', 'must be a whole hour from 0 to 23'],
    ['DIGEST_HOUR', '-1', 'must be a whole hour from 0 to 23'],
  ])('refuses %s=%j, naming the variable', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(`${name} ${message}`);
  });

  it("gives the staff's date filters the digest's zone, or UTC when TZ names none (issue #21)", () => {
    expect(loadConfig({ TZ: 'america/belize' }).staffTimeZone).toBe('America/Belize');
    expect(loadConfig({ TZ: ':/etc/localtime' }).staffTimeZone).toBe('UTC');
  });

  it('refuses a TZ that names no zone when STAFF_EMAILS is set', () => {
    expect(() => loadConfig({ STAFF_EMAILS: 'ops@reef.example.org', TZ: 'Mars/Olympus_Mons' })).toThrow(
      'Invalid configuration: TZ must be an IANA time zone name, like America/Belize or UTC, when STAFF_EMAILS is set (not "Mars/Olympus_Mons")',
    );
  });
});

describe('loadConfig: scheduled backups (issue #33)', () => {
  it('are off without BACKUP_DIR, whatever BACKUP_HOUR, BACKUP_KEEP and TZ say', () => {
    expect(loadConfig({ BACKUP_HOUR: '3', BACKUP_KEEP: '30', TZ: 'Mars/Olympus_Mons' }).backup).toBeUndefined();
  });

  it('read BACKUP_DIR (absolute), BACKUP_HOUR, BACKUP_KEEP and TZ, with 02:00 UTC and 7 kept by default', () => {
    expect(loadConfig({ BACKUP_DIR: 'backups', BACKUP_HOUR: '0', BACKUP_KEEP: '30', TZ: 'america/belize' }).backup).toEqual({
      dir: path.resolve('backups'),
      hour: 0,
      keep: 30,
      timeZone: 'America/Belize',
    });
    expect(loadConfig({ BACKUP_DIR: '/mnt/backups' }).backup).toEqual({ dir: '/mnt/backups', hour: DEFAULT_BACKUP_HOUR, keep: DEFAULT_BACKUP_KEEP, timeZone: 'UTC' });
    expect([DEFAULT_BACKUP_HOUR, DEFAULT_BACKUP_KEEP]).toEqual([2, 7]);
  });

  it.each([
    ['BACKUP_HOUR', '24', 'must be a whole hour from 0 to 23'],
    ['BACKUP_KEEP', '0', 'must be a whole number from 1 to 366'],
    ['BACKUP_KEEP', '367', 'must be a whole number from 1 to 366'],
    ['BACKUP_KEEP', 'all', 'must be a whole number from 1 to 366'],
  ])('refuses %s=%j, naming the variable', (name, value, message) => {
    expect(() => loadConfig({ BACKUP_DIR: '/mnt/backups', [name]: value })).toThrow(`${name} ${message}`);
  });

  it('refuses a TZ that names no zone when BACKUP_DIR is set', () => {
    expect(() => loadConfig({ BACKUP_DIR: '/mnt/backups', TZ: 'Mars/Olympus_Mons' })).toThrow('TZ must be an IANA time zone name, like America/Belize or UTC, when BACKUP_DIR is set');
  });
});

describe('testDatabaseUrl', () => {
  it('is undefined without DATABASE_URL and the URL with it', () => {
    expect(testDatabaseUrl({})).toBeUndefined();
    expect(testDatabaseUrl({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' })).toBe(
      'postgres://postgres@127.0.0.1:5432/test',
    );
  });

  it('rejects a URL that is not PostgreSQL', () => {
    expect(() => testDatabaseUrl({ DATABASE_URL: 'sqlite://x' })).toThrow(/DATABASE_URL/);
  });
});
