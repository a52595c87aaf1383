import { z } from 'zod';
import { CARD_BRANDS } from './card';
import { CAUSES } from './causes';
import { FREQUENCIES } from './frequencies';

/**
 * Outgoing webhooks (issue #38; decision 0106): the events the charity's other systems can subscribe to and the
 * payload each carries, defined once for the server (what it sends), the staff page (what an admin picks), the OpenAPI
 * document's `webhooks` and the tests. Every payload follows the Standard Webhooks specification's recommended shape
 * (`type`, `timestamp`, `data`) plus `version` (this payload format's number; a change that breaks a receiver gets a new
 * one). Amounts are given in integer cents and in dollars (a decimal string, `"25.00"`), as the staff API shows them;
 * never a card number beyond its brand and last4.
 */

/** The payload format's version; a receiver can refuse one it does not know. */
export const WEBHOOK_PAYLOAD_VERSION = 1;

/**
 * Every event type (issue #38, "Events"): a gift's success, refund (partial or full), dispute and void (an offline gift
 * recorded by mistake, issue #37), a donor's e-mail corrected by staff (issue #36), a recurring plan's life cycle, and a
 * campaign reaching its goal (issue #34). `webhook.test` is the staff page's "send a test event".
 */
export const WEBHOOK_EVENT_TYPES = [
  'donation.succeeded',
  'donation.refunded',
  'donation.disputed',
  'donation.voided',
  'donor.email_corrected',
  'plan.created',
  'plan.changed',
  'plan.paused',
  'plan.cancelled',
  'plan.renewal_failed',
  'campaign.goal_reached',
] as const;
/** One of {@link WEBHOOK_EVENT_TYPES}. */
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** The type of the test event an admin sends from the staff page; delivered whatever the endpoint subscribed to. */
export const WEBHOOK_TEST_EVENT_TYPE = 'webhook.test';

/** What each event means, for the staff page, the OpenAPI document and the README. */
export const WEBHOOK_EVENT_DESCRIPTIONS: Readonly<Record<WebhookEventType, string>> = {
  'donation.succeeded': 'A gift was paid: a one-time gift, a plan’s first gift or a renewal.',
  'donation.refunded': 'A gift was refunded, in part or in full (sent when the gateway settled the refund).',
  'donation.disputed': 'The donor’s bank opened a dispute (chargeback) of a gift, or its status changed.',
  'donation.voided': 'Staff voided an offline gift recorded by mistake.',
  'donor.email_corrected': 'Staff corrected a donor’s e-mail address.',
  'plan.created': 'A recurring plan started with its first gift.',
  'plan.changed': 'A recurring plan changed: amount, cause, card, resumed or recovered.',
  'plan.paused': 'A recurring plan was paused, by its donor, staff, or after its last renewal try failed.',
  'plan.cancelled': 'A recurring plan was cancelled.',
  'plan.renewal_failed': 'A renewal of a recurring plan was declined; a retry may follow.',
  'campaign.goal_reached': 'A gift made a campaign’s raised amount reach its goal (sent once per campaign).',
};

/** A decimal string of dollars, `"25.00"`, for integer `cents`. */
export function centsToDollarString(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

const Dollars = z.string().regex(/^-?\d+\.\d{2}$/).describe('The same amount in dollars, a decimal string');
const Cents = z.number().int().describe('An amount in integer cents');

/** The donor's contact; `null` in every payload of an endpoint set to leave donor contact out. */
export const WebhookDonorSchema = z.object({
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  address: z
    .object({
      street: z.string().nullable(),
      city: z.string().nullable(),
      state: z.string().nullable(),
      zipCode: z.string().nullable(),
      country: z.string().nullable(),
    })
    .nullable(),
});
/** See {@link WebhookDonorSchema}. */
export type WebhookDonor = z.infer<typeof WebhookDonorSchema>;

/** A gift as the staff API shows it (issue #38, "The payload"). */
export const WebhookDonationSchema = z.object({
  id: z.uuid(),
  status: z.string(),
  createdAt: z.iso.datetime(),
  amountCents: Cents,
  amountDollars: Dollars,
  refundedCents: Cents,
  refundedDollars: Dollars,
  feeCoveredCents: Cents,
  currency: z.string(),
  frequency: z.enum(FREQUENCIES),
  cause: z.enum(CAUSES),
  campaign: z.string().nullable(),
  gateway: z.string(),
  testMode: z.boolean(),
  cardBrand: z.enum(CARD_BRANDS).nullable(),
  last4: z.string().nullable(),
  recurringPlanId: z.uuid().nullable(),
  anonymous: z.boolean(),
  donor: WebhookDonorSchema.nullable(),
});
/** See {@link WebhookDonationSchema}. */
export type WebhookDonation = z.infer<typeof WebhookDonationSchema>;

/** A recurring plan as the staff API shows it. */
export const WebhookPlanSchema = z.object({
  id: z.uuid(),
  status: z.string(),
  createdAt: z.iso.datetime(),
  amountCents: Cents,
  amountDollars: Dollars,
  feeCoveredCents: Cents,
  currency: z.string(),
  frequency: z.enum(['monthly', 'yearly']),
  cause: z.enum(CAUSES),
  nextChargeOn: z.string(),
  pausedUntil: z.string().nullable(),
  firstDonationId: z.uuid(),
  cardBrand: z.enum(CARD_BRANDS),
  testMode: z.boolean(),
  donor: WebhookDonorSchema.nullable(),
});
/** See {@link WebhookPlanSchema}. */
export type WebhookPlan = z.infer<typeof WebhookPlanSchema>;

/** A campaign at its goal (issue #34). */
export const WebhookCampaignSchema = z.object({
  id: z.uuid(),
  slug: z.string(),
  title: z.string(),
  goalCents: Cents,
  goalDollars: Dollars,
  raisedCents: Cents,
  raisedDollars: Dollars,
  currency: z.string(),
});
/** See {@link WebhookCampaignSchema}. */
export type WebhookCampaign = z.infer<typeof WebhookCampaignSchema>;

/** The refund a `donation.refunded` reports: this refund's amount, and whether the gift is now refunded in full. */
export const WebhookRefundSchema = z.object({
  id: z.uuid().nullable(),
  amountCents: Cents,
  amountDollars: Dollars,
  full: z.boolean(),
});

/** The `data` of each event type. */
export const WEBHOOK_DATA_SCHEMAS = {
  'donation.succeeded': z.object({ donation: WebhookDonationSchema }),
  'donation.refunded': z.object({ donation: WebhookDonationSchema, refund: WebhookRefundSchema }),
  'donation.disputed': z.object({ donation: WebhookDonationSchema, disputeStatus: z.string() }),
  'donation.voided': z.object({ donation: WebhookDonationSchema, reason: z.string().nullable() }),
  'donor.email_corrected': z.object({
    donation: WebhookDonationSchema,
    previousEmail: z.string().nullable().describe('The address before the correction; null when donor contact is left out'),
  }),
  'plan.created': z.object({ plan: WebhookPlanSchema }),
  'plan.changed': z.object({ plan: WebhookPlanSchema, change: z.string().describe('What changed: change_amount, change_cause, update_card, resume, recovered...') }),
  'plan.paused': z.object({ plan: WebhookPlanSchema, reason: z.string().describe('`donor`, `staff` or `failures`') }),
  'plan.cancelled': z.object({ plan: WebhookPlanSchema }),
  'plan.renewal_failed': z.object({ plan: WebhookPlanSchema, donationId: z.uuid().nullable(), declineCode: z.string().nullable(), retryAt: z.iso.datetime().nullable() }),
  'campaign.goal_reached': z.object({ campaign: WebhookCampaignSchema }),
} as const satisfies Record<WebhookEventType, z.ZodType>;

/** The `data` of event type `T`. */
export type WebhookEventData<T extends WebhookEventType> = z.infer<(typeof WEBHOOK_DATA_SCHEMAS)[T]>;

/** An event to record: its type and its data, typed together. */
export type WebhookEvent = { [T in WebhookEventType]: { type: T; data: WebhookEventData<T> } }[WebhookEventType];

/** The body of a webhook of event type `type` (Standard Webhooks' recommended `type`, `timestamp`, `data`; plus `version`). */
export function webhookPayloadSchema(type: string, data: z.ZodType) {
  return z.object({
    type: z.literal(type),
    timestamp: z.iso.datetime().describe('When the event happened (ISO 8601, UTC)'),
    version: z.literal(WEBHOOK_PAYLOAD_VERSION),
    data,
  });
}
