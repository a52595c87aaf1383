import type { FastifyBaseLogger } from 'fastify';
import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { staffMembers, webhookAttempts, webhookDeliveries, webhookEndpoints, type WebhookDeliveryRow, type WebhookEndpointRow } from '../db/schema';
import { retryDelayMs } from '../mail/backoff';
import { enqueueMail } from '../mail/outbox';
import type { Clock } from '../platform/clock';
import { startPeriodicRunner } from '../platform/periodic-runner';
import { postWebhook, type TryResult } from './deliver';
import { signingSecrets, webhookHeaders } from './sign';
import { checkTarget, isRefusal, type TargetPolicy } from './target';

/**
 * The webhook relay (issue #38, "Delivery"; decision 0106), the mail relay's twin (mail/relay.ts): every process runs
 * one; each run claims the deliveries due (FOR UPDATE SKIP LOCKED, with a lease, so two processes never send one at
 * once and a process killed mid-try leaves it to the next run), checks the target again (target.ts), signs the stored
 * body with the endpoint's secrets (sign.ts) under the delivery's one `webhook-id`, POSTs it (deliver.ts), logs the try
 * (webhook_attempts) and settles it:
 * - 2xx: delivered;
 * - no answer (a timeout, a refused connection), 5xx or 429: retried with exponential backoff and jitter (5 s doubling
 *   to 1 hour) for three days from its first failed try (or from a resend), then failed;
 * - any other answer (4xx, 3xx: redirects are not followed) or a refused address: failed, not retried.
 * An endpoint whose tries have all failed for three days (`failing_since`) is paused, its waiting deliveries cancelled,
 * and every admin is e-mailed through the mail outbox, in one transaction.
 */

/** How long temporary failures are retried, and how long an endpoint may fail before it is paused: three days, in ms. */
export const WEBHOOK_RETRY_WINDOW_MS = 3 * 24 * 60 * 60 * 1000;
/** How long the delivery log is kept: 30 days, in ms (issue #38). */
export const WEBHOOK_LOG_KEPT_MS = 30 * 24 * 60 * 60 * 1000;
/** Deliveries claimed per query. */
const BATCH_SIZE = 20;
/** Deliveries sent at once within a batch. */
const CONCURRENCY = 4;
/** How often the delivery log is pruned, in ms. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/** What a delivery's try came to. */
export type DeliveryOutcome = 'delivered' | 'retried' | 'failed' | 'paused';

/** What the relay works with. */
export interface WebhookRelayDeps {
  db: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  /** The SSRF policy (resolver, loopback allowed in tests, http:// outside production). */
  policy: TargetPolicy;
  /** One try's limit, in ms (WEBHOOK_TIMEOUT_MS, 10 s). */
  timeoutMs: number;
  /** Counts a try's outcome for the metrics (`donation_site_webhook_deliveries_total`). */
  countOutcome?: (endpointId: string, outcome: DeliveryOutcome) => void;
  /** Jitter source (Math.random by default). */
  random?: () => number;
}

/** A claim's lease, in ms: longer than a try can take. */
export const WEBHOOK_CLAIM_LEASE_MS = 2 * 60 * 1000;

/** What one run did, by outcome. */
export type WebhookRelayReport = Record<DeliveryOutcome, number>;

/**
 * Claims up to `limit` deliveries due at `now` of ACTIVE endpoints (pending, due, no live lease), oldest due first,
 * in one statement: FOR UPDATE SKIP LOCKED, a lease until `now + leaseMs`, one more attempt. Returns them.
 */
export async function claimDueDeliveries(db: Database, { now, leaseMs, limit }: { now: Date; leaseMs: number; limit: number }): Promise<WebhookDeliveryRow[]> {
  const due = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(
      and(
        eq(webhookDeliveries.status, 'pending'),
        eq(webhookEndpoints.status, 'active'),
        lte(webhookDeliveries.nextAttemptAt, now),
        or(isNull(webhookDeliveries.lockedUntil), lte(webhookDeliveries.lockedUntil, now)),
      ),
    )
    .orderBy(asc(webhookDeliveries.nextAttemptAt))
    .limit(limit)
    .for('update', { of: webhookDeliveries, skipLocked: true });
  return db
    .update(webhookDeliveries)
    .set({ lockedUntil: new Date(now.getTime() + leaseMs), attempts: sql`${webhookDeliveries.attempts} + 1` })
    .where(inArray(webhookDeliveries.id, due))
    .returning();
}

/** True for an answer worth another try: none at all (timeout, connection refused), 5xx or 429 (issue #38). */
export function isRetryable(result: Pick<TryResult, 'statusCode'>): boolean {
  return result.statusCode === undefined || result.statusCode >= 500 || result.statusCode === 429;
}

/**
 * Pauses `endpoint` for failing (three days of failed tries), cancels its waiting deliveries and queues the admins'
 * e-mail (one per admin, naming the endpoint), in `tx`. Returns false when it was not active any more (nothing done).
 */
async function pauseFailingEndpoint(tx: Database, endpoint: WebhookEndpointRow): Promise<boolean> {
  const paused = await tx
    .update(webhookEndpoints)
    .set({ status: 'paused', pausedReason: 'failing', updatedAt: sql`now()` })
    .where(and(eq(webhookEndpoints.id, endpoint.id), eq(webhookEndpoints.status, 'active')))
    .returning({ id: webhookEndpoints.id });
  if (paused.length === 0) return false;
  await tx
    .update(webhookDeliveries)
    .set({ status: 'cancelled', lockedUntil: null, lastError: 'The endpoint was paused after three days of failures' })
    .where(and(eq(webhookDeliveries.endpointId, endpoint.id), eq(webhookDeliveries.status, 'pending')));
  const admins = await tx.select({ id: staffMembers.id, email: staffMembers.email }).from(staffMembers).where(and(eq(staffMembers.role, 'admin'), isNull(staffMembers.removedAt)));
  const since = endpoint.failingSince?.toISOString() ?? 'unknown';
  for (const admin of admins) {
    await enqueueMail(tx, {
      kind: 'webhook_endpoint_paused',
      dedupeKey: `webhook_endpoint_paused:${endpoint.id}:${since}:${admin.id}`,
      recipient: admin.email,
      webhookEndpointId: endpoint.id,
    });
  }
  return true;
}

/**
 * Tries one claimed delivery and records it (see the module comment). Logs ids, the endpoint and the outcome only,
 * never the body (it may carry donor contact).
 */
async function deliverOne(deps: WebhookRelayDeps, row: WebhookDeliveryRow): Promise<DeliveryOutcome> {
  const { db, clock, log } = deps;
  const [endpoint] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, row.endpointId));
  if (!endpoint || endpoint.status !== 'active') {
    await db.update(webhookDeliveries).set({ lockedUntil: null }).where(eq(webhookDeliveries.id, row.id));
    return 'retried';
  }
  const attemptedAt = clock.now();
  const target = await checkTarget(endpoint.url, deps.policy);
  let result: TryResult;
  let retryable: boolean;
  if (isRefusal(target)) {
    result = { statusCode: undefined, responseStart: '', latencyMs: 0, error: target.refused };
    retryable = target.retryable;
  } else {
    // NOTE: the wall clock signs: a receiver checks the timestamp against its own time (the specification's tolerance).
    const headers = webhookHeaders(row.messageId, new Date(), row.body, signingSecrets(endpoint, attemptedAt));
    result = await postWebhook(target, headers, row.body, deps.timeoutMs);
    retryable = isRetryable(result);
  }
  const ok = result.statusCode !== undefined && result.statusCode >= 200 && result.statusCode < 300;
  const now = clock.now();
  const about = { webhookDeliveryId: row.id, webhookId: row.messageId, endpointId: endpoint.id, eventType: row.eventType, attempt: row.attempts, statusCode: result.statusCode, latencyMs: result.latencyMs };
  const outcome = await db.transaction(async (tx): Promise<DeliveryOutcome> => {
    await tx.insert(webhookAttempts).values({
      deliveryId: row.id,
      endpointId: endpoint.id,
      attemptedAt,
      statusCode: result.statusCode ?? null,
      latencyMs: result.latencyMs,
      responseStart: result.responseStart,
      error: result.error ?? null,
    });
    const settle = (set: Partial<WebhookDeliveryRow>) =>
      tx.update(webhookDeliveries).set({ ...set, lockedUntil: null }).where(and(eq(webhookDeliveries.id, row.id), eq(webhookDeliveries.status, 'pending')));
    if (ok) {
      await settle({ status: 'delivered', deliveredAt: now, lastError: null });
      await tx.update(webhookEndpoints).set({ failingSince: null }).where(eq(webhookEndpoints.id, endpoint.id));
      return 'delivered';
    }
    const reason = result.error ?? `HTTP ${result.statusCode ?? ''}`.trim();
    const failingSince = endpoint.failingSince ?? attemptedAt;
    if (endpoint.failingSince === null) await tx.update(webhookEndpoints).set({ failingSince }).where(eq(webhookEndpoints.id, endpoint.id));
    if (now.getTime() - failingSince.getTime() >= WEBHOOK_RETRY_WINDOW_MS) {
      await settle({ status: 'failed', lastError: reason });
      return (await pauseFailingEndpoint(tx, { ...endpoint, failingSince })) ? 'paused' : 'failed';
    }
    const windowStart = row.retryWindowStartedAt ?? attemptedAt;
    const tooOld = now.getTime() - windowStart.getTime() >= WEBHOOK_RETRY_WINDOW_MS;
    if (!retryable || tooOld) {
      await settle({ status: 'failed', lastError: reason, retryWindowStartedAt: windowStart });
      return 'failed';
    }
    await settle({ nextAttemptAt: new Date(now.getTime() + retryDelayMs(row.attempts, deps.random)), lastError: reason, retryWindowStartedAt: windowStart });
    return 'retried';
  });
  deps.countOutcome?.(endpoint.id, outcome);
  if (outcome === 'paused') log.error({ event: 'webhook.endpoint_paused', ...about }, 'Webhook endpoint failing for three days; paused and admins e-mailed');
  else if (outcome === 'failed') log.warn({ event: 'webhook.failed', ...about, reason: result.error }, 'Webhook delivery failed; not retried');
  else if (outcome === 'retried') log.info({ event: 'webhook.retry', ...about, reason: result.error }, 'Webhook delivery failed; will retry');
  else log.info({ event: 'webhook.delivered', ...about }, 'Webhook delivered');
  return outcome;
}

/** Deletes delivery log rows (and settled deliveries) older than 30 days by `now` (issue #38: "kept 30 days"). */
export async function pruneWebhookLog(db: Database, now: Date): Promise<void> {
  const before = new Date(now.getTime() - WEBHOOK_LOG_KEPT_MS);
  await db.delete(webhookAttempts).where(lt(webhookAttempts.attemptedAt, before));
  await db.delete(webhookDeliveries).where(and(lt(webhookDeliveries.createdAt, before), inArray(webhookDeliveries.status, ['delivered', 'failed', 'cancelled'])));
}

/**
 * One relay run: claims the deliveries due (batches of 20 until none is left) and tries them, 4 at a time; stops
 * between two groups once `signal` is aborted (graceful shutdown: claimed ones wait for their lease). Resolves with
 * what it did; rejects when the database fails (the next run starts over).
 */
export async function relayDueWebhooks(deps: WebhookRelayDeps, signal?: AbortSignal): Promise<WebhookRelayReport> {
  const report: WebhookRelayReport = { delivered: 0, retried: 0, failed: 0, paused: 0 };
  for (;;) {
    const batch = await claimDueDeliveries(deps.db, { now: deps.clock.now(), leaseMs: WEBHOOK_CLAIM_LEASE_MS, limit: BATCH_SIZE });
    for (let start = 0; start < batch.length; start += CONCURRENCY) {
      if (signal?.aborted) return report;
      const outcomes = await Promise.all(batch.slice(start, start + CONCURRENCY).map((row) => deliverOne(deps, row)));
      for (const outcome of outcomes) report[outcome] += 1;
    }
    if (batch.length < BATCH_SIZE || signal?.aborted) return report;
  }
}

/** A running relay: a run now on demand, and stop. */
export interface RunningWebhookRelay {
  runNow(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts the relay loop (a run now, then one `intervalMs` after each), pruning the log at most hourly. */
export function startWebhookRelay(deps: WebhookRelayDeps, intervalMs: number): RunningWebhookRelay {
  let prunedAt = 0;
  const runner = startPeriodicRunner({
    intervalMs,
    run: async (signal) => {
      const report = await relayDueWebhooks(deps, signal);
      if (Object.values(report).some((n) => n > 0)) deps.log.info({ webhookRelay: report }, 'Webhook relay run finished');
      const now = deps.clock.now();
      if (now.getTime() - prunedAt >= PRUNE_EVERY_MS) {
        prunedAt = now.getTime();
        await pruneWebhookLog(deps.db, now);
      }
    },
    onError: (error) => deps.log.error({ err: error }, 'Webhook relay run failed; retrying at the next interval'),
  });
  return { runNow: async () => void (await runner.runNow()), stop: runner.stop };
}
