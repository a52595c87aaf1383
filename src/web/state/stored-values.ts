import { CAUSES } from '../../shared/causes';
import type { DonationResult, DonationSelection } from '../../shared/donation';
import { FREQUENCIES } from '../../shared/frequencies';
import { hasWholeCents, MAX_AMOUNT_DOLLARS, MIN_AMOUNT_DOLLARS } from '../../shared/money';
import type { SessionValidator } from './session-store';
import { isReceiptUrl } from '../../shared/receipt-link';
import { RECURRING_DATE_PATTERN } from '../../shared/recurring';

/*
 * NOTE: checks of what sessionStorage holds, written without zod. The store provider runs on
 * every screen, /donate included, and zod is most of the weight /donate would otherwise carry
 * (issue #5: bundle budget). They accept exactly what DonationSelectionSchema and
 * DonationResultSchema accept (strict objects, same constants); stored-values.test.ts pins that.
 */

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasExactKeys(value: Record<string, unknown>, keys: readonly string[]): boolean {
  const own = Object.keys(value);
  return own.length === keys.length && keys.every((key) => Object.hasOwn(value, key));
}

/** A validator from a type guard, in the shape of a zod schema's `safeParse`. */
function fromGuard<T>(guard: (value: unknown) => value is T): SessionValidator<T> {
  return { safeParse: (value) => (guard(value) ? { success: true, data: value } : { success: false }) };
}

/** True for a stored selection: `{amount, frequency, cause}` and nothing else, each valid. */
function isDonationSelection(value: unknown): value is DonationSelection {
  if (!isPlainObject(value) || !hasExactKeys(value, ['amount', 'frequency', 'cause'])) return false;
  const { amount, frequency, cause } = value;
  return (
    typeof amount === 'number' &&
    amount >= MIN_AMOUNT_DOLLARS &&
    amount <= MAX_AMOUNT_DOLLARS &&
    hasWholeCents(amount) &&
    (FREQUENCIES as readonly unknown[]).includes(frequency) &&
    (CAUSES as readonly unknown[]).includes(cause)
  );
}

/** True for a recurring gift's `{frequency, nextChargeOn}` (issue #13). */
function isRecurringNote(value: unknown): boolean {
  if (!isPlainObject(value) || !hasExactKeys(value, ['frequency', 'nextChargeOn'])) return false;
  return (value.frequency === 'monthly' || value.frequency === 'yearly') && typeof value.nextChargeOn === 'string' && RECURRING_DATE_PATTERN.test(value.nextChargeOn);
}

/**
 * True for a stored result: `{amount, donorName, transactionId, isTestPayment}`, with a receipt link or not, with a
 * recurring gift's note or not, with the fee covered (issue #23) or not, and nothing else.
 */
function isDonationResult(value: unknown): value is DonationResult {
  const keys = ['amount', 'donorName', 'transactionId', 'isTestPayment', ...['receiptUrl', 'recurring', 'feeCovered'].filter((key) => isPlainObject(value) && Object.hasOwn(value, key))];
  if (!isPlainObject(value) || !hasExactKeys(value, keys)) return false;
  if (Object.hasOwn(value, 'receiptUrl') && !isReceiptUrl(value.receiptUrl)) return false;
  if (Object.hasOwn(value, 'recurring') && !isRecurringNote(value.recurring)) return false;
  if (Object.hasOwn(value, 'feeCovered') && !(typeof value.feeCovered === 'number' && Number.isFinite(value.feeCovered))) return false;
  return (
    typeof value.amount === 'number' &&
    Number.isFinite(value.amount) &&
    typeof value.donorName === 'string' &&
    typeof value.transactionId === 'string' &&
    typeof value.isTestPayment === 'boolean'
  );
}

/** Validates the stored selection (the rules of DonationSelectionSchema, without zod). */
export const StoredSelection: SessionValidator<DonationSelection> = fromGuard(isDonationSelection);
/** Validates the stored donation result (the rules of DonationResultSchema, without zod). */
export const StoredResult: SessionValidator<DonationResult> = fromGuard(isDonationResult);
