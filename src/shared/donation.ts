import { z } from 'zod';
import { LocaleSchema } from './i18n/locale-schema';
import { type Locale, SOURCE_LOCALE } from './i18n/locales';
import { isReceiptUrl } from './receipt-link';
import { CardBrandSchema, detectCardBrand, EXPIRY_YEAR_COUNT, isCardExpired, stripCardNumber } from './card';
import { RECURRING_DATE_PATTERN } from './recurring';
import {
  AmountDollarsSchema,
  CardholderNameSchema,
  CauseSchema,
  CardNumberInputSchema,
  CvvSchema,
  DonorEmailSchema,
  DonorNameSchema,
  ExpiryMonthSchema,
  ExpiryYearSchema,
  FrequencySchema,
  MAX_LENGTHS,
  MessageSchema,
  optionalText,
  PanSchema,
} from './field-rules';
import { EMPTY_TRIBUTE_FORM, toTribute, TributeFormSchema, TributeSchema } from './tribute';

/** Message shown when the chosen expiry month and year are in the past (issue #2). */
export const CARD_EXPIRED_MESSAGE = 'Card has expired';
/** Message shown when an expiry year is beyond the 21 offered (spec section 3). */
export const EXPIRY_YEAR_RANGE_MESSAGE = 'Please choose a year from the list';

/** What the donor picked on the selection screen (spec section 3, "Donation selection"); amount in dollars. */
export const DonationSelectionSchema = z.strictObject({
  amount: AmountDollarsSchema,
  frequency: FrequencySchema,
  cause: CauseSchema,
});
/** A complete donation selection: `{amount (dollars), frequency, cause}`. */
export type DonationSelection = z.infer<typeof DonationSelectionSchema>;

/** What the thank-you page shows (spec section 3, "Donation result"); amount in dollars. */
export const DonationResultSchema = z.strictObject({
  amount: z.number(),
  donorName: z.string(),
  transactionId: z.string(),
  isTestPayment: z.boolean(),
  /** Capability link (a path on the site) of the receipt's PDF, added by the server when it sends the answer (issue #12). */
  receiptUrl: z.string().refine(isReceiptUrl, 'must be a receipt link of this site').optional(),
  /** The part of `amount` (dollars) that covered the card fee, when the donor covered it (issue #23, section 2). */
  feeCovered: z.number().optional(),
  /** A monthly or yearly gift's plan (issue #13): its frequency and first renewal's UTC date, `YYYY-MM-DD`. */
  recurring: z
    .strictObject({ frequency: z.enum(['monthly', 'yearly']), nextChargeOn: z.string().regex(RECURRING_DATE_PATTERN) })
    .optional(),
});
/** The outcome of a successful donation: `{amount (dollars), donorName, transactionId, isTestPayment, receiptUrl?, recurring?}`. */
export type DonationResult = z.infer<typeof DonationResultSchema>;

/**
 * Adds 'Card has expired' (issue #2) and the year range (spec section 3: current year + 20) to a
 * schema with `expiryMonth` and `expiryYear`; the issue is reported on `expiryMonth`'s path.
 * Runs only once month and year are both well formed, whatever the other fields hold.
 */
function withExpiryCheck<T extends z.ZodType<{ expiryMonth: string; expiryYear: string }>>(schema: T) {
  const wellFormed = (value: unknown) => {
    const card = (typeof value === 'object' && value !== null ? value : {}) as {
      expiryMonth?: unknown;
      expiryYear?: unknown;
    };
    return (
      typeof card.expiryMonth === 'string' &&
      /^(0[1-9]|1[0-2])$/.test(card.expiryMonth) &&
      typeof card.expiryYear === 'string' &&
      /^\d{4}$/.test(card.expiryYear)
    );
  };
  return schema
    .refine((card) => !isCardExpired(card.expiryMonth, card.expiryYear), {
      message: CARD_EXPIRED_MESSAGE,
      path: ['expiryMonth'],
      when: (payload) => wellFormed(payload.value),
    })
    .refine((card) => Number(card.expiryYear) < new Date().getFullYear() + EXPIRY_YEAR_COUNT, {
      message: EXPIRY_YEAR_RANGE_MESSAGE,
      path: ['expiryYear'],
      when: (payload) => wellFormed(payload.value),
    });
}

/**
 * Card details in the API payload (spec section 3): `number` is the PAN without spaces; `type` is
 * the browser's brand guess, accepted for the spec's sake and never trusted (the server recomputes it).
 */
export const CreditCardSchema = withExpiryCheck(
  z.strictObject(
    {
      number: PanSchema,
      holderName: CardholderNameSchema,
      expiryMonth: ExpiryMonthSchema,
      expiryYear: ExpiryYearSchema,
      cvv: CvvSchema,
      type: CardBrandSchema.optional(),
    },
    { error: 'Card details are required' },
  ),
);

/** Billing address (spec section 3); every line optional and may be an empty string. */
export const DonorAddressSchema = z.strictObject(
  {
    street: optionalText('Street address', MAX_LENGTHS.street).optional(),
    city: optionalText('City', MAX_LENGTHS.city).optional(),
    state: optionalText('State / Province', MAX_LENGTHS.state).optional(),
    zipCode: optionalText('ZIP / Postal code', MAX_LENGTHS.zipCode).optional(),
    country: optionalText('Country', MAX_LENGTHS.country).optional(),
  },
  { error: 'The address must be an object of text fields' },
);
/** A billing address: `{street?, city?, state?, zipCode?, country?}`. */
export type DonorAddress = z.infer<typeof DonorAddressSchema>;

/**
 * Body of `POST /api/process-donation` (spec section 3 "Donation submission payload", plus `cause`,
 * issue #2). Strict: unknown fields are rejected and nothing is coerced; amount in dollars.
 */
export const DonationSubmissionSchema = z.strictObject({
  amount: AmountDollarsSchema,
  frequency: FrequencySchema,
  cause: CauseSchema,
  donorName: DonorNameSchema,
  donorEmail: DonorEmailSchema,
  donorPhone: optionalText('Phone number', MAX_LENGTHS.phone).optional(),
  donorAddress: DonorAddressSchema.optional(),
  paymentMethod: z.literal('credit_card', { error: 'Payment method must be credit_card' }),
  message: MessageSchema.optional(),
  isAnonymous: z.boolean({ error: 'isAnonymous must be true or false' }).default(false),
  creditCard: CreditCardSchema,
  /** A gift in honour or in memory of someone (issue #23, section 3; shared/tribute.ts). */
  tribute: TributeSchema.optional(),
  /** Add the card fee to the gift (issue #23, section 2); the server computes the fee itself. */
  coverFee: z.boolean({ error: 'coverFee must be true or false' }).default(false),
  /** The campaign of the donor's link (issue #23, section 1); recorded only when it is a known campaign, else as none. */
  campaign: z.string({ error: 'campaign must be text' }).max(200, 'campaign must be at most 200 characters').optional(),
  /**
   * The language the donor gave in (issue #24): recorded on the donation and its plan; every later e-mail and PDF is
   * in it. Absent means the source language, English.
   */
  locale: LocaleSchema.default(SOURCE_LOCALE),
});
/** A validated donation submission (amount in dollars). */
export type DonationSubmission = z.infer<typeof DonationSubmissionSchema>;
/** A donation submission as a client sends it, before defaults are applied. */
export type DonationSubmissionInput = z.input<typeof DonationSubmissionSchema>;

/**
 * The submission without its amount and card (issue #11): the `donation` of `POST /api/create-payment-intent`,
 * so a payment whose browser never comes back is still recorded with its donor. Strict: a card field is refused.
 */
export const DonationDetailsSchema = DonationSubmissionSchema.omit({ amount: true, creditCard: true, coverFee: true });
/** A donation's details without amount and card. */
export type DonationDetails = z.infer<typeof DonationDetailsSchema>;

/** Body of `POST /api/create-payment-intent` (spec section 7, issue #11): `{amount (dollars), donation?}`. */
export const CreatePaymentIntentRequestSchema = z.strictObject({
  amount: AmountDollarsSchema,
  /** Add the card fee to the gift (issue #23, section 2): the intent is of the total the server computes. */
  coverFee: z.boolean({ error: 'coverFee must be true or false' }).default(false),
  donation: DonationDetailsSchema.optional(),
});
/** A create-payment-intent request as a client sends it. */
export type CreatePaymentIntentRequest = z.input<typeof CreatePaymentIntentRequestSchema>;

/** A gateway's payment intent id (`pi_...`, Stripe's form; at most 255 characters). */
export const PaymentIntentIdSchema = z
  .string({ error: 'paymentIntentId must be a payment intent id' })
  .regex(/^pi_[A-Za-z0-9_]{1,252}$/, 'paymentIntentId must be a payment intent id');

/**
 * Body of `POST /api/confirm-donation` (spec section 7, issue #11): `{paymentIntentId, donationData}`, where
 * `donationData` is the submission payload. Its card is optional here: the test gateway needs it (a test card
 * confirms the intent), the Stripe gateway refuses it (card data never reaches the server in Stripe mode).
 */
export const ConfirmDonationRequestSchema = z.strictObject({
  paymentIntentId: PaymentIntentIdSchema,
  donationData: DonationSubmissionSchema.extend({ creditCard: CreditCardSchema.optional() }),
});
/** A validated confirm-donation request. */
export type ConfirmDonationRequest = z.infer<typeof ConfirmDonationRequestSchema>;

/**
 * The donation form's values (spec section 2, "Donation form"); labels are in issue #2.
 * The card number is as typed, grouped in fours; selects hold '' until chosen.
 */
export const DonationFormSchema = withExpiryCheck(
  z.object({
    donorName: DonorNameSchema,
    donorEmail: DonorEmailSchema,
    donorPhone: optionalText('Phone number', MAX_LENGTHS.phone),
    street: optionalText('Street address', MAX_LENGTHS.street),
    city: optionalText('City', MAX_LENGTHS.city),
    state: optionalText('State / Province', MAX_LENGTHS.state),
    zipCode: optionalText('ZIP / Postal code', MAX_LENGTHS.zipCode),
    country: optionalText('Country', MAX_LENGTHS.country),
    cardNumber: CardNumberInputSchema,
    cardholderName: CardholderNameSchema,
    expiryMonth: ExpiryMonthSchema,
    expiryYear: ExpiryYearSchema,
    cvv: CvvSchema,
    message: MessageSchema,
    isAnonymous: z.boolean(),
    tribute: TributeFormSchema,
  }),
);
/** Validated values of the donation form. */
export type DonationFormValues = z.infer<typeof DonationFormSchema>;

/** The donation form's values before anything is typed. */
export const EMPTY_DONATION_FORM: DonationFormValues = {
  donorName: '',
  donorEmail: '',
  donorPhone: '',
  street: '',
  city: '',
  state: '',
  zipCode: '',
  country: '',
  cardNumber: '',
  cardholderName: '',
  expiryMonth: '',
  expiryYear: '',
  cvv: '',
  message: '',
  isAnonymous: false,
  tribute: EMPTY_TRIBUTE_FORM,
};

/**
 * Builds the API payload from the selection and the form (spec section 3): the card number loses
 * its spaces, `paymentMethod` is always `credit_card`, `type` is the detected brand; `extras` are the donor's
 * choice to cover the fee and the campaign of their link (issue #23), none by default, and the page's language
 * (issue #24), English by default.
 */
export function toDonationSubmission(
  selection: DonationSelection,
  form: DonationFormValues,
  extras: { coverFee?: boolean; campaign?: string | null; locale?: Locale } = {},
): DonationSubmission {
  const number = stripCardNumber(form.cardNumber);
  const tribute = toTribute(form.tribute);
  return {
    amount: selection.amount,
    frequency: selection.frequency,
    cause: selection.cause,
    donorName: form.donorName,
    donorEmail: form.donorEmail,
    donorPhone: form.donorPhone,
    donorAddress: {
      street: form.street,
      city: form.city,
      state: form.state,
      zipCode: form.zipCode,
      country: form.country,
    },
    paymentMethod: 'credit_card',
    message: form.message,
    isAnonymous: form.isAnonymous,
    creditCard: {
      number,
      holderName: form.cardholderName,
      expiryMonth: form.expiryMonth,
      expiryYear: form.expiryYear,
      cvv: form.cvv,
      type: detectCardBrand(number),
    },
    ...(tribute ? { tribute } : {}),
    coverFee: extras.coverFee ?? false,
    ...(extras.campaign ? { campaign: extras.campaign } : {}),
    locale: extras.locale ?? SOURCE_LOCALE,
  };
}
