import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Database } from '../db/client';
import { pruneExpiredIdempotencyKeys } from '../idempotency/repository';
import { gatewayIdempotencyKey, type ChargeLookup, type PaymentGateway } from '../payments/gateway';
import { ABANDONED_DECLINE_CODE, ABANDONED_MESSAGE, declinedAnswer, succeededAnswer } from '../ledger/answers';
import {
  countPendingDonations,
  DonationTransitionError,
  listStalePendingDonations,
  markDonationFailed,
  markDonationSucceeded,
  type StalePendingDonation,
} from '../ledger/repository';
import { listStalePendingRefunds, settlementOf, settleRefund, type RefundSettlement } from '../ledger/refund-ledger';
import { startPeriodicRunner } from '../platform/periodic-runner';

/**
 * The reconciler (issue #3, "A durable ledger"): resolves donations left `pending` (the process died between
 * charge and commit, the gateway timed out, the database failed after the charge) by asking the gateway what
 * became of each one's key, and completes their Idempotency-Keys so a client's retry replays the outcome. Since
 * issue #32 (decision 0095) it settles refunds left `pending` the same way (reconcilePendingRefunds).
 */

/** What the reconciler works with. */
export interface ReconcilerDeps {
  db: Database;
  gateway: PaymentGateway;
  log: FastifyBaseLogger;
}

/** What one reconciliation run did; `stillPending` counts every pending row left afterwards, young ones included. */
export interface ReconcileReport {
  succeeded: number;
  failed: number;
  abandoned: number;
  /** Donations the gateway could not be asked about this time (they stay pending for the next run). */
  unresolved: number;
  stillPending: number;
  prunedKeys: number;
  /** The refunds left pending that this run settled (`succeeded`, `failed`) or could not ask about (`unresolved`). */
  refunds: RefundReconcileReport;
}

/** What one run did of the refunds left pending (decision 0095). */
export interface RefundReconcileReport {
  succeeded: number;
  failed: number;
  unresolved: number;
}

/** Code and message of a refund left pending that the gateway has no record of: it was never made (decision 0095). */
export const REFUND_NOT_MADE_CODE = 'refund_not_made';
export const REFUND_NOT_MADE_MESSAGE = 'The payment gateway has no refund under this request: nothing was refunded. Ask for the refund again with a new Idempotency-Key.';

/**
 * Settles every refund `pending` for more than `pendingTimeoutMs` (database clock; decision 0095): its request died,
 * lost the gateway's answer or could not record it. Asks the gateway for the refund made of its charge under its
 * gateway key (retrieveRefund): made → `succeeded` with its id (counted, the receipt, the donor's notice and the staff
 * audit entry, as the request would have: ledger/refund-ledger.ts settleRefund) or `failed` when the gateway's refund
 * failed; none → `failed` with {@link REFUND_NOT_MADE_CODE}. One the gateway cannot be asked about stays pending
 * (`unresolved`); one settled meanwhile (by its request's retry or the gateway's webhook) is left as it is. Stops
 * before the next refund once `signal` is aborted. Rejects when the database fails.
 */
export async function reconcilePendingRefunds(
  { db, gateway, log }: ReconcilerDeps,
  pendingTimeoutMs: number,
  signal?: AbortSignal,
): Promise<RefundReconcileReport> {
  const report: RefundReconcileReport = { succeeded: 0, failed: 0, unresolved: 0 };
  // NOTE: one batch per run; what is left (over BATCH_SIZE) waits for the next run.
  for (const { refund, transactionId } of await listStalePendingRefunds(db, pendingTimeoutMs, BATCH_SIZE)) {
    if (signal?.aborted) break;
    let made;
    try {
      made =
        refund.gatewayIdempotencyKey === null || transactionId === null
          ? undefined
          : await gateway.retrieveRefund({ transactionId, idempotencyKey: refund.gatewayIdempotencyKey });
    } catch (error) {
      report.unresolved += 1;
      log.warn({ err: error, refundId: refund.id }, 'Reconciler could not ask the gateway; refund stays pending');
      continue;
    }
    const settlement: RefundSettlement = made ? settlementOf(made) : { status: 'failed', failureCode: REFUND_NOT_MADE_CODE, failureMessage: REFUND_NOT_MADE_MESSAGE };
    const { refund: settled, settledNow } = await settleRefund(db, refund.id, settlement);
    if (!settledNow) continue;
    report[settled.status === 'succeeded' ? 'succeeded' : 'failed'] += 1;
    log.info({ event: 'refund.reconciled', refundId: refund.id, donationId: refund.donationId, status: settled.status }, 'Reconciled a pending refund');
  }
  return report;
}

/** Donations read per query. */
const BATCH_SIZE = 200;

/**
 * What the gateway's payment intent says of a pending donation, as a charge lookup: succeeded or declined as
 * its last attempt went; `not_found` (abandoned) when the gateway does not know it, it was canceled, or it was
 * never confirmed; undefined while it is still settling (processing, 3-D Secure), so the donation stays pending.
 */
export async function lookupPaymentIntent(gateway: PaymentGateway, paymentIntentId: string): Promise<ChargeLookup | undefined> {
  const intent = await gateway.retrievePaymentIntent(paymentIntentId);
  if (!intent || intent.status === 'canceled') return { status: 'not_found' };
  if (intent.status === 'succeeded' && intent.charge) return { status: 'succeeded', ...intent.charge, isTestPayment: intent.isTestPayment };
  if (intent.status === 'requires_payment_method') {
    return intent.lastDecline ? { status: 'declined', ...intent.lastDecline, isTestPayment: intent.isTestPayment } : { status: 'not_found' };
  }
  return undefined;
}

/** Records what the gateway says of one pending donation; returns which way it went. */
async function resolve(
  db: Database,
  donation: StalePendingDonation,
  lookup: ChargeLookup,
): Promise<'succeeded' | 'failed' | 'abandoned'> {
  switch (lookup.status) {
    case 'succeeded':
      await markDonationSucceeded(db, donation.id, lookup, succeededAnswer({ ...donation, ...lookup }));
      return 'succeeded';
    case 'declined':
      await markDonationFailed(db, donation.id, lookup, declinedAnswer(lookup.message, lookup.declineCode));
      return 'failed';
    case 'not_found':
      // Never charged under its key, and old enough that no request is still about to charge it.
      await markDonationFailed(db, donation.id, { declineCode: ABANDONED_DECLINE_CODE }, declinedAnswer(ABANDONED_MESSAGE, ABANDONED_DECLINE_CODE));
      return 'abandoned';
  }
}

/**
 * One reconciliation run: every donation `pending` for more than `pendingTimeoutMs` (database clock) is
 * resolved with `gateway.retrieveCharge` of its key (or, for one made through a payment intent, with the intent
 * itself: lookupPaymentIntent; one still settling stays pending, counted as `unresolved`): succeeded → `succeeded` with the transaction id;
 * declined → `failed` with the decline code; not found → `failed` with {@link ABANDONED_DECLINE_CODE}.
 * A donation the gateway cannot be asked about stays pending (counted as `unresolved`); one that another
 * process resolved meanwhile is skipped. Then the refunds left pending are settled (reconcilePendingRefunds), and
 * expired Idempotency-Keys are pruned. Once `signal` is aborted (the
 * reconciler stops: graceful shutdown, issue #14) it goes no further than the donation at hand (the rest stay
 * pending for the next run) and ends with the pruning and the count. Rejects when the database fails (the run
 * stops; the next one starts over).
 */
export async function reconcilePendingDonations(
  { db, gateway, log }: ReconcilerDeps,
  pendingTimeoutMs: number,
  signal?: AbortSignal,
): Promise<ReconcileReport> {
  const report: ReconcileReport = {
    succeeded: 0,
    failed: 0,
    abandoned: 0,
    unresolved: 0,
    stillPending: 0,
    prunedKeys: 0,
    refunds: { succeeded: 0, failed: 0, unresolved: 0 },
  };
  for (;;) {
    const batch = await listStalePendingDonations(db, pendingTimeoutMs, BATCH_SIZE);
    let resolvedInBatch = 0;
    for (const donation of batch) {
      if (signal?.aborted) break;
      let lookup: ChargeLookup | undefined;
      try {
        lookup = donation.paymentIntentId
          ? await lookupPaymentIntent(gateway, donation.paymentIntentId)
          : await gateway.retrieveCharge(gatewayIdempotencyKey(donation.id));
      } catch (error) {
        report.unresolved += 1;
        log.warn({ err: error, donationId: donation.id }, 'Reconciler could not ask the gateway; donation stays pending');
        continue;
      }
      if (!lookup) {
        report.unresolved += 1;
        continue;
      }
      try {
        const outcome = await resolve(db, donation, lookup);
        report[outcome] += 1;
        resolvedInBatch += 1;
        log.info({ donationId: donation.id, outcome }, 'Reconciled a pending donation');
      } catch (error) {
        if (!(error instanceof DonationTransitionError)) throw error;
      }
    }
    if (batch.length < BATCH_SIZE || resolvedInBatch === 0 || signal?.aborted) break;
  }
  report.refunds = await reconcilePendingRefunds({ db, gateway, log }, pendingTimeoutMs, signal);
  report.prunedKeys = await pruneExpiredIdempotencyKeys(db);
  report.stillPending = await countPendingDonations(db);
  return report;
}

/** A running reconciler; `stop` cancels the next run and waits for the current one to finish. */
export interface RunningReconciler {
  stop(): Promise<void>;
}

/**
 * Starts the reconciler (issue #3: "runs at start-up and on an interval"): a run now, then one
 * `intervalMs` after each run ends (never two at once). A failed run is logged and the next one happens
 * on schedule. Each run's report is logged as `Reconciliation finished`.
 */
export function startReconciler(
  deps: ReconcilerDeps,
  options: { pendingTimeoutMs: number; intervalMs: number },
): RunningReconciler {
  return startPeriodicRunner({
    intervalMs: options.intervalMs,
    run: async (signal) => {
      const report = await reconcilePendingDonations(deps, options.pendingTimeoutMs, signal);
      deps.log.info({ reconcile: report }, 'Reconciliation finished');
    },
    onError: (error) => deps.log.error({ err: error }, 'Reconciliation failed; retrying at the next interval'),
  });
}

/**
 * Runs the reconciler with `app` (issue #3; issue #14), as the app's other runners run: started when the server
 * listens (so `app.inject()` tests reconcile only when they ask: TestApp.reconcile), on the app's gateway and logger,
 * and stopped when the app closes, once the donation at hand is settled (graceful shutdown).
 */
export function registerReconciler(
  app: FastifyInstance,
  { db, gateway, ...options }: Omit<ReconcilerDeps, 'log'> & { pendingTimeoutMs: number; intervalMs: number },
): void {
  let running: RunningReconciler | undefined;
  app.addHook('onListen', async () => {
    running ??= startReconciler({ db, gateway, log: app.log }, options);
  });
  app.addHook('onClose', async () => {
    await running?.stop();
  });
}
