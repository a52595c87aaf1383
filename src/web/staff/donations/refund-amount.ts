import { dollarsToCents, hasWholeCents } from '../../../shared/money';
import { formatCents } from '../components/format';

/**
 * Reads the partial refund's amount as typed in dollars (`12.50`) against what is left to refund (`leftCents`):
 * `{amountCents}` (integer cents) or `{error}` saying what to type. Issue #21: never more than what is left.
 */
export function parseRefundAmount(text: string, leftCents: number): { amountCents?: number; error?: string } {
  const trimmed = text.trim();
  const dollars = Number(trimmed);
  if (!/^\d+(\.\d{1,2})?$/.test(trimmed) || !hasWholeCents(dollars)) return { error: 'Enter an amount in dollars, like 12.50' };
  const amountCents = dollarsToCents(dollars);
  if (amountCents < 1) return { error: 'Enter an amount of at least $0.01' };
  if (amountCents > leftCents) return { error: `At most ${formatCents(leftCents)} is left to refund` };
  return { amountCents };
}
