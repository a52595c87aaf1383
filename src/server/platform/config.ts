import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { PRESET_AMOUNTS_DOLLARS } from '../../shared/amounts';
import { DonorEmailSchema } from '../../shared/field-rules';
import { dollarsToCents, MIN_AMOUNT_DOLLARS } from '../../shared/money';
import { DEFAULT_SITE_CONFIG, type SiteConfig } from '../../shared/site-config';
import { DEFAULT_CARD_TESTING_SETTINGS, type CardTestingSettings } from './card-testing-settings';
import { canonicalTimeZone } from './time-zone-name';
import { stripeSettings, type StripeSettings } from './stripe-settings';
import { CAMPAIGN_FEE_VARS, CAMPAIGN_FIGURES_MAX_AGE_MS, feeCoverageSettings } from './campaign-fee-settings';

/**
 * Server configuration, read from the environment in one place (DESIGN.md, example 10: create-t3-app's
 * `env.js`). NOTE: this is the only module that reads `process.env`; everything else takes a
 * {@link ServerConfig} as an argument, so tests build their own without touching the environment.
 */

/** Log levels pino understands (LOG_LEVEL). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
/** Payment gateways the server can use (PAYMENT_GATEWAY): the test gateway (issue #2) and Stripe (issue #11). */
export const PAYMENT_GATEWAYS = ['test', 'stripe'] as const;

/**
 * `DATA_DIR` value that keeps nothing on disk (tests): the test gateway's charges in memory, mail in the system's
 * temporary folder. Only with DATABASE_URL: the embedded database lives on disk (loadConfig refuses it otherwise).
 */
export const IN_MEMORY_DATA_DIR = 'memory://';

/**
 * Signs cookies in development and tests only. NOTE: public on purpose (it is in the repository), so the
 * server refuses it, and refuses to start without COOKIE_SECRET, when NODE_ENV is `production`.
 */
export const DEVELOPMENT_COOKIE_SECRET = 'development-only-cookie-secret-do-not-use-in-production';
/** Shortest accepted COOKIE_SECRET, in characters (@fastify/cookie and OWASP: at least 32 characters of entropy). */
export const COOKIE_SECRET_MIN_LENGTH = 32;

/** How long a charge may take before the server stops waiting for the gateway (GATEWAY_TIMEOUT_MS default), in ms. */
export const DEFAULT_GATEWAY_TIMEOUT_MS = 20_000;
/**
 * Age after which a `pending` donation is reconciled with the gateway (PENDING_TIMEOUT_MS default), in ms.
 * NOTE: must exceed the gateway timeout by a wide margin: a request may still be charging until then,
 * and a real gateway may still complete a charge whose answer we stopped waiting for.
 */
export const DEFAULT_PENDING_TIMEOUT_MS = 120_000;
/** How often the reconciler runs (RECONCILE_INTERVAL_MS default), in ms. */
export const DEFAULT_RECONCILE_INTERVAL_MS = 30_000;
/** How often the billing runner looks for renewals due (BILLING_INTERVAL_MS default), in ms (issue #13). */
export const DEFAULT_BILLING_INTERVAL_MS = 60_000;
/** DUNNING_RETRY_DAYS default: a declined renewal is retried 1, 3 and 7 days after its first decline (issue #13). */
export const DEFAULT_DUNNING_RETRY_DAYS: readonly number[] = [1, 3, 7];
/**
 * How long a graceful shutdown may take (SHUTDOWN_TIMEOUT_MS default), in ms (issue #14): after SIGTERM or SIGINT the
 * requests in flight and the runners' current items get this long before the process exits with code 1.
 */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;
/** Upper bound of every duration setting: 24 hours, in ms (setTimeout takes at most 2^31-1 ms). */
const MAX_DURATION_MS = 24 * 60 * 60 * 1000;

/** The built site (Vite's output), resolved from this file so the working directory does not matter. */
const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../../dist/web', import.meta.url));

/** Empty variables (`PORT=`) count as unset, as most shells and `.env` loaders write them. */
const optionalVar = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

const booleanVar = z.enum(['true', 'false', '1', '0'], { error: 'must be true or false' }).transform((v) => v === 'true' || v === '1');

/** A duration in whole milliseconds, at least 1 (GATEWAY_TIMEOUT_MS and the reconciler's settings). */
const durationMsVar = z
  .string()
  .regex(/^\d+$/, 'must be a whole number of milliseconds')
  .transform(Number)
  .pipe(z.number().int().min(1, 'must be at least 1 millisecond').max(MAX_DURATION_MS, 'must be at most 24 hours'));

/** A whole number of at least 1 (the rate limits' counts). */
const countVar = z
  .string()
  .regex(/^\d+$/, 'must be a whole number of at least 1')
  .transform(Number)
  .pipe(z.number().int().min(1, 'must be a whole number of at least 1').max(1_000_000, 'must be at most 1,000,000'));

/** Longest velocity delay, in ms: a delay stands for the time a real decline takes, a few seconds at most. */
const MAX_VELOCITY_DELAY_MS = 10_000;
/** A delay in whole milliseconds from 0 to {@link MAX_VELOCITY_DELAY_MS} (VELOCITY_DELAY_*_MS; 0 in tests). */
const delayMsVar = z
  .string()
  .regex(/^\d+$/, 'must be a whole number of milliseconds')
  .transform(Number)
  .pipe(z.number().int().max(MAX_VELOCITY_DELAY_MS, `must be at most ${MAX_VELOCITY_DELAY_MS} milliseconds`));

/**
 * Largest MIN_DONATION_AMOUNT, in dollars: the smallest preset, so every preset button stays a valid amount
 * (the minimum is for custom amounts; the server cannot tell a typed amount from a pressed one).
 */
const MAX_MIN_DONATION_DOLLARS = Math.min(...PRESET_AMOUNTS_DOLLARS);
/** MIN_DONATION_AMOUNT: dollars with at most 2 decimals, from the spec's $1 to the smallest preset. */
const minDonationVar = z
  .string()
  .regex(/^\d+(\.\d{1,2})?$/, 'must be an amount in dollars, like 1 or 2.50')
  .transform(Number)
  .pipe(
    z
      .number()
      .min(MIN_AMOUNT_DOLLARS, `must be at least ${MIN_AMOUNT_DOLLARS} (the spec's minimum)`)
      .max(MAX_MIN_DONATION_DOLLARS, `must be at most ${MAX_MIN_DONATION_DOLLARS} (the smallest preset amount)`),
  );

/** DUNNING_RETRY_DAYS: increasing whole days from 1 to 60, comma-separated (`1,3,7`), at most 10 of them. */
const retryDaysVar = z
  .string()
  .regex(/^\d{1,2}(,\d{1,2}){0,9}$/, 'must be whole days separated by commas, like 1,3,7')
  .transform((value) => value.split(',').map(Number))
  .refine((days) => days.every((day, index) => day >= 1 && day <= 60 && (index === 0 || day > (days[index - 1] ?? 0))), {
    message: 'must be increasing whole days from 1 to 60, like 1,3,7',
  });

/** MAIL_FROM: `receipts@example.org` or `Reef Donations <receipts@example.org>`. */
const MAIL_FROM_PATTERN = /^(?:[^<>\r\n]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/;
/** Shortest accepted ADMIN_TOKEN, in characters (DESIGN.md, "Operator actions"). */
export const ADMIN_TOKEN_MIN_LENGTH = 32;
/** How long one webhook delivery may take before it counts as a timeout (WEBHOOK_TIMEOUT_MS default), in ms: issue #38's 10 s. */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
/** How often the webhook relay looks for deliveries due (WEBHOOK_POLL_INTERVAL_MS default), in ms. */
export const DEFAULT_WEBHOOK_POLL_INTERVAL_MS = 1_000;

/** Outgoing webhooks' settings (issue #38; decision 0106). */
export interface WebhookSettings {
  /**
   * Tests only (WEBHOOKS_ALLOW_PRIVATE_TARGETS=on; refused when NODE_ENV=production): endpoints on loopback and private
   * addresses are allowed, so a test's receiver on 127.0.0.1 gets deliveries.
   */
  allowPrivateTargets: boolean;
  /** Whether an endpoint may be `http://` (outside production only; issue #38). */
  allowHttp: boolean;
  /** How long one delivery may take, in ms (WEBHOOK_TIMEOUT_MS, default 10,000). */
  timeoutMs: number;
  /** How often the relay looks for deliveries due, in ms (WEBHOOK_POLL_INTERVAL_MS, default 1,000). */
  pollIntervalMs: number;
}

/** How often the mail relay looks for messages due (MAIL_POLL_INTERVAL_MS default), in ms; well under issue #12's 10 s. */
export const DEFAULT_MAIL_POLL_INTERVAL_MS = 1_000;
/** The organisation named on receipts when ORG_LEGAL_NAME is unset. */
export const DEFAULT_ORG_LEGAL_NAME = 'Belize Barrier Reef Donations';
/** DIGEST_HOUR default: the staff's digest of the day before is queued from 07:00 in TZ (issue #14). */
export const DEFAULT_DIGEST_HOUR = 7;
/** TZ default: the staff's days are UTC days unless TZ names a zone (issue #14; decision 0062). */
export const DEFAULT_DIGEST_TIME_ZONE = 'UTC';
/** BACKUP_HOUR default: the day's scheduled backup is made from 02:00 in TZ, a quiet hour for most sites (issue #33). */
export const DEFAULT_BACKUP_HOUR = 2;
/** BACKUP_KEEP default: a week of daily backups (issue #33). */
export const DEFAULT_BACKUP_KEEP = 7;
/** Most backups BACKUP_KEEP may keep: a year of daily ones. */
const MAX_BACKUP_KEEP = 366;
/** Most addresses STAFF_EMAILS may list: a digest goes to staff, not to a mailing list. */
const MAX_STAFF_EMAILS = 20;

/**
 * STAFF_EMAILS: addresses separated by commas (spaces around them ignored), each checked with the donation form's
 * e-mail rule (DonorEmailSchema), at most {@link MAX_STAFF_EMAILS}; an address listed twice (in any case) counts once.
 */
const staffEmailsVar = z.string().transform((value, ctx) => {
  const addresses = value.split(',').map((address) => address.trim());
  const invalid = addresses.find((address) => !DonorEmailSchema.safeParse(address).success);
  if (invalid !== undefined) {
    ctx.addIssue({ code: 'custom', message: `must be e-mail addresses separated by commas; ${JSON.stringify(invalid)} is not one` });
    return z.NEVER;
  }
  const unique = addresses.filter((address, index) => addresses.findIndex((other) => other.toLowerCase() === address.toLowerCase()) === index);
  if (unique.length > MAX_STAFF_EMAILS) {
    ctx.addIssue({ code: 'custom', message: `must list at most ${MAX_STAFF_EMAILS} addresses` });
    return z.NEVER;
  }
  return unique;
});

/** Most origins EMBED_ORIGINS may list: the reserve's sites and its partners', not the whole web. */
const MAX_EMBED_ORIGINS = 50;

/**
 * EMBED_ORIGINS (issue #35; decision 0104): the origins allowed to frame the donation pages, separated by commas (spaces
 * around them ignored), each an http(s) origin with no path (`https://reef.example.org`, `http://localhost:8080`), at most
 * {@link MAX_EMBED_ORIGINS}; returned as origins (`new URL(...).origin`: lower-case host, default port dropped), each once.
 * NOTE: no wildcard: a `*` would let any page frame the payment form (clickjacking; OWASP Clickjacking Defense Cheat Sheet).
 */
const embedOriginsVar = z.string().transform((value, ctx) => {
  const listed = value.split(',').map((origin) => origin.trim()).filter((origin) => origin !== '');
  const origins: string[] = [];
  for (const entry of listed) {
    let url: URL | undefined;
    try {
      url = new URL(entry);
    } catch {
      url = undefined;
    }
    // An origin only: scheme, host and port, nothing else (a trailing slash allowed).
    if (url === undefined || !/^https?:$/.test(url.protocol) || url.origin.toLowerCase() !== entry.replace(/\/$/, '').toLowerCase()) {
      ctx.addIssue({ code: 'custom', message: `must be http(s) origins separated by commas, like https://reef.example.org; ${JSON.stringify(entry)} is not one` });
      return z.NEVER;
    }
    if (!origins.includes(url.origin)) origins.push(url.origin);
  }
  if (origins.length > MAX_EMBED_ORIGINS) {
    ctx.addIssue({ code: 'custom', message: `must list at most ${MAX_EMBED_ORIGINS} origins` });
    return z.NEVER;
  }
  return origins;
});

/** DIGEST_HOUR: a whole hour from 0 to 23. */
const digestHourVar = z
  .string()
  .regex(/^\d{1,2}$/, 'must be a whole hour from 0 to 23')
  .transform(Number)
  .pipe(z.number().int().max(23, 'must be a whole hour from 0 to 23'));

/** BACKUP_KEEP: how many scheduled backups to keep, a whole number from 1 to {@link MAX_BACKUP_KEEP}. */
const backupKeepVar = z
  .string()
  .regex(/^\d{1,3}$/, `must be a whole number from 1 to ${MAX_BACKUP_KEEP}`)
  .transform(Number)
  .pipe(z.number().int().min(1, `must be a whole number from 1 to ${MAX_BACKUP_KEEP}`).max(MAX_BACKUP_KEEP, `must be a whole number from 1 to ${MAX_BACKUP_KEEP}`));

const EnvSchema = z.object({
  NODE_ENV: optionalVar(z.string()),
  PORT: optionalVar(
    z
      .string()
      .regex(/^\d+$/, 'must be a whole number from 0 to 65535')
      .transform(Number)
      .pipe(z.number().int().min(0).max(65535, 'must be a whole number from 0 to 65535')),
  ),
  HOST: optionalVar(z.string()),
  DATA_DIR: optionalVar(z.string()),
  DATABASE_URL: optionalVar(
    z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' }),
  ),
  PAYMENT_GATEWAY: optionalVar(z.enum(PAYMENT_GATEWAYS, { error: `must be one of: ${PAYMENT_GATEWAYS.join(', ')}` })),
  STRIPE_SECRET_KEY: optionalVar(z.string()),
  STRIPE_PUBLISHABLE_KEY: optionalVar(z.string()),
  STRIPE_WEBHOOK_SECRET: optionalVar(z.string()),
  STRIPE_API_URL: optionalVar(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })),
  STRIPE_JS_URL: optionalVar(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })),
  ORGANIZATION_URL: optionalVar(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' })),
  PUBLIC_URL: optionalVar(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' })),
  EMBED_ORIGINS: optionalVar(embedOriginsVar),
  LOG_LEVEL: optionalVar(z.enum(LOG_LEVELS, { error: `must be one of: ${LOG_LEVELS.join(', ')}` })),
  COOKIE_SECRET: optionalVar(
    z.string().min(COOKIE_SECRET_MIN_LENGTH, `must be at least ${COOKIE_SECRET_MIN_LENGTH} characters`),
  ),
  WEB_ROOT: optionalVar(z.string()),
  TRUST_PROXY: optionalVar(booleanVar),
  GATEWAY_TIMEOUT_MS: optionalVar(durationMsVar),
  PENDING_TIMEOUT_MS: optionalVar(durationMsVar),
  RECONCILE_INTERVAL_MS: optionalVar(durationMsVar),
  SHUTDOWN_TIMEOUT_MS: optionalVar(durationMsVar),
  MIN_DONATION_AMOUNT: optionalVar(minDonationVar),
  REDIS_URL: optionalVar(z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' })),
  RATE_LIMITS: optionalVar(z.enum(['on', 'off'], { error: 'must be on or off' })),
  REFUND_SETTLE_PAUSE: optionalVar(z.enum(['on', 'off'], { error: 'must be on or off' })),
  RATE_LIMIT_KEY_PREFIX: optionalVar(
    z.string().regex(/^[\w:.-]{1,100}$/, 'must be 1 to 100 letters, digits, or : . _ -'),
  ),
  RATE_LIMIT_IP_MAX: optionalVar(countVar),
  RATE_LIMIT_IP_WINDOW_MS: optionalVar(durationMsVar),
  RATE_LIMIT_IP_CEILING_MAX: optionalVar(countVar),
  RATE_LIMIT_IP_CEILING_WINDOW_MS: optionalVar(durationMsVar),
  RATE_LIMIT_EMAIL_MAX: optionalVar(countVar),
  RATE_LIMIT_EMAIL_WINDOW_MS: optionalVar(durationMsVar),
  RATE_LIMIT_CARD_DECLINES_MAX: optionalVar(countVar),
  RATE_LIMIT_CARD_WINDOW_MS: optionalVar(durationMsVar),
  VELOCITY_DECLINES_MAX: optionalVar(countVar),
  VELOCITY_WINDOW_MS: optionalVar(durationMsVar),
  VELOCITY_DELAY_MIN_MS: optionalVar(delayMsVar),
  VELOCITY_DELAY_MAX_MS: optionalVar(delayMsVar),
  // Mail, receipts and operator actions (issue #12).
  SMTP_URL: optionalVar(z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' })),
  MAIL_FROM: optionalVar(z.string().regex(MAIL_FROM_PATTERN, 'must be an address, or a name and <address>')),
  MAIL_DIR: optionalVar(z.string()),
  MAIL_POLL_INTERVAL_MS: optionalVar(durationMsVar),
  ORG_LEGAL_NAME: optionalVar(z.string().max(200, 'must be at most 200 characters')),
  ORG_ADDRESS: optionalVar(z.string().max(500, 'must be at most 500 characters')),
  ORG_TAX_ID: optionalVar(z.string().max(100, 'must be at most 100 characters')),
  RECEIPT_TAX_STATEMENT: optionalVar(z.string().max(1000, 'must be at most 1,000 characters')),
  // Recurring gifts (issue #13).
  BILLING_INTERVAL_MS: optionalVar(durationMsVar),
  DUNNING_RETRY_DAYS: optionalVar(retryDaysVar),
  // The staff's daily digest (issue #14). NOTE: TZ is checked only when STAFF_EMAILS is set (see loadConfig).
  STAFF_EMAILS: optionalVar(staffEmailsVar),
  DIGEST_HOUR: optionalVar(digestHourVar),
  TZ: optionalVar(z.string()),
  // Scheduled backups of the embedded database (issue #33). NOTE: TZ is checked only when BACKUP_DIR is set too.
  BACKUP_DIR: optionalVar(z.string()),
  BACKUP_HOUR: optionalVar(digestHourVar),
  BACKUP_KEEP: optionalVar(backupKeepVar),
  // Campaign links and fee coverage (issue #23).
  CAMPAIGNS: optionalVar(CAMPAIGN_FEE_VARS.CAMPAIGNS),
  CAMPAIGN_FIGURES_MAX_AGE_MS: optionalVar(CAMPAIGN_FEE_VARS.CAMPAIGN_FIGURES_MAX_AGE_MS),
  FEE_COVERAGE: optionalVar(CAMPAIGN_FEE_VARS.FEE_COVERAGE),
  FEE_COVERAGE_PERCENT: optionalVar(CAMPAIGN_FEE_VARS.FEE_COVERAGE_PERCENT),
  FEE_COVERAGE_FIXED_CENTS: optionalVar(CAMPAIGN_FEE_VARS.FEE_COVERAGE_FIXED_CENTS),
  // Outgoing webhooks (issue #38; decision 0106).
  WEBHOOKS_ALLOW_PRIVATE_TARGETS: optionalVar(z.enum(['on', 'off'], { error: 'must be on or off' })),
  WEBHOOK_TIMEOUT_MS: optionalVar(durationMsVar),
  WEBHOOK_POLL_INTERVAL_MS: optionalVar(durationMsVar),
  // NOTE: the characters a bearer token can carry in an Authorization header (printable ASCII, no space): any other
  // token could never be sent, and every operator request would be refused.
  ADMIN_TOKEN: optionalVar(
    z
      .string()
      .min(ADMIN_TOKEN_MIN_LENGTH, `must be at least ${ADMIN_TOKEN_MIN_LENGTH} characters`)
      .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII characters without spaces'),
  ),
});

/** Everything the server needs to start, typed and with defaults applied. */
export interface ServerConfig {
  /** True when NODE_ENV is `production`. */
  isProduction: boolean;
  /** TCP port to listen on (PORT, default 3000; 0 picks a free port). */
  port: number;
  /** Interface to listen on (HOST, default 0.0.0.0). */
  host: string;
  /**
   * The data directory as an absolute path (DATA_DIR, default ./data): the embedded PostgreSQL server's cluster in
   * `postgres/`, the test gateway's charge ledger, mail files; or {@link IN_MEMORY_DATA_DIR} with DATABASE_URL.
   */
  dataDir: string;
  /** A PostgreSQL URL; when set the server uses that server instead of the embedded one (DATABASE_URL). */
  databaseUrl: string | undefined;
  /** Which payment gateway charges cards (PAYMENT_GATEWAY, default `test`). */
  paymentGateway: (typeof PAYMENT_GATEWAYS)[number];
  /**
   * Tests only (REFUND_SETTLE_PAUSE=on; refused when NODE_ENV=production): every refund stops for good between the
   * gateway's answer and its settlement, so a process test can kill the server there (issue #32; decision 0095).
   */
  refundSettlePause: boolean;
  /** The Stripe gateway's keys and addresses (STRIPE_*), set when paymentGateway is `stripe` (issue #11). */
  stripe: StripeSettings | undefined;
  /** Deployment settings handed to the page (ORGANIZATION_URL, PUBLIC_URL; issue #2; MIN_DONATION_AMOUNT, issue #4). */
  site: SiteConfig;
  /**
   * The origins allowed to frame the donation pages (EMBED_ORIGINS, issue #35; decision 0104), as URL origins; empty
   * (the default) when no site may frame them.
   */
  embedOrigins: readonly string[];
  /** pino log level (LOG_LEVEL, default info). */
  logLevel: (typeof LOG_LEVELS)[number];
  /** Secret that signs cookies, at least 32 characters (COOKIE_SECRET; a development default outside production). */
  cookieSecret: string;
  /** Absolute path of the built site (WEB_ROOT, default the repository's dist/web). */
  webRoot: string;
  /**
   * Trust X-Forwarded-* headers from a reverse proxy (TRUST_PROXY, default false), so a request that reached
   * the proxy over HTTPS gets `Secure` cookies. Turn on only behind a proxy that sets those headers.
   */
  trustProxy: boolean;
  /** How long to wait for one gateway call before treating its outcome as unknown, in ms (GATEWAY_TIMEOUT_MS, default 20,000). */
  gatewayTimeoutMs: number;
  /**
   * Age after which the reconciler resolves a `pending` donation with the gateway, in ms (PENDING_TIMEOUT_MS,
   * default 120,000; issue #3). Must be greater than gatewayTimeoutMs.
   */
  pendingTimeoutMs: number;
  /** Time between two runs of the reconciler, in ms (RECONCILE_INTERVAL_MS, default 30,000; issue #3). */
  reconcileIntervalMs: number;
  /**
   * How long a graceful shutdown (SIGTERM, SIGINT) may take before the process exits with code 1, in ms
   * (SHUTDOWN_TIMEOUT_MS, default 10,000; issue #14).
   */
  shutdownTimeoutMs: number;
  /**
   * Smallest donation, in cents (MIN_DONATION_AMOUNT in dollars, default 1, at most the smallest preset, 5;
   * issue #4). The page learns it as `site.minAmountDollars`.
   */
  minAmountCents: number;
  /** Redis that the API processes share the rate-limit counts through (REDIS_URL); in-process counts when unset. */
  redisUrl: string | undefined;
  /** The card-testing defence: rate limits and velocity (RATE_LIMITS, RATE_LIMIT_*, VELOCITY_*; issue #4). */
  cardTesting: CardTestingSettings;
  /** Outgoing mail (SMTP_URL, MAIL_FROM, MAIL_DIR, MAIL_POLL_INTERVAL_MS; issue #12). */
  mail: MailSettings;
  /** Outgoing webhooks (WEBHOOKS_ALLOW_PRIVATE_TARGETS, WEBHOOK_TIMEOUT_MS, WEBHOOK_POLL_INTERVAL_MS; issue #38). */
  webhooks: WebhookSettings;
  /** The organisation named on receipts (ORG_LEGAL_NAME, ORG_ADDRESS, ORG_TAX_ID, RECEIPT_TAX_STATEMENT; issue #12). */
  organization: OrganizationProfile;
  /** The billing runner of recurring gifts (BILLING_INTERVAL_MS, DUNNING_RETRY_DAYS; issue #13). */
  billing: BillingSettings;
  /** Bearer token of /api/admin/* (ADMIN_TOKEN, 32+ characters); unset turns every admin route into a 404 (DESIGN.md). */
  adminToken: string | undefined;
  /** The staff's daily digest (STAFF_EMAILS, DIGEST_HOUR, TZ; issue #14); undefined when STAFF_EMAILS is unset: no digest. */
  digest: DigestSettings | undefined;
  /**
   * The time zone of the staff's date filters (issue #21): the digest's (TZ), so a day on the donations page is a day
   * of the digest; UTC when TZ is unset or names no IANA zone (a glibc form like `:/etc/localtime`).
   */
  staffTimeZone: string;
  /**
   * The slugs of CAMPAIGNS (issue #23, decision 0078), lower-case; none by default. Since issue #34 only the first start
   * after that change reads them, to make them campaigns (decision 0101).
   */
  campaigns: readonly string[];
  /** How long a campaign's public figures are kept, in ms (CAMPAIGN_FIGURES_MAX_AGE_MS, default 60,000; issue #34). */
  campaignFiguresMaxAgeMs: number;
  /** Scheduled backups of the embedded database (BACKUP_DIR, BACKUP_HOUR, BACKUP_KEEP, TZ; issue #33); undefined when BACKUP_DIR is unset. */
  backup: BackupSettings | undefined;
}

/** Where and when the scheduled backups of the embedded database are made (issue #33, part 2; decision 0100). */
export interface BackupSettings {
  /** BACKUP_DIR as an absolute path: the folder of the daily backup files (another disk, or synchronised off the machine). */
  dir: string;
  /** BACKUP_HOUR (0 to 23, default {@link DEFAULT_BACKUP_HOUR}): from this hour in `timeZone`, the day's backup is made. */
  hour: number;
  /** BACKUP_KEEP (1 to 366, default {@link DEFAULT_BACKUP_KEEP}): the newest this many backups are kept, older ones deleted. */
  keep: number;
  /** TZ, an IANA name as Intl spells it (default UTC): the zone of the backups' days and hour. */
  timeZone: string;
}

/** Whom the staff's daily digest goes to, and when (issue #14; decision 0062). */
export interface DigestSettings {
  /** STAFF_EMAILS: one digest a day to each, at least one. */
  staffEmails: readonly string[];
  /** DIGEST_HOUR (0 to 23, default {@link DEFAULT_DIGEST_HOUR}): from this hour in `timeZone`, the day before's digest is queued. */
  hour: number;
  /** TZ, an IANA name as Intl spells it (default {@link DEFAULT_DIGEST_TIME_ZONE}): the zone of the digest's days and hour. */
  timeZone: string;
}

/** When renewals are charged and retried (issue #13). */
export interface BillingSettings {
  /** How often the billing runner looks for renewals due, in ms (BILLING_INTERVAL_MS, default 60,000). */
  intervalMs: number;
  /** Days after a renewal's first decline when it is retried, increasing (DUNNING_RETRY_DAYS, default 1, 3, 7); the plan pauses after the last. */
  retryDays: readonly number[];
}

/** Where and how e-mail leaves the server (issue #12). */
export interface MailSettings {
  /** `smtp://` or `smtps://` URL with credentials (SMTP_URL); unset writes `.eml` files into `dir` instead. */
  smtpUrl: string | undefined;
  /** Sender, `Name <address>` or an address (MAIL_FROM; default `Belize Barrier Reef Donations <receipts@<PUBLIC_URL host>>`). */
  from: string;
  /** Absolute folder of the `.eml` files when SMTP_URL is unset (MAIL_DIR; default `<DATA_DIR>/mail`). */
  dir: string;
  /** How often the relay looks for messages due, in ms (MAIL_POLL_INTERVAL_MS, default 1,000). */
  pollIntervalMs: number;
}

/** The organisation profile printed on every receipt (issue #12). */
export interface OrganizationProfile {
  /** ORG_LEGAL_NAME (default {@link DEFAULT_ORG_LEGAL_NAME}). */
  legalName: string;
  /** ORG_ADDRESS, one line (default none). */
  address: string | undefined;
  /** ORG_TAX_ID, e.g. a charity registration number (default none). */
  taxId: string | undefined;
  /**
   * RECEIPT_TAX_STATEMENT, the operator's own wording, printed as it is in every language; unset: the catalogues'
   * `pdf.receipt.taxStatement` in the receipt's language (issue #12, decision 0043: it claims no deductibility;
   * issue #24). See receipts/receipt-view.ts taxStatementIn.
   */
  taxStatement: string | undefined;
}

/**
 * Reads and validates the server's environment variables (all optional; see {@link ServerConfig} for
 * each one's default). Takes the environment as an argument so tests pass their own.
 * Throws an Error naming every bad variable, e.g. `Invalid configuration: PORT must be a whole number from 0 to 65535`,
 * and refuses to run in production (NODE_ENV=production) without a COOKIE_SECRET of its own, or with
 * RATE_LIMITS=off (issue #4).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'environment'} ${issue.message}`);
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  const vars = parsed.data;
  const isProduction = vars.NODE_ENV === 'production';

  if (isProduction && (vars.COOKIE_SECRET === undefined || vars.COOKIE_SECRET === DEVELOPMENT_COOKIE_SECRET)) {
    throw new Error(
      `Invalid configuration: COOKIE_SECRET must be set to a random secret of at least ${COOKIE_SECRET_MIN_LENGTH} characters when NODE_ENV=production`,
    );
  }

  const gatewayTimeoutMs = vars.GATEWAY_TIMEOUT_MS ?? DEFAULT_GATEWAY_TIMEOUT_MS;
  const pendingTimeoutMs = vars.PENDING_TIMEOUT_MS ?? DEFAULT_PENDING_TIMEOUT_MS;
  if (pendingTimeoutMs <= gatewayTimeoutMs) {
    // Otherwise the reconciler could give up on a donation whose charge is still under way.
    throw new Error(
      `Invalid configuration: PENDING_TIMEOUT_MS (${pendingTimeoutMs}) must be greater than GATEWAY_TIMEOUT_MS (${gatewayTimeoutMs})`,
    );
  }

  if (isProduction && vars.RATE_LIMITS === 'off') {
    // Load tests and benchmarks only: a production site without them is open to card testing (issue #4).
    throw new Error('Invalid configuration: RATE_LIMITS=off is refused when NODE_ENV=production');
  }
  if (isProduction && vars.WEBHOOKS_ALLOW_PRIVATE_TARGETS === 'on') {
    // Tests only: a production site must never deliver webhooks into its own network (issue #38, SSRF; OWASP SSRF cheat sheet).
    throw new Error('Invalid configuration: WEBHOOKS_ALLOW_PRIVATE_TARGETS=on is refused when NODE_ENV=production');
  }
  if (isProduction && vars.REFUND_SETTLE_PAUSE === 'on') {
    // A process test's fault point: a production site would never settle a refund (issue #32).
    throw new Error('Invalid configuration: REFUND_SETTLE_PAUSE=on is refused when NODE_ENV=production');
  }
  const cardTesting = cardTestingSettings(vars);
  if (cardTesting.velocity.delayMinMs > cardTesting.velocity.delayMaxMs) {
    throw new Error(
      `Invalid configuration: VELOCITY_DELAY_MIN_MS (${cardTesting.velocity.delayMinMs}) must not be greater than VELOCITY_DELAY_MAX_MS (${cardTesting.velocity.delayMaxMs})`,
    );
  }
  const minAmountDollars = vars.MIN_DONATION_AMOUNT ?? MIN_AMOUNT_DOLLARS;

  const stripe = vars.PAYMENT_GATEWAY === 'stripe' ? stripeSettings(vars, isProduction) : undefined;
  const dataDir = vars.DATA_DIR ?? './data';
  if (dataDir === IN_MEMORY_DATA_DIR && !vars.DATABASE_URL) {
    throw new Error(`Invalid configuration: DATA_DIR=${IN_MEMORY_DATA_DIR} needs DATABASE_URL (the embedded database keeps its data on disk)`);
  }
  const port = vars.PORT ?? 3000;
  // NOTE: unset, the site's own address on this machine, on the PORT it listens on (links in e-mails must open it).
  const publicUrl = vars.PUBLIC_URL ?? `http://localhost:${port}`;
  return {
    isProduction,
    port,
    host: vars.HOST ?? '0.0.0.0',
    dataDir: dataDir === IN_MEMORY_DATA_DIR ? dataDir : path.resolve(dataDir),
    databaseUrl: vars.DATABASE_URL,
    paymentGateway: vars.PAYMENT_GATEWAY ?? 'test',
    refundSettlePause: vars.REFUND_SETTLE_PAUSE === 'on',
    stripe,
    site: {
      organizationUrl: vars.ORGANIZATION_URL ?? DEFAULT_SITE_CONFIG.organizationUrl,
      publicUrl,
      minAmountDollars,
      payments: stripe ? { gateway: 'stripe', publishableKey: stripe.publishableKey, stripeJsUrl: stripe.jsUrl } : { gateway: 'test' },
      feeCoverage: feeCoverageSettings(vars),
    },
    embedOrigins: vars.EMBED_ORIGINS ?? [],
    logLevel: vars.LOG_LEVEL ?? 'info',
    cookieSecret: vars.COOKIE_SECRET ?? DEVELOPMENT_COOKIE_SECRET,
    webRoot: path.resolve(vars.WEB_ROOT ?? DEFAULT_WEB_ROOT),
    trustProxy: vars.TRUST_PROXY ?? false,
    gatewayTimeoutMs,
    pendingTimeoutMs,
    reconcileIntervalMs: vars.RECONCILE_INTERVAL_MS ?? DEFAULT_RECONCILE_INTERVAL_MS,
    shutdownTimeoutMs: vars.SHUTDOWN_TIMEOUT_MS ?? DEFAULT_SHUTDOWN_TIMEOUT_MS,
    minAmountCents: dollarsToCents(minAmountDollars),
    redisUrl: vars.REDIS_URL,
    cardTesting,
    mail: {
      smtpUrl: vars.SMTP_URL,
      from: vars.MAIL_FROM ?? `Belize Barrier Reef Donations <receipts@${new URL(publicUrl).hostname}>`,
      // NOTE: an in-memory database (tests) has no folder; its mail goes to the system's temporary folder.
      dir: path.resolve(
        vars.MAIL_DIR ?? (dataDir === IN_MEMORY_DATA_DIR ? path.join(tmpdir(), 'reef-donations-mail') : path.join(dataDir, 'mail')),
      ),
      pollIntervalMs: vars.MAIL_POLL_INTERVAL_MS ?? DEFAULT_MAIL_POLL_INTERVAL_MS,
    },
    webhooks: {
      allowPrivateTargets: vars.WEBHOOKS_ALLOW_PRIVATE_TARGETS === 'on',
      allowHttp: !isProduction,
      timeoutMs: vars.WEBHOOK_TIMEOUT_MS ?? DEFAULT_WEBHOOK_TIMEOUT_MS,
      pollIntervalMs: vars.WEBHOOK_POLL_INTERVAL_MS ?? DEFAULT_WEBHOOK_POLL_INTERVAL_MS,
    },
    organization: {
      legalName: vars.ORG_LEGAL_NAME ?? DEFAULT_ORG_LEGAL_NAME,
      address: vars.ORG_ADDRESS,
      taxId: vars.ORG_TAX_ID,
      taxStatement: vars.RECEIPT_TAX_STATEMENT,
    },
    billing: {
      intervalMs: vars.BILLING_INTERVAL_MS ?? DEFAULT_BILLING_INTERVAL_MS,
      retryDays: vars.DUNNING_RETRY_DAYS ?? DEFAULT_DUNNING_RETRY_DAYS,
    },
    adminToken: vars.ADMIN_TOKEN,
    digest: digestSettings(vars),
    staffTimeZone: canonicalTimeZone(vars.TZ ?? DEFAULT_DIGEST_TIME_ZONE) ?? DEFAULT_DIGEST_TIME_ZONE,
    campaigns: vars.CAMPAIGNS ?? [],
    backup: backupSettings(vars),
    campaignFiguresMaxAgeMs: vars.CAMPAIGN_FIGURES_MAX_AGE_MS ?? CAMPAIGN_FIGURES_MAX_AGE_MS,
  };
}

/**
 * The scheduled backups' settings, or undefined without BACKUP_DIR. Throws (Invalid configuration) when BACKUP_DIR is
 * set and TZ names no zone Intl knows (as for the digest, TZ is checked only when it is used).
 */
function backupSettings(vars: z.infer<typeof EnvSchema>): BackupSettings | undefined {
  if (vars.BACKUP_DIR === undefined) return undefined;
  const timeZone = canonicalTimeZone(vars.TZ ?? DEFAULT_DIGEST_TIME_ZONE);
  if (timeZone === undefined) {
    throw new Error(`Invalid configuration: TZ must be an IANA time zone name, like America/Belize or UTC, when BACKUP_DIR is set (not ${JSON.stringify(vars.TZ)})`);
  }
  return { dir: path.resolve(vars.BACKUP_DIR), hour: vars.BACKUP_HOUR ?? DEFAULT_BACKUP_HOUR, keep: vars.BACKUP_KEEP ?? DEFAULT_BACKUP_KEEP, timeZone };
}

/**
 * The digest's settings, or undefined without STAFF_EMAILS. Throws (Invalid configuration) when STAFF_EMAILS is set and
 * TZ names no zone Intl knows. NOTE: TZ is the variable Node and the C library read too; it is checked only when the
 * digest uses it, so a host whose TZ is `:/etc/localtime` (a glibc form Intl refuses) still starts without a digest.
 */
function digestSettings(vars: z.infer<typeof EnvSchema>): DigestSettings | undefined {
  if (vars.STAFF_EMAILS === undefined) return undefined;
  const timeZone = canonicalTimeZone(vars.TZ ?? DEFAULT_DIGEST_TIME_ZONE);
  if (timeZone === undefined) {
    throw new Error(`Invalid configuration: TZ must be an IANA time zone name, like America/Belize or UTC, when STAFF_EMAILS is set (not ${JSON.stringify(vars.TZ)})`);
  }
  return { staffEmails: vars.STAFF_EMAILS, hour: vars.DIGEST_HOUR ?? DEFAULT_DIGEST_HOUR, timeZone };
}

/** The card-testing settings of the environment, each variable over its default (DEFAULT_CARD_TESTING_SETTINGS). */
function cardTestingSettings(vars: z.infer<typeof EnvSchema>): CardTestingSettings {
  const defaults = DEFAULT_CARD_TESTING_SETTINGS;
  return {
    enabled: vars.RATE_LIMITS !== 'off',
    ipRefusals: {
      max: vars.RATE_LIMIT_IP_MAX ?? defaults.ipRefusals.max,
      windowMs: vars.RATE_LIMIT_IP_WINDOW_MS ?? defaults.ipRefusals.windowMs,
    },
    ipAttempts: {
      max: vars.RATE_LIMIT_IP_CEILING_MAX ?? defaults.ipAttempts.max,
      windowMs: vars.RATE_LIMIT_IP_CEILING_WINDOW_MS ?? defaults.ipAttempts.windowMs,
    },
    emailAttempts: {
      max: vars.RATE_LIMIT_EMAIL_MAX ?? defaults.emailAttempts.max,
      windowMs: vars.RATE_LIMIT_EMAIL_WINDOW_MS ?? defaults.emailAttempts.windowMs,
    },
    cardDeclines: {
      max: vars.RATE_LIMIT_CARD_DECLINES_MAX ?? defaults.cardDeclines.max,
      windowMs: vars.RATE_LIMIT_CARD_WINDOW_MS ?? defaults.cardDeclines.windowMs,
    },
    velocity: {
      max: vars.VELOCITY_DECLINES_MAX ?? defaults.velocity.max,
      windowMs: vars.VELOCITY_WINDOW_MS ?? defaults.velocity.windowMs,
      delayMinMs: vars.VELOCITY_DELAY_MIN_MS ?? defaults.velocity.delayMinMs,
      delayMaxMs: vars.VELOCITY_DELAY_MAX_MS ?? defaults.velocity.delayMaxMs,
    },
    keyPrefix: vars.RATE_LIMIT_KEY_PREFIX ?? defaults.keyPrefix,
  };
}

/**
 * The PostgreSQL server the test suite runs against, or undefined for an embedded server of the run's own
 * (CI's second pass sets DATABASE_URL=postgres://postgres@127.0.0.1:5432/test; issues #2, #25). Reads only DATABASE_URL,
 * so tests are not affected by the rest of the developer's environment. Throws like {@link loadConfig}
 * when DATABASE_URL is not a postgres URL.
 */
export function testDatabaseUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const parsed = EnvSchema.pick({ DATABASE_URL: true }).safeParse({ DATABASE_URL: env.DATABASE_URL });
  if (!parsed.success) throw new Error(`Invalid configuration: DATABASE_URL ${parsed.error.issues[0]?.message ?? ''}`);
  return parsed.data.DATABASE_URL;
}
