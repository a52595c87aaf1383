import type { FastifyInstance } from 'fastify';
import { asc, eq } from 'drizzle-orm';
import { Counter, Gauge, Registry } from 'prom-client';
import type { Database } from '../db/client';
import { webhookDeliveries } from '../db/schema';
import type { Clock } from '../platform/clock';
import type { WebhookSettings } from '../platform/config';
import { createWebhookComposer } from './compose';
import { relayDueWebhooks, startWebhookRelay, type DeliveryOutcome, type RunningWebhookRelay, type WebhookRelayDeps, type WebhookRelayReport } from './relay';
import { systemResolver, type ResolveHost, type TargetPolicy } from './target';
import type { ComposeMail } from '../mail/relay';

/** Outgoing webhooks as the app holds them (`app.webhooks`): the SSRF policy of the staff routes, and a relay run on demand. */
export interface AppWebhooks {
  /** The target check's policy (resolver, loopback allowed in tests, http:// outside production). */
  readonly policy: TargetPolicy;
  /** Delivers every delivery due now (one relay run) and resolves with what it did. */
  relayDue(): Promise<WebhookRelayReport>;
  /** Asks the running relay (once the server listens) for a run now, without waiting; nothing before. */
  nudge(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Outgoing webhooks (issue #38); see registerWebhooks. */
    webhooks: AppWebhooks;
  }
}

/** What registerWebhooks needs. */
export interface WebhooksOptions {
  db: Database;
  settings: WebhookSettings;
  clock: Clock;
  /** PUBLIC_URL: the admins' e-mail links to the integrations page. */
  publicUrl: string;
  /** A resolver instead of the system's (tests: a name resolving to a private address). */
  resolve?: ResolveHost;
}

/**
 * Registers outgoing webhooks (issue #38; decision 0106): `app.webhooks`, the relay loop (started when the server
 * listens, stopped when the app closes, like the mail relay), and its metrics on a registry of its own (merged into
 * /metrics by app.ts):
 * - `donation_site_webhook_deliveries_total{endpoint,outcome}`: tries by endpoint id and outcome (`delivered`,
 *   `retried`, `failed`, `paused`) in this process;
 * - `donation_site_webhook_oldest_pending_age_seconds`: age of the oldest delivery not yet delivered (0 when none), by
 *   the injected clock.
 * Returns the registry and the composer of the admins' e-mail.
 */
export function registerWebhooks(app: FastifyInstance, options: WebhooksOptions): { registry: Registry; compose: ComposeMail } {
  const registry = new Registry();
  const deliveries = new Counter<'endpoint' | 'outcome'>({
    name: 'donation_site_webhook_deliveries_total',
    help: 'Webhook delivery tries by endpoint id and outcome (delivered, retried, failed, paused), in this process.',
    labelNames: ['endpoint', 'outcome'],
    registers: [registry],
  });
  const { db, clock } = options;
  new Gauge({
    name: 'donation_site_webhook_oldest_pending_age_seconds',
    help: 'Seconds since the oldest webhook event not yet delivered was recorded; 0 when every event is delivered.',
    registers: [registry],
    async collect() {
      const [oldest] = await db
        .select({ createdAt: webhookDeliveries.createdAt })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.status, 'pending'))
        .orderBy(asc(webhookDeliveries.createdAt))
        .limit(1);
      this.set(oldest ? Math.max(0, (clock.now().getTime() - oldest.createdAt.getTime()) / 1000) : 0);
    },
  });
  const policy: TargetPolicy = {
    resolve: options.resolve ?? systemResolver,
    allowPrivate: options.settings.allowPrivateTargets,
    allowHttp: options.settings.allowHttp,
  };
  const deps: WebhookRelayDeps = {
    db,
    clock,
    log: app.log,
    policy,
    timeoutMs: options.settings.timeoutMs,
    countOutcome: (endpoint: string, outcome: DeliveryOutcome) => deliveries.inc({ endpoint, outcome }),
  };
  let running: RunningWebhookRelay | undefined;
  app.decorate('webhooks', {
    policy,
    relayDue: () => relayDueWebhooks(deps),
    nudge: () => void running?.runNow(),
  } satisfies AppWebhooks);
  app.addHook('onListen', async () => {
    running ??= startWebhookRelay(deps, options.settings.pollIntervalMs);
  });
  app.addHook('onClose', async () => {
    await running?.stop();
  });
  return { registry, compose: createWebhookComposer({ db, publicUrl: options.publicUrl }) };
}
