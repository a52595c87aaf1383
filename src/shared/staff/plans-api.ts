import { z } from 'zod';
import { CardBrandSchema } from '../card';
import { CAUSES } from '../causes';
import { atLeast, atMost, present, textField } from '../field-rules';
import { PauseUntilSchema } from '../recurring-api';
import {
  DollarsAsCentsSchema,
  oneOf,
  REFUND_REASON_MAX_LENGTH,
  REFUND_REASON_MIN_LENGTH,
  refundReasonSchema,
  STAFF_AMOUNT_ORDER_MESSAGE,
  STAFF_DATE_MESSAGE,
  STAFF_DATE_ORDER_MESSAGE,
  STAFF_DONATION_STATUSES,
  STAFF_MODES,
  STAFF_ORDERS,
  StaffDonationListQuerySchema,
  StaffRefundAnswerSchema,
  StaffSearchSchema,
} from './donations-api';

/**
 * The staff plans API (issue #22, "Recurring plans /staff/plans"): the list's query (filters, search, sort, page),
 * its answer with the totals (active plans and their monthly equivalent), a plan's detail (donor, card, dunning state,
 * charges, changes with who made them), and the bodies of the actions. Money is integer cents (`amountCents`), except
 * the list's `amountMin`/`amountMax`, dollars as the page's URL writes them. Shared by the server and the staff pages.
 */

/** A plan's status: charged on its dates, being retried after a decline, paused (until a date or resumed), or cancelled for good. */
export const STAFF_PLAN_STATUSES = ['active', 'past_due', 'paused', 'cancelled'] as const;
/** One of {@link STAFF_PLAN_STATUSES}. */
export type StaffPlanStatus = (typeof STAFF_PLAN_STATUSES)[number];
/** A plan's frequency. */
export const STAFF_PLAN_FREQUENCIES = ['monthly', 'yearly'] as const;
/** The list's sort keys: next charge date, amount, or when the plan started. */
export const STAFF_PLAN_SORTS = ['next_charge', 'amount', 'created'] as const;

/**
 * The list's filters, as the page's URL holds them (issue #22): `status`; `frequency`; `cause`; `nextFrom`/`nextTo`
 * the next charge's date (both included; a paused or cancelled plan has none, so a date filter leaves it out);
 * `amountMin`/`amountMax` in dollars, converted to cents; `q`: the donor's name or e-mail from the start of a word
 * (as the donations list), or the exact receipt number of the plan's first gift. Unknown parameters refused (400).
 */
export const StaffPlanFilterShape = {
  status: z.enum(STAFF_PLAN_STATUSES, { error: oneOf(STAFF_PLAN_STATUSES) }).optional(),
  frequency: z.enum(STAFF_PLAN_FREQUENCIES, { error: oneOf(STAFF_PLAN_FREQUENCIES) }).optional(),
  cause: z.enum(CAUSES, { error: oneOf(CAUSES) }).optional(),
  nextFrom: z.iso.date({ error: STAFF_DATE_MESSAGE }).optional(),
  nextTo: z.iso.date({ error: STAFF_DATE_MESSAGE }).optional(),
  amountMin: DollarsAsCentsSchema.optional(),
  amountMax: DollarsAsCentsSchema.optional(),
  q: StaffSearchSchema.optional(),
};

/**
 * Query of `GET /api/staff/plans`: the filters, `page` and `pageSize` (as the donations list), `sort` (`next_charge`
 * default, `amount`, `created`) and `order` (`asc` default for the next charge, as staff read a schedule; or `desc`).
 */
export const StaffPlanListQuerySchema = z
  .strictObject({
    ...StaffPlanFilterShape,
    page: StaffDonationListQuerySchema.shape.page,
    pageSize: StaffDonationListQuerySchema.shape.pageSize,
    sort: z.enum(STAFF_PLAN_SORTS, { error: oneOf(STAFF_PLAN_SORTS) }).default('next_charge'),
    order: z.enum(STAFF_ORDERS, { error: oneOf(STAFF_ORDERS) }).default('asc'),
  })
  .superRefine((query, ctx) => {
    if (query.nextFrom !== undefined && query.nextTo !== undefined && query.nextTo < query.nextFrom) {
      ctx.addIssue({ code: 'custom', path: ['nextTo'], message: STAFF_DATE_ORDER_MESSAGE });
    }
    if (query.amountMin !== undefined && query.amountMax !== undefined && query.amountMax < query.amountMin) {
      ctx.addIssue({ code: 'custom', path: ['amountMax'], message: STAFF_AMOUNT_ORDER_MESSAGE });
    }
  });
/** A parsed list query (amount bounds in cents). */
export type StaffPlanListQuery = z.output<typeof StaffPlanListQuerySchema>;

/** One row of the list: the plan, its donor (name, e-mail, donorKey for the donor's page), its first gift's receipt. */
export const StaffPlanRowSchema = z.object({
  id: z.uuid(),
  status: z.enum(STAFF_PLAN_STATUSES),
  donorName: z.string(),
  email: z.string(),
  /** The donor's key (server/staff/shared/donor-key.ts): `/staff/donors/<key>`. */
  donorKey: z.string(),
  amountCents: z.number().int(),
  currency: z.string(),
  frequency: z.enum(STAFF_PLAN_FREQUENCIES),
  cause: z.enum(CAUSES),
  /** The next charge's date (YYYY-MM-DD; a past-due plan's next retry day), or null for a paused or cancelled plan. */
  nextChargeOn: z.iso.date().nullable(),
  createdAt: z.iso.datetime(),
  firstReceiptNumber: z.string().nullable(),
  mode: z.enum(STAFF_MODES),
});
/** A list row. */
export type StaffPlanRow = z.infer<typeof StaffPlanRowSchema>;

/**
 * Totals of the filtered set: how many plans, how many of them are active, and those active plans' monthly equivalent
 * in cents (monthly amounts, plus a twelfth of the yearly ones' sum, rounded half up once on the sum; decision 0068).
 */
export const StaffPlanTotalsSchema = z.object({
  count: z.number().int(),
  activeCount: z.number().int(),
  activeMonthlyCents: z.number().int(),
});
/** The list's totals. */
export type StaffPlanTotals = z.infer<typeof StaffPlanTotalsSchema>;

/** Answer of the list: the page's rows, the totals of the whole filtered set, the page and its size. */
export const StaffPlanListAnswerSchema = z.object({
  rows: z.array(StaffPlanRowSchema),
  totals: StaffPlanTotalsSchema,
  page: z.number().int(),
  pageSize: z.number().int(),
});
/** The list's answer. */
export type StaffPlanListAnswer = z.infer<typeof StaffPlanListAnswerSchema>;

/** One charge (try) of a plan: its donation, period and try, date, amount, status as staff see it, receipt, refunded cents. */
export const StaffPlanChargeSchema = z.object({
  donationId: z.uuid(),
  period: z.number().int(),
  attempt: z.number().int(),
  /** The period's calendar date (YYYY-MM-DD). */
  date: z.iso.date(),
  createdAt: z.iso.datetime(),
  amountCents: z.number().int(),
  status: z.enum(STAFF_DONATION_STATUSES),
  refundedCents: z.number().int(),
  receiptNumber: z.string().nullable(),
  /** The bank's decline code of a declined try, else null. */
  declineCode: z.string().nullable(),
});
/** A charge of a plan. */
export type StaffPlanCharge = z.infer<typeof StaffPlanChargeSchema>;

/** Who made a change: the donor (manage link), a staff member (their address), or the billing runner. */
export const STAFF_PLAN_ACTOR_TYPES = ['donor', 'staff', 'billing'] as const;

/** One change of a plan, newest first: when, who, what (`change_amount`, `pause`, `past_due`...) and its details. */
export const StaffPlanChangeEntrySchema = z.object({
  id: z.uuid(),
  createdAt: z.iso.datetime(),
  actorType: z.enum(STAFF_PLAN_ACTOR_TYPES),
  /** The staff member's address for a staff change, else null. */
  staffEmail: z.string().nullable(),
  action: z.string(),
  details: z.record(z.string(), z.unknown()).nullable(),
});
/** A change of a plan. */
export type StaffPlanChangeEntry = z.infer<typeof StaffPlanChangeEntrySchema>;

/**
 * A plan's page (issue #22, "A plan's page"): the plan, its donor, card (brand, last4, expiry), next charge, dunning
 * state (null unless past due: which retry comes next, when, of how many), charges newest first, changes newest
 * first, and the last charge a cancel can refund (null when none is left to refund).
 */
export const StaffPlanDetailSchema = z.object({
  id: z.uuid(),
  status: z.enum(STAFF_PLAN_STATUSES),
  amountCents: z.number().int(),
  currency: z.string(),
  frequency: z.enum(STAFF_PLAN_FREQUENCIES),
  cause: z.enum(CAUSES),
  createdAt: z.iso.datetime(),
  nextChargeOn: z.iso.date().nullable(),
  pausedUntil: z.iso.date().nullable(),
  mode: z.enum(STAFF_MODES),
  gateway: z.string(),
  donor: z.object({ name: z.string(), email: z.string(), donorKey: z.string() }),
  firstDonationId: z.uuid(),
  card: z.object({ brand: CardBrandSchema, last4: z.string(), expiryMonth: z.number().int(), expiryYear: z.number().int() }),
  dunning: z
    .object({
      /** The retry that comes next (1 for the first retry after the period's first decline). */
      retry: z.number().int(),
      /** How many retries a period gets (DUNNING_RETRY_DAYS). */
      retriesTotal: z.number().int(),
      nextRetryAt: z.iso.datetime(),
      pastDueSince: z.iso.datetime(),
    })
    .nullable(),
  lastCharge: z.object({ donationId: z.uuid(), amountCents: z.number().int(), refundableCents: z.number().int(), receiptNumber: z.string().nullable() }).nullable(),
  /** Why staff cancelled it (issue #36), null otherwise. */
  cancelReason: z.string().nullable(),
  /** Its charges so far (staff/shared/plan-charges.ts: every charge made, refunded or disputed ones included). */
  chargeCount: z.number().int(),
  charges: z.array(StaffPlanChargeSchema),
  changes: z.array(StaffPlanChangeEntrySchema),
});
/** A plan's detail. */
export type StaffPlanDetail = z.infer<typeof StaffPlanDetailSchema>;

/** The reason of a refund made with a cancel (as a refund's: REFUND_REASON_MIN_LENGTH to _MAX_LENGTH characters). */
const RefundReasonSchema = refundReasonSchema('last charge');

/** Longest reason of a cancel, in characters (as a refund's). */
export const CANCEL_REASON_MAX_LENGTH = REFUND_REASON_MAX_LENGTH;

/**
 * Why staff cancel a plan (issue #36, part 3: "the plan cancel dialog asks for a reason and stores it"): 3 to 500
 * characters of text on several lines if need be (field-rules' textField, as a refund's reason), stored on the plan
 * and in the cancel's audit entry.
 */
export const CancelReasonSchema = textField(
  [
    [present, 'Say why the plan is cancelled'],
    [atLeast(REFUND_REASON_MIN_LENGTH), `Say why the plan is cancelled (at least ${REFUND_REASON_MIN_LENGTH} characters)`],
    [atMost(CANCEL_REASON_MAX_LENGTH), `Keep the reason under ${CANCEL_REASON_MAX_LENGTH} characters`],
  ],
  'multi',
);

/**
 * Body of `POST /api/staff/plans/:id/changes` (issue #22, "Actions"): the donor's own changes (recurring-api.ts
 * PlanChangeSchema, applied by the same code), the amount in cents as every staff amount: `change_amount`
 * `{amountCents}`, `change_cause` `{cause}`, `pause` `{until?}` (a date; without it, until resumed), `resume`, and
 * `cancel` `{cancelReason?, refundLastCharge?, reason?}` (`cancelReason`: why, stored on the plan, which the staff's
 * dialog always asks; with `refundLastCharge: true`, the last charge is refunded in the same step, which needs the
 * `refund` right, a recent passkey or link sign-in, an Idempotency-Key and a `reason`).
 */
export const StaffPlanChangeRequestSchema = z
  .discriminatedUnion('action', [
    z.strictObject({
      action: z.literal('change_amount'),
      amountCents: z.number({ error: 'The amount is a whole number of cents' }).int({ error: 'The amount is a whole number of cents' }).min(1, { error: 'The amount is at least 1 cent' }),
    }),
    z.strictObject({ action: z.literal('change_cause'), cause: z.enum(CAUSES, { error: oneOf(CAUSES) }) }),
    z.strictObject({ action: z.literal('pause'), until: PauseUntilSchema.optional() }),
    z.strictObject({ action: z.literal('resume') }),
    z.strictObject({ action: z.literal('cancel'), cancelReason: CancelReasonSchema.optional(), refundLastCharge: z.boolean().default(false), reason: RefundReasonSchema.optional() }),
  ])
  .superRefine((body, ctx) => {
    if (body.action === 'cancel' && body.refundLastCharge && body.reason === undefined) {
      ctx.addIssue({ code: 'custom', path: ['reason'], message: `Say why the last charge is refunded (at least ${REFUND_REASON_MIN_LENGTH} characters)` });
    }
  });
/** A staff change of a plan. */
export type StaffPlanChangeRequest = z.output<typeof StaffPlanChangeRequestSchema>;

/** Answer of a change (200): the plan as changed, and the refund made with a cancel (null without one). */
export const StaffPlanChangeAnswerSchema = z.object({
  plan: StaffPlanDetailSchema,
  refund: StaffRefundAnswerSchema.nullable(),
});
/** A change's answer. */
export type StaffPlanChangeAnswer = z.infer<typeof StaffPlanChangeAnswerSchema>;

/**
 * Answer of `POST /api/staff/plans/:id/manage-link` (202): whether a message was queued now (`false`: one was sent to
 * this address within the hour already, which the donor can use). Staff never see the link itself.
 */
export const StaffManageLinkAnswerSchema = z.object({ success: z.literal(true), queued: z.boolean() });

/** 409 of a cancel with refund of a plan that has no charge to refund. */
export const NO_CHARGE_TO_REFUND_MESSAGE = 'This plan has no charge to refund.';
/** 409 of a manage link asked for a cancelled plan (its link manages nothing). */
export const MANAGE_LINK_CANCELLED_MESSAGE = 'This plan is cancelled: its donor has nothing left to manage.';
/** 404 of a plan that does not exist. */
export const PLAN_NOT_FOUND_MESSAGE = 'No plan has this id.';
