import { constants as zlibConstants } from 'node:zlib';
import compress from '@fastify/compress';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { registerAdminAudit } from './admin/audit';
import { registerBackups } from './backups/plugin';
import { registerAdmin } from './admin/plugin';
import { campaignHeroHtml } from './campaigns/hero';
import { registerCampaigns } from './campaigns/plugin';
import { registerCardTestingDefence } from './card-testing/defence';
import type { ServerConfig } from './platform/config';
import { registerCsrfProtection } from './http/csrf';
import { registerDigest } from './digest/plugin';
import type { Database } from './db/client';
import { applyPaymentEvent } from './donations/payment-events';
import { registerReconciler } from './donations/reconciler';
import { donationRoutes } from './donations/routes';
import { apiError, handleError, INTERNAL_ERROR_MESSAGE, NOT_FOUND_MESSAGE, safeValidatorCompiler } from './http/errors';
import { registerHealthRoutes } from './health/health-routes';
import { registerOpenApi } from './http/openapi';
import { fingerprintSecret } from './idempotency/idempotency-key';
import { createLogger } from './platform/logger';
import { systemClock, type Clock } from './platform/clock';
import { registerMail } from './mail/plugin';
import { registerMetrics } from './metrics/plugin';
import type { ComposeMail } from './mail/relay';
import type { MailTransport } from './mail/transport';
import type { PaymentGateway } from './payments/gateway';
import { createStripeClient } from './payments/stripe/stripe-gateway';
import { registerStripeWebhook } from './payments/stripe/webhook-route';
import { registerReceipts } from './receipts/plugin';
import { isRecurringMailKind } from './recurring/compose';
import { createManageLinkSigner } from './recurring/manage-link';
import { registerRecurring } from './recurring/plugin';
import { createRecurringReceiptNotes } from './recurring/receipt-note';
import { framedPagePermissionsPolicy, registerSecurityHeaders, STRIPE_CSP_HOSTS } from './http/security-headers';
import { createEmbedTokens } from './http/embed-frame';
import { registerEmbed } from './embed/plugin';
import { registerConnectionDraining } from './platform/drain-connections';
import { registerSite } from './http/site';
import { isStaffMailKind } from './staff/identity/compose';
import { staffCampaignRoutes } from './staff/campaigns/routes';
import { registerStaff } from './staff/identity/plugin';
import { registerAfterReply } from './platform/after-reply';
import { sessionCookieName, sessionCookieSettings } from './staff/identity/session-cookie';
import { staffDonationRoutes } from './staff/donations/routes';
import { staffOfflineGiftRoutes } from './staff/offline-gifts/routes';
import { staffPlanRoutes } from './staff/plans/routes';
import { createTributeComposer, isTributeMailKind } from './tributes/compose';
import { staffDashboardRoutes } from './staff/dashboard/routes';
import { staffDonorRoutes } from './staff/donors/routes';
import { staffMailRoutes } from './staff/mail/routes';
import { staffIntegrationRoutes } from './staff/integrations/routes';
import { isWebhookMailKind } from './webhooks/compose';
import { registerWebhooks } from './webhooks/plugin';
import type { ResolveHost } from './webhooks/target';

/** Largest accepted request body, in bytes. A donation is well under 8 KiB even with a 1,000-character message. */
export const BODY_LIMIT_BYTES = 16 * 1024;

/** What {@link buildApp} needs; everything with I/O is passed in, so tests choose the database and gateway. */
export interface BuildAppOptions {
  config: ServerConfig;
  /** An open, migrated database (see openDatabase). The caller closes it. */
  db: Database;
  /**
   * What keeps the database's server from serving, checked by GET /readyz beside the database itself: the embedded
   * server's state (DatabaseHandle.readiness); none by default.
   */
  databaseReadiness?: () => Promise<string | undefined>;
  gateway: PaymentGateway;
  /** A pino logger; defaults to {@link createLogger} on stdout. Tests pass one writing to memory. */
  logger?: Logger;
  /** The clock of the runners and receipt links (DESIGN.md, "Time"); the machine's by default. */
  clock?: Clock;
  /** Where mail goes instead of the transport SMTP_URL / MAIL_DIR select (tests). */
  mailTransport?: MailTransport;
  /** The resolver of webhook hosts instead of the system's (tests: a name that resolves to a private address; issue #38). */
  webhookResolver?: ResolveHost;
}

/** The Fastify instance {@link buildApp} returns. */
export type App = FastifyInstance;

/**
 * Builds the whole server: the donation API under /api, CSRF protection, and the built site, without
 * listening (fastify/demo's `app.ts` style, DESIGN.md example 7), so tests drive it with `app.inject()`
 * and main.ts calls `listen`. Resolves once every plugin is loaded (`ready`).
 * Throws if WEB_ROOT/index.html exists but cannot be read, or a plugin fails to load.
 */
export async function buildApp({ config, db, databaseReadiness, gateway: untimedGateway, logger, clock, mailTransport, webhookResolver }: BuildAppOptions): Promise<App> {
  const app: App = Fastify({
    // NOTE: typed as Fastify's base logger so the instance type stays the plain FastifyInstance.
    loggerInstance: (logger ?? createLogger(config)) as FastifyBaseLogger,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    // NOTE: a URL that cannot be decoded (`%E0%A4%A`, FST_ERR_BAD_URL) and a path parameter over the router's
    // maxParamLength (100 characters, FST_ERR_MAX_PARAM_LENGTH; issue #40) name nothing here: they are answered as an
    // unknown path, 404 in the API's own shape, and logged as a refusal, for every route, today's and tomorrow's
    // (decision 0096). The other error Fastify raises before routing (a route constraint that failed,
    // FST_ERR_ASYNC_CONSTRAINT) is ours, a 500. No hook runs for these answers, so they carry the two headers that
    // matter for a JSON error.
    frameworkErrors: (error, request, reply: FastifyReply) => {
      const namesNothing = error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      if (namesNothing) request.log.info({ code: error.code, statusCode: 404 }, 'Request refused before routing');
      else request.log.error({ err: error }, 'Request failed before routing');
      void reply
        .code(namesNothing ? 404 : 500)
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .send(apiError(namesNothing ? NOT_FOUND_MESSAGE : INTERNAL_ERROR_MESSAGE));
    },
  });

  app.setValidatorCompiler(safeValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((_request, reply) => reply.code(404).send(apiError(NOT_FOUND_MESSAGE)));
  // Only JSON bodies are accepted: without a text/plain parser such a body gets 415, not a confusing 400.
  app.removeContentTypeParser('text/plain');
  // Graceful shutdown (issue #14): once the app closes, answers to the requests still in flight end their connection.
  registerConnectionDraining(app);
  // Work some routes do after their answer has left (issue #32, part 6), waited for by the app's close.
  registerAfterReply(app);

  // Every request to an operator route is recorded in the audit log (issue #14). NOTE: before every plugin, so the
  // admin routes each one registers (admin/, recurring/...) inherit this root hook.
  registerAdminAudit(app, { db, adminToken: config.adminToken });
  // CSP with a per-response nonce, HSTS over HTTPS, nosniff, no framing, no-store on /api... (issue #4). NOTE: first
  // of the plugins, so answers of every later onRequest hook (CSRF and origin refusals, rate limits) carry them.
  await registerSecurityHeaders(app, config.stripe);

  // Brotli or gzip for what the browser accepts (issue #5: compression of text assets); quality 5
  // keeps on-the-fly brotli cheap on CPU. Bodies under 1 KiB (most API answers) are sent as they are.
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    threshold: 1024,
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } },
  });
  // Framed pages' tokens (issue #35; decision 0105): the CSRF check accepts them on the donation routes, the site issues them.
  const embedTokens = createEmbedTokens(config.cookieSecret);
  await registerCsrfProtection(app, config, embedTokens);
  // Scheduled backups of the embedded database (issue #33): their runner, started once the server listens, and metric.
  const backups = registerBackups(app, { config, clock: clock ?? systemClock });
  // Outgoing webhooks (issue #38): their relay, started once the server listens, their metrics and the admins' e-mail.
  const webhooks = registerWebhooks(app, {
    db,
    settings: config.webhooks,
    clock: clock ?? systemClock,
    publicUrl: config.site.publicUrl,
    resolve: webhookResolver,
  });
  // Prometheus metrics at GET /metrics (issue #14), on this app's own registry. NOTE: every route below charges
  // through its timed gateway, and the card-testing defence counts its refusals into it.
  const metrics = await registerMetrics(app, {
    db,
    gateway: untimedGateway,
    clock: clock ?? systemClock,
    adminToken: config.adminToken,
    registries: [backups.registry, webhooks.registry],
  });
  const gateway = metrics.gateway;
  // Card-testing defence (OWASP OAT-001; issue #4): after CSRF, so its IP count sees only requests from the page.
  const cardTesting = await registerCardTestingDefence(app, {
    settings: config.cardTesting,
    cookieSecret: config.cookieSecret,
    redisUrl: config.redisUrl,
    onRefusal: metrics.countRefusal,
  });
  // The OpenAPI document at GET /api/openapi.json (issue #14): before every route, whose schemas it collects. It names
  // PUBLIC_URL as its server and the staff session cookie by the name it has there (issue #41).
  await registerOpenApi(app, {
    publicUrl: config.site.publicUrl,
    staffSessionCookie: sessionCookieName(sessionCookieSettings(config.site.publicUrl)),
  });
  // Receipts (issue #12): before the donation routes, whose answers get the receipt link from its root hook.
  // NOTE: the manage links of recurring plans (issue #13) are signed here, so receipts can carry them.
  const planLinks = createManageLinkSigner(config.cookieSecret);
  const recurringNoteOf = createRecurringReceiptNotes({ db, links: planLinks, publicUrl: config.site.publicUrl, clock: clock ?? systemClock });
  const receipts = await registerReceipts(app, { db, config, clock: clock ?? systemClock, recurringNoteOf });
  await app.register(donationRoutes, {
    db,
    gateway,
    fingerprintSecret: fingerprintSecret(config.cookieSecret),
    cardTesting,
    minAmountCents: config.minAmountCents,
    clock: clock ?? systemClock,
    campaignFee: { feeCoverage: config.site.feeCoverage },
  });
  // Campaigns (issue #34): CAMPAIGNS made campaigns once per database, and their public figures.
  const campaignFigures = await registerCampaigns(app, { db, config, clock: clock ?? systemClock, links: receipts.links });
  // Embedding on other sites (issue #35): may this origin frame us, and embed.js's headers.
  await registerEmbed(app, config);
  // Stripe's signed events (issue #11), in Stripe mode only.
  if (config.stripe) {
    const stripe = createStripeClient({ ...config.stripe, timeoutMs: config.gatewayTimeoutMs });
    await registerStripeWebhook(app, {
      stripe,
      webhookSecret: config.stripe.webhookSecret,
      applyEvent: (source, event, log) => applyPaymentEvent({ db, gateway, log }, source, event),
    });
  }
  // Recurring gifts (issue #13): the billing runner (started once the server listens) and its admin route.
  const recurring = await registerRecurring(app, { db, gateway, config, clock: clock ?? systemClock, links: planLinks });
  // The staff's daily digest (issue #14): its runner, started once the server listens, and its composer.
  const digest = registerDigest(app, { db, config, clock: clock ?? systemClock });
  // The staff back office's identity (issue #21): sessions, passkeys, e-mailed links, team, audit. NOTE: before every
  // plugin with /api/staff/ routes, which inherit its session hook.
  const staff = await registerStaff(app, { db, config, clock: clock ?? systemClock });
  // The transactional outbox's relay: receipts and other mail (issue #12), plans' mail (issue #13), staff mail (issue #21); started once the server listens.
  // The cards of dedicated gifts (issue #23, section 3).
  const tributeCards = createTributeComposer({ db, organization: config.organization });
  const compose: ComposeMail = (row) =>
    isWebhookMailKind(row.kind)
      ? webhooks.compose(row)
      : isTributeMailKind(row.kind)
      ? tributeCards(row)
      : row.kind === 'staff_digest'
      ? digest.compose(row)
      : isStaffMailKind(row.kind)
        ? staff.compose(row)
        : isRecurringMailKind(row.kind)
          ? recurring.compose(row)
          : receipts.compose(row);
  await registerMail(app, { db, settings: config.mail, compose, clock: clock ?? systemClock, transport: mailTransport });
  // The reconciler of pending donations (issue #3), started once the server listens, like the runners above.
  registerReconciler(app, { db, gateway, pendingTimeoutMs: config.pendingTimeoutMs, intervalMs: config.reconcileIntervalMs });
  // Operator actions under /api/admin/* (DESIGN.md, "Operator actions"): 404 unless ADMIN_TOKEN is set.
  await registerAdmin(app, { db, adminToken: config.adminToken, clock: clock ?? systemClock, gateway, timeZone: config.staffTimeZone });
  // The staff's donations (issue #21): list, export, detail, refunds, receipt resends, e-mail corrections. NOTE: after
  // registerStaff, whose session hook these routes' guard reads.
  await app.register(staffDonationRoutes, {
    db,
    gateway,
    clock: clock ?? systemClock,
    timeZone: config.staffTimeZone,
    organization: config.organization,
    publicUrl: config.site.publicUrl,
    links: receipts.links,
  });
  // The staff's recurring plans (issue #22): list, a plan's page, its changes and the e-mail of its manage link.
  await app.register(staffPlanRoutes, {
    db,
    gateway,
    clock: clock ?? systemClock,
    minAmountCents: config.minAmountCents,
    retriesTotal: config.billing.retryDays.length,
  });
  // The staff dashboard (issue #22): the figures at a glance. NOTE: after registerStaff, as the donations routes.
  await app.register(staffDashboardRoutes, { db, clock: clock ?? systemClock, timeZone: config.staffTimeZone });
  // The staff's donors and mail outbox (issue #22), after registerStaff too.
  await app.register(staffDonorRoutes, { db, clock: clock ?? systemClock, timeZone: config.staffTimeZone });
  await app.register(staffMailRoutes, { db, clock: clock ?? systemClock });
  // The staff's campaigns (issue #34), after registerStaff too.
  await app.register(staffCampaignRoutes, { db, clock: clock ?? systemClock, timeZone: config.staffTimeZone, publicUrl: config.site.publicUrl });
  // The admins' integrations: outgoing webhook endpoints (issue #38), after registerStaff too.
  await app.register(staffIntegrationRoutes, { db, clock: clock ?? systemClock });
  // The staff's gifts received outside the site (issue #37), after registerStaff too.
  await app.register(staffOfflineGiftRoutes, { db, clock: clock ?? systemClock, timeZone: config.staffTimeZone });
  // Liveness and readiness for a load balancer (issue #14).
  await registerHealthRoutes(app, { db, serverReadiness: databaseReadiness });
  // A campaign link's hero in the pre-rendered page's first HTML (issue #34, decision 0102), from the figures cache.
  await registerSite(app, config, {
    campaignHero: async (slug, locale) => {
      const found = await campaignFigures.publicCampaign(slug, locale);
      return found && campaignHeroHtml({ figures: found.figures, supporters: found.supporters, locale, now: (clock ?? systemClock).now(), timeZone: config.staffTimeZone });
    },
    // The framed pages (issue #35; decision 0104): who may frame them, their tokens, and in Stripe mode `payment` for Stripe.js.
    embed: {
      origins: config.embedOrigins,
      tokens: embedTokens,
      permissionsPolicy: config.stripe
        ? framedPagePermissionsPolicy([...new Set([...STRIPE_CSP_HOSTS.frame.filter((host) => !host.includes('*')), new URL(config.stripe.jsUrl).origin])])
        : undefined,
    },
  });
  await app.ready();
  return app;
}
