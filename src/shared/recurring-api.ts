import { z } from 'zod';
import { CardBrandSchema } from './card';
import { CreditCardSchema } from './donation';
import { AmountDollarsSchema, CauseSchema, DonorEmailSchema } from './field-rules';
import { RECURRING_DATE_PATTERN } from './recurring';
import { LocaleSchema } from './i18n/locale-schema';

/**
 * The API of the donor's manage page (issue #13): the plan as the page shows it, the changes it can ask for, and the
 * manage-links request. Amounts in dollars, as everywhere at the API edge; dates are UTC `YYYY-MM-DD`.
 */

/** A UTC calendar date, `YYYY-MM-DD`. */
export const IsoDateSchema = z.string().regex(RECURRING_DATE_PATTERN, { error: 'Please enter a date' });

/** The last day of a pause: a real calendar date (`2027-02-30` is refused), `YYYY-MM-DD`. */
export const PauseUntilSchema = z.iso.date({ error: 'Please enter a real date, e.g. 2027-03-15' });

/** Statuses of a plan, as the database names them (schema.ts RECURRING_PLAN_STATUSES). */
export const PlanStatusSchema = z.enum(['active', 'past_due', 'paused', 'cancelled']);

/** One charge of a plan's history: its date (UTC), amount in dollars, and outcome. */
export const PlanChargeSchema = z.object({
  date: IsoDateSchema,
  amount: z.number(),
  status: z.enum(['pending', 'succeeded', 'failed', 'refunded', 'disputed']),
});

/**
 * A renewal the donor's bank wants them to authenticate (Stripe's `authentication_required` of an off-session payment;
 * issue #13), which the manage page lets them confirm on-session with Stripe.js (`stripe.confirmPayment` with the
 * intent's client secret and the saved card, https://docs.stripe.com/payments/save-and-reuse): the client secret of
 * that payment intent (never logged or stored by the page), its amount in dollars, the saved card's PaymentMethod and
 * the UTC date the renewal was due.
 */
export const PaymentToConfirmSchema = z.object({
  clientSecret: z.string(),
  amount: z.number(),
  paymentMethodId: z.string(),
  dueOn: IsoDateSchema,
});
/** A renewal awaiting the donor's confirmation. */
export type PaymentToConfirm = z.infer<typeof PaymentToConfirmSchema>;

/** A plan as the manage page shows it (GET answer; every POST answers it too, as changed). */
export const ManagedPlanSchema = z.object({
  amount: z.number(),
  /** What each charge adds to `amount` to cover the card fee, in dollars (issue #23); 0 when the plan does not. */
  feeCovered: z.number().default(0),
  currency: z.literal('USD'),
  frequency: z.enum(['monthly', 'yearly']),
  cause: CauseSchema,
  status: PlanStatusSchema,
  /** The next charge's date; null while paused or once cancelled. */
  nextChargeOn: IsoDateSchema.nullable(),
  /** The end of a pause until a date; null otherwise. */
  pausedUntil: IsoDateSchema.nullable(),
  /**
   * The first charge's date, which sets the plan's calendar (recurring/calendar.ts): monthly on its day of the month
   * (the month's last day when the month is shorter), yearly on its day of the year.
   */
  anchorDate: IsoDateSchema,
  card: z.object({ brand: CardBrandSchema, last4: z.string(), expiryMonth: z.number().int(), expiryYear: z.number().int() }),
  /** The plan's charges, newest first. */
  charges: z.array(PlanChargeSchema),
  /** The renewal of the current period the donor's bank wants confirmed (Stripe mode, past due or paused), else null. */
  paymentToConfirm: PaymentToConfirmSchema.nullable(),
});
/** A plan as the manage page shows it. */
export type ManagedPlan = z.infer<typeof ManagedPlanSchema>;

/** 200 of the manage API: `{success: true, data: plan}`. */
export const ManagedPlanAnswerSchema = z.object({ success: z.literal(true), data: ManagedPlanSchema });

/**
 * A change the donor asks for (POST /api/recurring/manage/:token): the amount (from the next charge), the cause, a
 * pause (until a date, or until resumed), resume, a new card (the spec's card fields in test mode; in Stripe mode the
 * id of the SetupIntent the page confirmed with Stripe.js, `seti_...`), or cancel.
 */
export const PlanChangeSchema = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('change_amount'), amount: AmountDollarsSchema }),
  z.strictObject({ action: z.literal('change_cause'), cause: CauseSchema }),
  z.strictObject({ action: z.literal('pause'), until: PauseUntilSchema.optional() }),
  z.strictObject({ action: z.literal('resume') }),
  z.strictObject({ action: z.literal('update_card'), creditCard: CreditCardSchema }),
  z.strictObject({ action: z.literal('use_setup_intent'), setupIntentId: z.string().regex(/^seti_\w{1,200}$/) }),
  z.strictObject({ action: z.literal('cancel') }),
  /** Stop adding the card fee to each charge (issue #23, section 2: "the manage link can turn it off"). */
  z.strictObject({ action: z.literal('stop_covering_fee') }),
]);
/** A change of a plan. */
export type PlanChange = z.infer<typeof PlanChangeSchema>;

/** Body of POST /api/recurring/manage-links. */
export const ManageLinksRequestSchema = z.strictObject({ email: DonorEmailSchema, locale: LocaleSchema.optional() });

/** The sentence of every 202 answer of a manage-links request: the same whatever the address (no one learns who gives). */
export const MANAGE_LINKS_CONFIRMATION =
  'If this address has recurring gifts, we will e-mail it a link to manage each one within a few minutes. If nothing arrives, check your spam folder, or the address you gave with your gift.';

/** 202 of POST /api/recurring/manage-links. */
export const ManageLinksAcceptedSchema = z.object({ success: z.literal(true), message: z.literal(MANAGE_LINKS_CONFIRMATION) });

/**
 * 200 of POST /api/recurring/manage/:token/card-setup (Stripe mode): the client secret of a SetupIntent for the plan's
 * Customer, which the page confirms with the Payment Element (`stripe.confirmSetup`) before posting its id.
 */
export const CardSetupAnswerSchema = z.object({ success: z.literal(true), data: z.object({ clientSecret: z.string() }) });

/**
 * 409 of POST /api/recurring/manage/:token/confirm-payment when Stripe does not say the renewal awaiting the donor
 * was paid (not confirmed, authentication failed, or nothing awaits): nothing was recorded.
 */
export const PAYMENT_NOT_CONFIRMED_MESSAGE = 'Your payment is not confirmed yet. Please try again, or use another card.';

/** 400 (fieldErrors.setupIntentId) of a SetupIntent that has not saved a card on the plan's Customer. */
export const SETUP_INTENT_NOT_SAVED_MESSAGE = 'Your new card was not saved. Please enter it again.';

/** 409 of a change the plan's status does not allow (resume an active plan; anything once cancelled). */
export const PLAN_CHANGE_NOT_ALLOWED_MESSAGE = 'This change is not possible for your gift as it stands. Reload the page to see it.';
/**
 * 409 of a cancel or a pause while a charge of the gift is under way (its outcome not known yet): the donor tries
 * again once it is settled, a few minutes at most.
 */
export const PLAN_CHARGE_UNDER_WAY_MESSAGE =
  'A payment of your gift is being processed right now. Please try again in a few minutes: if it goes through, it will be the last one.';
/** 400 of a pause until a date that is not after today (UTC). */
export const PAUSE_DATE_IN_PAST_MESSAGE = 'Please choose a date after today';
/** Longest pause until a date, in days: a longer one is a pause until the donor resumes. */
export const MAX_PAUSE_DAYS = 366;
/** 400 of a pause until a date more than {@link MAX_PAUSE_DAYS} days after today (UTC). */
export const PAUSE_DATE_TOO_FAR_MESSAGE = 'Please choose a date within a year, or leave it empty to pause until you resume';
