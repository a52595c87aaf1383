import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry } from 'prom-client';
import { requireAdminToken } from '../http/operator-auth';
import { REFUSING_LIMITS, type RefusingLimit } from '../card-testing/events';
import type { Database } from '../db/client';
import type { Clock } from '../platform/clock';
import type { PaymentGateway } from '../payments/gateway';
import { registerDatabaseGauges } from './database-gauges';
import { timeGatewayCalls, type GatewayCallLabel } from './gateway-timing';
import { processMetricsRegistry } from './process-metrics';

/**
 * Prometheus metrics of the running site (issue #14, "Operating the process"), with prom-client, on a registry of
 * the app's own (so tests that build many apps never share a metric) merged at scrape time with the process's default
 * metrics. What is counted where: docs/decisions/0051-metrics.md.
 */

/**
 * Path Prometheus scrapes (issue #14). NOTE: outside /api, where scrapers look by default. A GET, so neither the CSRF
 * check nor the card-testing limits per IP apply to it (both pass GET and HEAD), as they do not to machine routes.
 */
export const METRICS_PATH = '/metrics';

/** Upper bounds of the gateway latency histogram's buckets, in seconds: from a fast API call to GATEWAY_TIMEOUT_MS's default. */
export const GATEWAY_LATENCY_BUCKETS_SECONDS: readonly number[] = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20];

/** What registerMetrics needs. */
export interface MetricsOptions {
  db: Database;
  /** The gateway the app charges through; registerMetrics answers it timed. */
  gateway: PaymentGateway;
  /** The runners' clock: "now" of the renewals due and of the outbox's ages (DESIGN.md, "Time"). */
  clock: Clock;
  /** ADMIN_TOKEN: the bearer token of GET /metrics; unset, the route answers 404 (DESIGN.md, "Operator actions"). */
  adminToken: string | undefined;
  /** Registries of metrics other folders keep (the scheduled backups', issue #33), answered with these. */
  registries?: readonly Registry[];
}

/** What the rest of the app feeds the metrics with. */
export interface AppMetrics {
  /** `options.gateway` with every call timed into `donation_site_gateway_request_duration_seconds`: the app charges through it. */
  gateway: PaymentGateway;
  /** Counts a payment attempt refused by `limit` into `donation_site_card_testing_refusals_total` (the defence's onRefusal). */
  countRefusal(limit: RefusingLimit): void;
}

/**
 * Registers GET {@link METRICS_PATH} on `app`, behind requireAdminToken (404 with ADMIN_TOKEN unset, 401 with
 * `WWW-Authenticate: Bearer` without the right token), answering Prometheus's text format with `Cache-Control:
 * no-store`: the app's metrics, the database gauges (registerDatabaseGauges) and the process's default metrics; 500
 * when the database cannot be read. Returns the timed gateway and the refusal counter of {@link AppMetrics}:
 * - `donation_site_gateway_request_duration_seconds{gateway,operation,outcome}`: each gateway call, in seconds;
 * - `donation_site_card_testing_refusals_total{limit}`: payment attempts refused by each card-testing limit (`ip`,
 *   `ipCeiling`, `email`, `card`, `velocity`) in this process since it started.
 */
export async function registerMetrics(app: FastifyInstance, { db, gateway, clock, adminToken, registries = [] }: MetricsOptions): Promise<AppMetrics> {
  const registry = new Registry();
  const gatewayLatency = new Histogram<GatewayCallLabel>({
    name: 'donation_site_gateway_request_duration_seconds',
    help: 'Time each payment gateway call took, in seconds, by gateway, operation (method) and outcome.',
    labelNames: ['gateway', 'operation', 'outcome'],
    buckets: [...GATEWAY_LATENCY_BUCKETS_SECONDS],
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'donation_site_card_testing_refusals_total',
    help: 'Payment attempts refused by a card-testing limit, by limit, in this process since it started.',
    labelNames: ['limit'] as const,
    registers: [registry],
  });
  for (const limit of REFUSING_LIMITS) refusals.inc({ limit }, 0);
  registerDatabaseGauges(registry, { db, clock, gatewayName: gateway.name });
  const scraped = Registry.merge([registry, ...registries, processMetricsRegistry()]);

  app.get(METRICS_PATH, { onRequest: requireAdminToken(adminToken) }, async (_request, reply) => {
    const text = await scraped.metrics();
    return reply.header('content-type', scraped.contentType).header('cache-control', 'no-store').send(text);
  });
  return {
    gateway: timeGatewayCalls(gateway, gatewayLatency),
    countRefusal: (limit) => refusals.inc({ limit }),
  };
}
