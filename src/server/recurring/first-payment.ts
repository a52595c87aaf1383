import type { CardBrand } from '../../shared/card';
import type { Database } from '../db/client';
import { markDonationSucceeded, type StoredAnswer } from '../ledger/repository';
import type { ChargeCard, PaymentGateway, SavedPaymentMethod } from '../payments/gateway';
import type { ProcessDonationSuccess } from '../../shared/api';
import type { Frequency } from '../../shared/frequencies';
import type { FinalAnswer } from '../ledger/answers';
import { chargeDate, isRecurringFrequency, toIsoDate, type RecurringFrequency } from './calendar';
import { createPlanForFirstDonation } from './plans';

/**
 * The first gift of a recurring plan (issue #13): its card is saved before it is charged, and its plan is created in
 * the transaction that marks it succeeded (with its receipt), so a plan exists exactly when its first gift does.
 */

/**
 * Saves `card` with the gateway for the renewals of a `frequency` gift (test mode: a vaulted token). Resolves with
 * the saved method, or undefined when the gift is one-time or the card cannot be saved (the charge that follows is
 * declined the same way). Rejects when the gateway cannot be asked.
 */
export async function saveCardForRenewals(
  gateway: PaymentGateway,
  frequency: RecurringFrequency | 'one-time',
  card: ChargeCard,
): Promise<SavedPaymentMethod | undefined> {
  if (frequency === 'one-time') return undefined;
  const saved = await gateway.savePaymentMethod(card);
  return saved.status === 'saved' ? saved.paymentMethod : undefined;
}

/**
 * The success answer of a gift that starts a plan, with `recurring: {frequency, nextChargeOn}` (the first renewal's
 * UTC date, counted from `now` as the plan's calendar is), so the thank-you page can say `$50 monthly` and when the
 * next charge is (issue #13). `frequency` is the gift's when its card was saved, else falsy (no plan: the answer as is).
 */
export function withRecurringNote(
  answer: FinalAnswer<ProcessDonationSuccess>,
  frequency: Frequency | false | undefined,
  now: Date,
): FinalAnswer<ProcessDonationSuccess> {
  if (!frequency || !isRecurringFrequency(frequency)) return answer;
  const recurring = { frequency, nextChargeOn: chargeDate(toIsoDate(now), frequency, 1) };
  return { ...answer, body: { ...answer.body, data: { ...answer.body.data, recurring } } };
}

/**
 * Marks `donationId` succeeded (markDonationSucceeded: its receipt and the answer to replay) and, when `saved` is
 * given, creates the donation's plan (anchored on `now`'s UTC date) in the SAME transaction. Resolves with the
 * receipt number and the plan's first renewal date (undefined without a plan). `from` as markDonationSucceeded's. Throws as markDonationSucceeded does;
 * any error rolls back all of it.
 */
export async function markSucceededAndStartPlan(
  db: Database,
  donationId: string,
  outcome: { transactionId: string; cardBrand: CardBrand; last4: string; isTestPayment: boolean },
  answer: StoredAnswer,
  plan: { saved: SavedPaymentMethod | undefined; gateway: string; now: Date },
  from: readonly ('pending' | 'failed')[] = ['pending'],
): Promise<{ receiptNumber: string; nextChargeOn: string | undefined }> {
  const { saved } = plan;
  if (!saved) return { ...(await markDonationSucceeded(db, donationId, outcome, answer, from)), nextChargeOn: undefined };
  return db.transaction(async (tx) => {
    const marked = await markDonationSucceeded(tx, donationId, outcome, answer, from);
    const created = await createPlanForFirstDonation(tx, {
      firstDonationId: donationId,
      paymentMethod: saved,
      gateway: plan.gateway,
      anchorDate: toIsoDate(plan.now),
    });
    return { ...marked, nextChargeOn: created?.nextChargeOn };
  });
}
