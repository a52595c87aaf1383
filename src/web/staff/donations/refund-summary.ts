import { formatCents } from '../components/format';

/** The donation as the refund's summary needs it: amounts in cents, the card, the address the notice goes to. */
export interface RefundSubject {
  amountCents: number;
  refundedCents: number;
  cardBrand: string | null;
  last4: string | null;
  email: string;
  receiptNumber: string | null;
}

/**
 * What a refund of `amountCents` will do, in words, for the dialog to say before it is confirmed (issue #21: "the
 * dialog says exactly what will happen"), following the existing refund semantics (issue #14): the money back to the
 * card; all that is left voids the receipt and e-mails a void notice; a part keeps the receipt for the rest and
 * e-mails the donor the corrected amount.
 */
export function describeRefund(subject: RefundSubject, amountCents: number): string {
  const leftCents = subject.amountCents - subject.refundedCents;
  const card = subject.last4 ? `their ${subject.cardBrand ?? 'card'} ending ${subject.last4}` : 'the payment method they gave with';
  const receipt = subject.receiptNumber ? `receipt ${subject.receiptNumber}` : 'the receipt';
  const back = `${formatCents(amountCents)} goes back to ${card}.`;
  if (amountCents >= leftCents) {
    return `${back} Nothing of the ${formatCents(subject.amountCents)} donation is kept: ${receipt} is voided and ${subject.email} is e-mailed that it no longer counts.`;
  }
  return `${back} ${formatCents(leftCents - amountCents)} of the ${formatCents(subject.amountCents)} donation is kept: ${receipt} stays valid for that amount and ${subject.email} is e-mailed the corrected amount.`;
}
