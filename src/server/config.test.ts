import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG } from '../shared/site-config';
import { DEVELOPMENT_COOKIE_SECRET, loadConfig, testDatabaseUrl } from './config';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
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
      site: DEFAULT_SITE_CONFIG,
      logLevel: 'info',
      cookieSecret: DEVELOPMENT_COOKIE_SECRET,
      webRoot: path.join(repoRoot, 'dist', 'web'),
      trustProxy: false,
      gatewayTimeoutMs: 20_000,
      pendingTimeoutMs: 120_000,
      reconcileIntervalMs: 30_000,
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
    });
  });

  it('refuses a PENDING_TIMEOUT_MS not above GATEWAY_TIMEOUT_MS: the reconciler would race a charge under way', () => {
    expect(() => loadConfig({ GATEWAY_TIMEOUT_MS: '5000', PENDING_TIMEOUT_MS: '5000' })).toThrow(
      /PENDING_TIMEOUT_MS \(5000\) must be greater than GATEWAY_TIMEOUT_MS \(5000\)/,
    );
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
