import { render } from '@react-email/components';
import { createElement, type ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { CAUSES } from '../../shared/causes';
import type { RecurringMailKind, RecurringPlanRow } from '../db/schema';
import * as digestEmails from '../digest/digest-email';
import type { DailyDigest } from '../digest/report';
import * as receiptEmails from '../receipts/emails/receipt-email';
import { receiptLines, type ReceiptLine } from '../receipts/receipt-view';
import type { ReceiptDetails } from '../receipts/repository';
import * as recurringEmails from '../recurring/emails';
import * as staffEmails from '../staff/identity/emails';
import { planAmountLine, planLines } from '../recurring/plan-view';
import { PLAN_CHANGE_EVENTS } from '../recurring/plan-change-mail';
import { serverI18n } from '../i18n/catalogues';
import { PLAIN_TEXT_OPTIONS } from './plain-text';
import { renderEmailParts } from './render-email';

/**
 * The plain-text part of every e-mail template reads as text (issue #19): each labelled line is `Label: value` on a
 * line of its own, never `Receipt number2026-000002`, and each link's address stands alone on its line. Each template
 * is rendered as the relay renders it (renderEmailParts), with the props its composer gives.
 */

const PUBLIC_URL = 'https://give.example.org';
const context: receiptEmails.EmailContext = {
  organization: {
    legalName: 'Reef Trust Ltd',
    address: '1 Front Street, Belize City',
    taxId: 'BZ-123',
    taxStatement: 'No goods or services were provided in exchange for this gift.',
  },
  receiptsPageUrl: `${PUBLIC_URL}/donate/receipts`,
};
const receipt: ReceiptDetails = {
  number: '2026-000002',
  issuedAt: new Date('2026-11-26T14:03:00Z'),
  voidedAt: null,
  donationId: '9f4c2a71-3b8e-4d0a-8c55-1e2f3a4b5c6d',
  amountCents: 5000,
  refundedCents: 1250,
  currency: 'USD',
  frequency: 'monthly',
  cause: 'research-science',
  donorName: 'Ana Reef',
  donorEmail: 'ana@example.org',
  isAnonymous: false,
  cardBrand: 'visa',
  cardLast4: '4242',
  transactionId: 'txn_3QZ8x2Lk9PpA',
  isTestPayment: true,
};
const pdfUrl = `${PUBLIC_URL}/api/receipts/pdf/OWY0YzJhNzE.24443.aZ4diFU-oSRiZ4aWNqHj4z55j7tk1ATL`;
const manageUrl = `${PUBLIC_URL}/donate/manage/MGI3YzFmMWU.24443.Zk2diFU-oSRiZ4aWNqHj4z55j7tk1ATL`;
const recurring = { nextChargeOn: new Date('2026-12-26T00:00:00Z'), manageUrl };
const plan: RecurringPlanRow = {
  id: '0b7c1f1e-6a34-4f0e-9a57-2f4c8d1e5b21',
  status: 'past_due',
  amountCents: 2500,
  currency: 'USD',
  frequency: 'monthly',
  cause: 'marine-protected-areas',
  firstDonationId: receipt.donationId,
  gateway: 'test',
  paymentMethodId: 'pm_card_visa',
  customerId: null,
  cardBrand: 'mastercard',
  cardLast4: '4444',
  cardExpiryMonth: 12,
  cardExpiryYear: 2026,
  anchorDate: '2026-10-26',
  period: 2,
  nextChargeOn: '2026-11-26',
  nextAttemptAt: new Date('2026-11-27T14:00:00Z'),
  retryCount: 1,
  pastDueSince: new Date('2026-11-26T14:00:00Z'),
  pausedUntil: null,
  lockedUntil: null,
  feeCoveredCents: 0,
  locale: 'en',
  isTestPayment: true,
  cancelReason: null,
  createdAt: new Date('2026-10-26T14:00:00Z'),
  updatedAt: new Date('2026-11-26T14:00:00Z'),
};
const digest: DailyDigest = {
  date: '2026-11-25',
  timeZone: 'America/Belize',
  gifts: { count: 3, amountCents: 13500, byCause: CAUSES.map((cause, index) => ({ cause, count: index === 0 ? 3 : 0, amountCents: index === 0 ? 13500 : 0 })) },
  dedicatedGifts: { honor: 1, memory: 0 },
  byCampaign: [{ campaign: 'spring-appeal', count: 2, amountCents: 9000 }],
  newPlans: 1,
  cancelledPlans: 2,
  failedRenewals: { count: 1, amountCents: 3000 },
  mail: { failed: [{ kind: 'receipt', count: 1 }], retrying: [] },
};
const listed = [{ receipt, pdfUrl }];
const PLAN_KINDS = ['renewal_failed', 'plan_paused', 'renewal_needs_authentication', 'card_expiring'] as const satisfies readonly Exclude<
  RecurringMailKind,
  'manage_links' | 'plan_changed'
>[];

/** One template rendered with realistic props, and the labelled lines its text must show. */
interface Sample {
  template: string;
  /** What tells apart the samples of one template (a plan message's kind). */
  variant?: string;
  element: ReactElement;
  lines: ReceiptLine[];
}

const SAMPLES: Sample[] = [
  {
    template: 'ReceiptEmail',
    element: createElement(receiptEmails.ReceiptEmail, { receipt, pdfUrl, context, recurring }),
    lines: receiptLines({ ...receipt, ...recurring }),
  },
  { template: 'ReceiptVoidEmail', element: createElement(receiptEmails.ReceiptVoidEmail, { receipt: { ...receipt, voidedAt: new Date() }, context }), lines: [] },
  {
    template: 'PartialRefundEmail',
    element: createElement(receiptEmails.PartialRefundEmail, {
      receipt,
      refund: { donationId: receipt.donationId, amountCents: 1250, createdAt: new Date('2026-11-27T09:00:00Z'), refundedCentsSoFar: 1250 },
      pdfUrl,
      context,
    }),
    lines: [],
  },
  { template: 'ReceiptLinksEmail', element: createElement(receiptEmails.ReceiptLinksEmail, { receipts: listed, context, locale: 'en' }), lines: [] },
  {
    template: 'YearEndStatementEmail',
    element: createElement(receiptEmails.YearEndStatementEmail, { year: 2026, receipts: listed, context, locale: 'en' }),
    lines: [{ label: 'Total', value: '$37.50 USD' }],
  },
  ...PLAN_KINDS.map((kind) => ({
    template: 'PlanEmail',
    variant: kind,
    element: createElement(recurringEmails.PlanEmail, {
      wording: recurringEmails.planMailWording(kind, serverI18n('en'), planAmountLine(plan)),
      plan,
      button: recurringEmails.manageButton(plan, manageUrl),
      context,
    }),
    lines: planLines(plan),
  })),
  // Decision 0097b: a plan_changed message by its event; a cancellation with the donation page's link.
  ...PLAN_CHANGE_EVENTS.map((event) => ({
    template: 'PlanEmail',
    variant: `plan_changed, ${event}`,
    element: createElement(recurringEmails.PlanEmail, {
      wording: recurringEmails.planChangeWording(event, plan, { giftCount: 2, totalCents: 6000, refundCents: event === 'cancelled' ? 3000 : undefined }),
      plan,
      button: event === 'cancelled' ? recurringEmails.giveAgainButton(plan, `${PUBLIC_URL}/donate`) : recurringEmails.manageButton(plan, manageUrl),
      context,
    }),
    lines: planLines(plan),
  })),
  {
    template: 'ManageLinksEmail',
    element: createElement(recurringEmails.ManageLinksEmail, { plans: [{ plan, manageUrl }, { plan: { ...plan, id: 'second', status: 'active' }, manageUrl }], context }),
    lines: [...planLines(plan), ...planLines({ ...plan, status: 'active' })],
  },
  {
    template: 'DigestEmail',
    element: createElement(digestEmails.DigestEmail, { digest, organizationName: context.organization.legalName }),
    lines: [
      { label: 'Total', value: '$135.00 USD from 3 gifts' },
      { label: 'New plans', value: '1' },
      { label: 'Cancelled plans', value: '2' },
      { label: 'Failed renewals', value: '1 ($30.00 USD)' },
      { label: 'Given up in the day', value: 'receipt: 1' },
      { label: 'Still being retried', value: 'none' },
    ],
  },
  {
    template: 'StaffInvitationEmail',
    element: createElement(staffEmails.StaffInvitationEmail, {
      organizationName: context.organization.legalName,
      role: 'finance',
      enrollUrl: `${PUBLIC_URL}/staff/enroll/kR3d7Qm1vXo2Jc9sLq0wZy4uTn6bHe8aFg5iPd2rSt1`,
    }),
    lines: [],
  },
  {
    template: 'StaffSignInLinkEmail',
    element: createElement(staffEmails.StaffSignInLinkEmail, {
      organizationName: context.organization.legalName,
      signInUrl: `${PUBLIC_URL}/staff/sign-in/Zq8wE2rT5yU7iO9pA1sD3fG6hJ4kL0zXcVbNm5QwErT`,
    }),
    lines: [],
  },
];

/** Every label the templates print, run into a value in the defect: followed at once by a capital, digit or currency sign. */
const LABELS = [...new Set(SAMPLES.flatMap((sample) => sample.lines.map((line) => line.label)))];
const RUN_IN = new RegExp(`(${LABELS.map((label) => label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})[\\p{Lu}\\p{N}\\p{Sc}]`, 'u');

/** The samples as `it.each` rows: a test name, the sample. */
const CASES = SAMPLES.map((sample) => [sample.variant ? `${sample.template} (${sample.variant})` : sample.template, sample] as const);

/** The addresses of the links of an HTML part (`href`, entities decoded). */
const linksOf = (html: string) => [...html.matchAll(/href="([^"]+)"/g)].map((match) => (match[1] ?? '').replaceAll('&amp;', '&'));

describe('the plain-text part of every e-mail', () => {
  it('has a sample of every template the mail modules export', () => {
    const templates = [receiptEmails, recurringEmails, digestEmails, staffEmails].flatMap((module) =>
      Object.entries(module)
        .filter(([name, value]) => typeof value === 'function' && name.endsWith('Email'))
        .map(([name]) => name),
    );
    expect(templates.sort()).toEqual([...new Set(SAMPLES.map((sample) => sample.template))].sort());
  });

  it.each(CASES)('%s: labels never run into values; one pair a line', async (_name, sample) => {
    const { text } = await renderEmailParts(sample.element);
    const lines = text.split('\n').map((line) => line.trim());
    for (const { label, value } of sample.lines) {
      expect(lines, label).toContain(`${label}: ${value}`);
      expect(text).not.toContain(`${label}${value}`);
    }
    expect(text).not.toMatch(RUN_IN);
  });

  it.each(CASES)('%s: each link stands alone on its line', async (_name, sample) => {
    const { html, text } = await renderEmailParts(sample.element);
    const lines = text.split('\n').map((line) => line.trim());
    for (const href of linksOf(html)) expect(lines, href).toContain(href);
    for (const line of lines.filter((candidate) => candidate.includes('://'))) expect(line).toMatch(/^https?:\/\/\S+$/);
  });

  it.each(CASES)('%s: the parts are what @react-email renders, without the comments of a streamed rendering (issue #39)', async (_name, sample) => {
    const { html, text } = await renderEmailParts(sample.element);
    const streamed = await render(sample.element);
    // React's markers of a streamed rendering: Suspense boundaries (`<!--$-->`, `<!--/$-->`), text separators
    // (`<!-- -->`) and hoisted document elements (`<!--html-->`, `<!--head-->`, `<!--body-->`); a template's own
    // comments (an Outlook conditional) would stay.
    expect(html).toBe(streamed.replace(/<!--(?:\$|\/\$| |html|head|body)-->/g, ''));
    expect(text).toBe(await render(sample.element, { plainText: true, htmlToTextOptions: PLAIN_TEXT_OPTIONS }));
  });
});
