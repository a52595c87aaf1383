import { cardLast4, detectCardBrand } from '../../shared/card';
import type { DonationDetails } from '../../shared/donation';
import { CURRENCY, dollarsToCents } from '../../shared/money';
import type { PaymentGateway } from '../payments/gateway';
import type { PendingDonation } from '../ledger/repository';
import { campaignFeeColumns, type CampaignFeeSettings } from './campaign-fee';

/** An optional text field as stored: trimmed by the schema, and NULL rather than '' when left empty. */
const orNull = (value: string | undefined): string | null => (value ? value : null);

/**
 * The pending row of a donation (issues #2 and #11): `details` with its amount in dollars, stored in cents;
 * the card's brand computed from `cardNumber` and its last4 only (never the PAN or CVV), or unknown (null)
 * when the card is given to the gateway in the browser (Stripe mode); `paymentIntentId` when the donation is
 * made through a payment intent. With `settings` (issue #23): the amount charged is the gift plus the fee the server
 * computes when `details.coverFee`, and the campaign is recorded when known (see campaignFeeColumns). The donor's
 * `details.locale` is kept (issue #24).
 */
export function toPendingDonation(
  details: DonationDetails & { amount: number; coverFee?: boolean },
  cardNumber: string | undefined,
  gateway: PaymentGateway,
  paymentIntentId: string | undefined,
  settings: CampaignFeeSettings,
): PendingDonation {
  return {
    ...campaignFeeColumns(dollarsToCents(details.amount), details, settings),
    currency: CURRENCY,
    frequency: details.frequency,
    cause: details.cause,
    donorName: details.donorName,
    donorEmail: details.donorEmail,
    donorPhone: orNull(details.donorPhone),
    address: {
      street: orNull(details.donorAddress?.street),
      city: orNull(details.donorAddress?.city),
      state: orNull(details.donorAddress?.state),
      zipCode: orNull(details.donorAddress?.zipCode),
      country: orNull(details.donorAddress?.country),
    },
    message: orNull(details.message),
    isAnonymous: details.isAnonymous,
    // NOTE: the brand comes from the number itself; the payload's `type` is the browser's guess and never trusted.
    cardBrand: cardNumber === undefined ? null : detectCardBrand(cardNumber),
    cardLast4: cardNumber === undefined ? null : cardLast4(cardNumber),
    gateway: gateway.name,
    isTestPayment: gateway.isTestMode,
    paymentIntentId,
    tribute: details.tribute,
    // Issue #24: the language the donor gave in; its receipt, its plan and every later e-mail follow it.
    locale: details.locale,
  };
}
