import { shownEmail } from '../../../shared/offline-gifts';
import { asc, eq, inArray, or } from 'drizzle-orm';
import { centsToDollars, formatDollars } from '../../../shared/money';
import type { StaffDonationDetail } from '../../../shared/staff/donations-api';
import type { Database } from '../../db/client';
import { donationRefunds, donations, mailOutbox, receipts, recurringPlans, type DonationRefundRow, type MailOutboxRow, offlineGifts } from '../../db/schema';
import { keptAmountCents } from '../../ledger/kept-amount';
import { tributeOfRow } from '../../ledger/tribute-entries';
import { listDonationAuditEntries } from './audit-entries';
import { donorKeyOf } from '../shared/donor-key';
import { mailStateOf } from '../shared/mail-state';
import { staffStatusOf } from '../shared/status';
import { planChargeCountSql } from '../shared/plan-charges';

/**
 * A donation as staff see it (issue #21, "A donation"): every field held (the card as brand and last4 only: no column
 * holds more), its receipt, the e-mails about it with their state, its refunds, its dispute, its recurring plan, the
 * audit entries naming it, and one timeline of all of them. Money in integer cents.
 */

type Detail = StaffDonationDetail;
type TimelineEvent = Detail['timeline'][number];


/** `$12.50` of integer cents. */
const dollars = (cents: number) => formatDollars(centsToDollars(cents));

/** A refund's line in the timeline: refunded (its gateway refund id), still being settled, or failed (the gateway's reason). */
function refundSummary(refund: Pick<DonationRefundRow, 'status' | 'amountCents' | 'gatewayRefundId' | 'failureCode'>): string {
  switch (refund.status) {
    case 'succeeded':
      return `Refunded ${dollars(refund.amountCents)} (${refund.gatewayRefundId})`;
    case 'pending':
      return `Refund of ${dollars(refund.amountCents)} being settled with the payment gateway (its outcome is not known yet)`;
    case 'failed':
      return `Refund of ${dollars(refund.amountCents)} not made (${refund.failureCode})`;
  }
}

/** What each kind of e-mail is, for the timeline's summaries. */
const MAIL_KIND_NAMES: Partial<Record<MailOutboxRow['kind'], string>> = {
  receipt: 'Receipt',
  receipt_resend: 'Receipt (sent again)',
  receipt_void: 'Receipt void notice',
  partial_refund: 'Partial refund notice',
  renewal_failed: 'Renewal declined',
  plan_paused: 'Plan paused',
  plan_changed: 'Plan changed',
  renewal_needs_authentication: 'Renewal needs authentication',
  card_expiring: 'Card expiring',
  tribute_card: 'Dedication card',
};

/**
 * Who made `refund` and why (issue #36, part 3): the staff member of its audit entry and the reason they gave; else the
 * operator's route (asked under a gateway key of ours) or the gateway (reported: a refund made in its own dashboard).
 */
function refundedBy(refund: DonationRefundRow): Pick<Detail['refunds'][number], 'by' | 'byEmail' | 'reason'> {
  if (refund.auditEntry) {
    const reason = refund.auditEntry.details.reason;
    return { by: 'staff', byEmail: refund.auditEntry.actorEmail, reason: typeof reason === 'string' ? reason : null };
  }
  return { by: refund.gatewayIdempotencyKey === null ? 'gateway' : 'operator', byEmail: null, reason: null };
}

/**
 * The detail of donation `donationId`, or undefined when there is none. Reads the donation with its receipt, then its
 * refunds, plan, e-mails (those naming the donation, one of its refunds, or its plan) and audit entries, and merges
 * them into `timeline`, oldest first (events at the same instant in the order listed: created, receipt, refunds,
 * e-mails, audit). Rejects when the database fails.
 */
export async function readStaffDonationDetail(db: Database, donationId: string): Promise<Detail | undefined> {
  const [found] = await db
    .select({ donation: donations, receipt: receipts })
    .from(donations)
    .leftJoin(receipts, eq(receipts.donationId, donations.id))
    .where(eq(donations.id, donationId));
  if (!found) return undefined;
  const { donation: d, receipt } = found;

  const refunds = await db.select().from(donationRefunds).where(eq(donationRefunds.donationId, d.id)).orderBy(asc(donationRefunds.createdAt));
  const [plan] = d.recurringPlanId
    ? await db
        .select({
          plan: recurringPlans,
          chargeCount: planChargeCountSql(),
        })
        .from(recurringPlans)
        .where(eq(recurringPlans.id, d.recurringPlanId))
    : [];
  const emails = await db
    .select()
    .from(mailOutbox)
    .where(
      or(
        eq(mailOutbox.donationId, d.id),
        refunds.length > 0 ? inArray(mailOutbox.refundId, refunds.map((refund) => refund.id)) : undefined,
        d.recurringPlanId ? eq(mailOutbox.recurringPlanId, d.recurringPlanId) : undefined,
      ),
    )
    .orderBy(asc(mailOutbox.createdAt));
  const audit = await listDonationAuditEntries(db, d.id);
  const [offline] = await db.select().from(offlineGifts).where(eq(offlineGifts.donationId, d.id));

  const iso = (date: Date) => date.toISOString();
  const timeline: TimelineEvent[] = [
    { at: iso(d.createdAt), kind: 'created', summary: `Donation of ${dollars(d.amountCents)} (${d.frequency}) started through ${d.gateway}`, refId: d.id },
    ...(receipt ? [{ at: iso(receipt.issuedAt), kind: 'receipt_issued' as const, summary: `Receipt ${receipt.number} issued`, refId: receipt.number }] : []),
    ...(receipt?.voidedAt ? [{ at: iso(receipt.voidedAt), kind: 'receipt_voided' as const, summary: `Receipt ${receipt.number} voided`, refId: receipt.number }] : []),
    // NOTE: a refund whose outcome is unknown is shown as being settled, and a failed one with the gateway's reason
    // (decision 0095); only succeeded refunds count in refunded_cents and in `refunds`.
    ...refunds.map((refund) => ({ at: iso(refund.createdAt), kind: 'refund' as const, summary: refundSummary(refund), refId: refund.id })),
    ...emails.flatMap((email) => {
      const name = MAIL_KIND_NAMES[email.kind] ?? email.kind;
      const state = mailStateOf(email);
      const queued: TimelineEvent = {
        at: iso(email.createdAt),
        kind: 'email_queued',
        summary: `${name} e-mail queued to ${email.recipient}${state === 'sent' ? '' : ` (${state}${email.lastError ? `: ${email.lastError}` : ''})`}`,
        refId: email.id,
      };
      return email.sentAt ? [queued, { at: iso(email.sentAt), kind: 'email_sent' as const, summary: `${name} e-mail sent to ${email.recipient}`, refId: email.id }] : [queued];
    }),
    ...audit.map((entry) => ({ at: entry.createdAt, kind: 'audit' as const, summary: `${entry.action} by ${entry.actorEmail ?? entry.actorType}`, refId: entry.id })),
  ];
  // NOTE: a stable sort keeps the order above for events at the same instant.
  timeline.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));

  return {
    donation: {
      id: d.id,
      createdAt: iso(d.createdAt),
      updatedAt: iso(d.updatedAt),
      donorName: d.donorName,
      // A donor without an e-mail (issue #37) shows none.
      email: shownEmail(d.donorEmail),
      amountCents: d.amountCents,
      currency: d.currency,
      frequency: d.frequency,
      cause: d.cause,
      status: staffStatusOf(d),
      ledgerStatus: d.status,
      gateway: d.gateway,
      mode: d.isTestPayment ? 'test' : 'live',
      receiptNumber: receipt?.number ?? null,
      cardBrand: d.cardBrand,
      last4: d.cardLast4,
      refundedCents: d.refundedCents,
      campaign: d.campaign,
      feeCoveredCents: d.feeCoveredCents,
      keptCents: keptAmountCents(d),
      phone: d.donorPhone,
      address: { street: d.addressStreet, city: d.addressCity, state: d.addressState, zipCode: d.addressZipCode, country: d.addressCountry },
      message: d.message,
      isAnonymous: d.isAnonymous,
      transactionId: d.gatewayTransactionId,
      paymentIntentId: d.paymentIntentId,
      declineCode: d.declineCode,
      recurringPeriod: d.recurringPeriod,
      tribute: tributeOfRow(d),
      donorKey: donorKeyOf(d.donorEmail),
      paymentMethod: d.paymentMethod,
      offline: offline
        ? {
            reference: offline.reference,
            receivedOn: offline.receivedOn,
            note: offline.note,
            source: offline.source,
            receiptEmailed: offline.receiptEmailed,
            voidedAt: offline.voidedAt ? iso(offline.voidedAt) : null,
            voidReason: offline.voidReason,
          }
        : null,
    },
    receipt: receipt ? { number: receipt.number, issuedAt: iso(receipt.issuedAt), voidedAt: receipt.voidedAt ? iso(receipt.voidedAt) : null } : null,
    emails: emails.map((email) => ({
      id: email.id,
      kind: email.kind,
      recipient: email.recipient,
      state: mailStateOf(email),
      attempts: email.attempts,
      lastError: email.lastError,
      createdAt: iso(email.createdAt),
      sentAt: email.sentAt ? iso(email.sentAt) : null,
    })),
    refunds: refunds.flatMap((refund) =>
      refund.status === 'succeeded' && refund.gatewayRefundId !== null
        ? [{ id: refund.id, amountCents: refund.amountCents, gatewayRefundId: refund.gatewayRefundId, createdAt: iso(refund.createdAt), ...refundedBy(refund) }]
        : [],
    ),
    dispute: d.disputeStatus ? { status: d.disputeStatus } : null,
    plan: plan
      ? {
          id: plan.plan.id,
          status: plan.plan.status,
          amountCents: plan.plan.amountCents,
          frequency: plan.plan.frequency,
          cause: plan.plan.cause,
          nextChargeOn: plan.plan.nextChargeOn,
          period: d.recurringPeriod,
          firstDonationId: plan.plan.firstDonationId,
          chargeCount: plan.chargeCount,
        }
      : null,
    audit,
    timeline,
  };
}
