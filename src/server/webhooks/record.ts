import { randomUUID } from 'node:crypto';
import { eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { donations, recurringPlans, webhookDeliveries, webhookEndpoints, type DonationRow, type RecurringPlanRow } from '../db/schema';
import {
  centsToDollarString,
  WEBHOOK_PAYLOAD_VERSION,
  type WebhookDonation,
  type WebhookDonor,
  type WebhookEvent,
  type WebhookEventData,
  type WebhookEventType,
  type WebhookPlan,
} from '../../shared/webhooks';

/**
 * Recording outgoing webhook events (issue #38, "Delivery"; decision 0106): an event is written to the webhook outbox
 * (webhook_deliveries, one row per subscribed endpoint) by the transaction of the change it reports, so a committed
 * event is never lost and the event of a rolled-back change is never sent. The relay (relay.ts) delivers the rows.
 * The body is built here, once per event, as the record stands inside that transaction.
 */

/** A Standard Webhooks message id (`webhook-id`): `msg_` and a random UUID; the same on every try and resend of one event. */
export function newWebhookMessageId(): string {
  return `msg_${randomUUID().replaceAll('-', '')}`;
}

/**
 * The data of an event as an endpoint that leaves donor contact out gets it: every `donor` (name, e-mail, phone,
 * address) becomes null, and so does `previousEmail` (issue #38: "donor name, e-mail and address unless the endpoint is
 * set to leave donor contact out").
 */
export function withoutDonorContact(data: unknown): unknown {
  if (Array.isArray(data)) return data.map(withoutDonorContact);
  if (typeof data !== 'object' || data === null) return data;
  return Object.fromEntries(
    Object.entries(data).map(([key, value]) => [key, key === 'donor' || key === 'previousEmail' ? null : withoutDonorContact(value)]),
  );
}

/** The JSON body of one webhook: type, timestamp (ISO 8601), the payload version and `data`. */
export function webhookBody(type: string, at: Date, data: unknown): string {
  return JSON.stringify({ type, timestamp: at.toISOString(), version: WEBHOOK_PAYLOAD_VERSION, data });
}

/**
 * The condition on webhook_endpoints of the endpoints that get events of `type`: active and subscribed to it (issue #38).
 * The one rule recordLazily and the ledger's one-statement success (issue #39, decision 0115) apply.
 */
export function subscribedTo(type: WebhookEventType): SQL {
  return sql`${webhookEndpoints.status} = 'active' AND ${type} = ANY(${webhookEndpoints.eventTypes})`;
}

/**
 * Writes event `type` to the outbox in `tx` (the transaction of its change), one delivery per ACTIVE endpoint
 * subscribed to it, each with the body its endpoint asked for (with or without donor contact) and one message id shared
 * by all. `data` is built only when some endpoint wants the event (it may read the record); it resolving undefined
 * writes nothing. `at` is the event's time (now by default). Resolves with the message id, or undefined when no endpoint
 * wants it. Rejects when the database fails, which rolls the change back with it.
 */
async function recordLazily<T extends WebhookEventType>(
  tx: Database,
  type: T,
  data: () => Promise<WebhookEventData<T> | undefined> | WebhookEventData<T> | undefined,
  at: Date = new Date(),
): Promise<string | undefined> {
  const endpoints = await tx
    .select({ id: webhookEndpoints.id, includeContact: webhookEndpoints.includeContact })
    .from(webhookEndpoints)
    .where(subscribedTo(type));
  if (endpoints.length === 0) return undefined;
  const built = await data();
  if (built === undefined) return undefined;
  const messageId = newWebhookMessageId();
  const full = webhookBody(type, at, built);
  const withoutContact = webhookBody(type, at, withoutDonorContact(built));
  await tx.insert(webhookDeliveries).values(
    endpoints.map((endpoint) => ({ endpointId: endpoint.id, messageId, eventType: type, body: endpoint.includeContact ? full : withoutContact })),
  );
  return messageId;
}

/**
 * Records `event` (its type and data, donor contact included: endpoints that leave it out get it stripped) for every
 * active endpoint subscribed to its type, in `tx`, the transaction of the change it reports (issue #38). The one function
 * every event goes through; resolves with the event's message id (`webhook-id`), or undefined when no endpoint wants it.
 * Rejects when the database fails (rolling the change back: an event is kept exactly when its change is).
 */
export function recordWebhookEvent(tx: Database, event: WebhookEvent, at?: Date): Promise<string | undefined> {
  return recordLazily(tx, event.type, () => event.data as WebhookEventData<typeof event.type>, at);
}

/** The donor of a gift or plan's first gift, as a payload shows it. */
function donorOf(row: DonationRow): WebhookDonor {
  const hasAddress = [row.addressStreet, row.addressCity, row.addressState, row.addressZipCode, row.addressCountry].some((part) => part !== null);
  return {
    name: row.donorName,
    email: row.donorEmail,
    phone: row.donorPhone,
    address: hasAddress
      ? { street: row.addressStreet, city: row.addressCity, state: row.addressState, zipCode: row.addressZipCode, country: row.addressCountry }
      : null,
  };
}

/** A donation row as a payload shows it: amounts in cents and dollars, brand and last4 only of its card. */
export function webhookDonationOf(row: DonationRow): WebhookDonation {
  return {
    id: row.id,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    amountCents: row.amountCents,
    amountDollars: centsToDollarString(row.amountCents),
    refundedCents: row.refundedCents,
    refundedDollars: centsToDollarString(row.refundedCents),
    feeCoveredCents: row.feeCoveredCents,
    currency: row.currency,
    frequency: row.frequency,
    cause: row.cause,
    campaign: row.campaign,
    gateway: row.gateway,
    testMode: row.isTestPayment,
    cardBrand: row.cardBrand,
    last4: row.cardLast4,
    recurringPlanId: row.recurringPlanId,
    anonymous: row.isAnonymous,
    donor: donorOf(row),
  };
}

/** A plan row (with its first gift, whose donor it keeps) as a payload shows it. */
export function webhookPlanOf(plan: RecurringPlanRow, firstDonation: DonationRow): WebhookPlan {
  return {
    id: plan.id,
    status: plan.status,
    createdAt: plan.createdAt.toISOString(),
    amountCents: plan.amountCents,
    amountDollars: centsToDollarString(plan.amountCents),
    feeCoveredCents: plan.feeCoveredCents,
    currency: plan.currency,
    frequency: plan.frequency,
    cause: plan.cause,
    nextChargeOn: plan.nextChargeOn,
    pausedUntil: plan.pausedUntil,
    firstDonationId: plan.firstDonationId,
    cardBrand: plan.cardBrand,
    testMode: plan.isTestPayment,
    donor: donorOf(firstDonation),
  };
}

/** The donation events whose data is the gift and what else `extra` says. */
type DonationEventType = 'donation.succeeded' | 'donation.refunded' | 'donation.disputed' | 'donation.voided' | 'donor.email_corrected';

/**
 * Records donation event `type` about `donationId` as the gift stands in `tx` (read there, after the change), with
 * `extra` data (the refund, the dispute status...). See recordWebhookEvent; a donation that does not exist records nothing.
 */
export function recordDonationEvent<T extends DonationEventType>(
  tx: Database,
  type: T,
  donationId: string,
  extra: Omit<WebhookEventData<T>, 'donation'>,
): Promise<string | undefined> {
  return recordLazily(tx, type, async () => {
    const [row] = await tx.select().from(donations).where(eq(donations.id, donationId));
    return row ? ({ ...extra, donation: webhookDonationOf(row) } as WebhookEventData<T>) : undefined;
  });
}

/** The plan events whose data is the plan and what else `extra` says. */
type PlanEventType = 'plan.created' | 'plan.changed' | 'plan.paused' | 'plan.cancelled' | 'plan.renewal_failed';

/**
 * Records plan event `type` about `planId` as the plan stands in `tx` (read there, after the change), with `extra` data.
 * See recordWebhookEvent; a plan that does not exist records nothing.
 */
export function recordPlanEvent<T extends PlanEventType>(
  tx: Database,
  type: T,
  planId: string,
  extra: Omit<WebhookEventData<T>, 'plan'>,
): Promise<string | undefined> {
  return recordLazily(tx, type, async () => {
    const [found] = await tx
      .select({ plan: recurringPlans, first: donations })
      .from(recurringPlans)
      .innerJoin(donations, eq(donations.id, recurringPlans.firstDonationId))
      .where(eq(recurringPlans.id, planId));
    return found ? ({ ...extra, plan: webhookPlanOf(found.plan, found.first) } as WebhookEventData<T>) : undefined;
  });
}
