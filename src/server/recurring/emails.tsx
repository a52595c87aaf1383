import { Button, Heading, Section, Text } from '@react-email/components';
import type { I18n } from '@lingui/core';
import { type Locale, SOURCE_LOCALE } from '../../shared/i18n/locales';
import type { RecurringPlanRow, RecurringMailKind } from '../db/schema';
import { serverI18n } from '../i18n/catalogues';
import type { EmailContext } from '../receipts/emails/receipt-email';
import { LabelledLines } from '../receipts/emails/labelled-lines';
import { EmailLayout } from '../receipts/emails/layout';
import { formatAmountCents, formatReceiptDate } from '../receipts/receipt-view';
import { startOfDay } from './calendar';
import type { GivenThroughPlan, PlanChangeEvent } from './plan-change-mail';
import { planAmountLine, planLines } from './plan-view';

/**
 * The e-mails of recurring plans (issue #13), in the receipts' frame (EmailLayout); each carries the plan's manage link.
 * Issue #24: every word comes from the catalogues, in the plan's language (a manage-links answer: in the language it
 * was asked in).
 */

/** A message about one plan: every kind of the outbox's plan mail but the manage-links answer. */
export type PlanMailKind = Exclude<RecurringMailKind, 'manage_links'>;

/** The button text of a manage link in `i18n`'s language, the same in every e-mail (the receipt's too). */
export function manageLinkLabel(i18n: I18n): string {
  return i18n._('email.receipt.manageLink');
}

/** The catalogue ids of each message about one plan: subject, heading, what happened and what to do (marked for the extractor). */
const PLAN_MAIL_IDS: Record<PlanMailKind, { subject: string; heading: string; body: string; next: string }> = {
  renewal_failed: {
    subject: /*i18n*/ 'email.plan.renewalFailed.subject',
    heading: /*i18n*/ 'email.plan.renewalFailed.heading',
    body: /*i18n*/ 'email.plan.renewalFailed.body',
    next: /*i18n*/ 'email.plan.renewalFailed.next',
  },
  plan_paused: {
    subject: /*i18n*/ 'email.plan.paused.subject',
    heading: /*i18n*/ 'email.plan.paused.heading',
    body: /*i18n*/ 'email.plan.paused.body',
    next: /*i18n*/ 'email.plan.paused.next',
  },
  plan_changed: {
    subject: /*i18n*/ 'email.plan.changed.subject',
    heading: /*i18n*/ 'email.plan.changed.heading',
    body: /*i18n*/ 'email.plan.changed.body',
    next: /*i18n*/ 'email.plan.changed.next',
  },
  renewal_needs_authentication: {
    subject: /*i18n*/ 'email.plan.needsAuthentication.subject',
    heading: /*i18n*/ 'email.plan.needsAuthentication.heading',
    body: /*i18n*/ 'email.plan.needsAuthentication.body',
    next: /*i18n*/ 'email.plan.needsAuthentication.next',
  },
  card_expiring: {
    subject: /*i18n*/ 'email.plan.cardExpiring.subject',
    heading: /*i18n*/ 'email.plan.cardExpiring.heading',
    body: /*i18n*/ 'email.plan.cardExpiring.body',
    next: /*i18n*/ 'email.plan.cardExpiring.next',
  },
};

/** What a message about one plan says: its subject, its heading and its sentences, in one language. */
export interface PlanMailWording {
  subject: string;
  heading: string;
  body: string[];
}

/**
 * Subject, heading and sentences of each message about one plan, in `i18n`'s language; `amount` is planAmountLine's
 * `$30.00 USD monthly` in the same language. A `plan_changed` message is worded by its event: planChangeWording.
 */
export function planMailWording(kind: PlanMailKind, i18n: I18n, amount: string): PlanMailWording {
  const ids = PLAN_MAIL_IDS[kind];
  return { subject: i18n._(ids.subject, { amount }), heading: i18n._(ids.heading), body: [i18n._(ids.body, { amount }), i18n._(ids.next)] };
}

/** What a cancellation's message says besides the plan: what was given through it, and the refund of a staff cancel. */
export interface CancellationFacts extends GivenThroughPlan {
  /** The refund of the last gift made with the cancel (staff's cancel with refund), in cents; undefined when none. */
  refundCents: number | undefined;
}

/**
 * Subject, heading and sentences of the `plan_changed` message of `event` (issue #32, part 5; decision 0097b), in the
 * plan's language: a change says the gift as it stands now; a pause says until when (`plan.pausedUntil`) or until
 * resumed; a resume says the gift is active again; a cancellation says no further charge will be made, what was given
 * (`cancellation`), the refund when one was made, and how to give again (never "now $30.00 monthly").
 */
export function planChangeWording(event: PlanChangeEvent, plan: RecurringPlanRow, cancellation: CancellationFacts): PlanMailWording {
  const { locale } = plan;
  const i18n = serverI18n(locale);
  const amount = planAmountLine(plan, locale);
  const money = (cents: number) => formatAmountCents(cents, plan.currency, locale);
  const next = i18n._('email.plan.changed.next');
  switch (event) {
    case 'changed':
      return planMailWording('plan_changed', i18n, amount);
    case 'paused':
      return {
        subject: i18n._('email.plan.pausedAsAsked.subject', { amount }),
        heading: i18n._('email.plan.pausedAsAsked.heading'),
        body: [
          plan.pausedUntil
            ? i18n._('email.plan.pausedAsAsked.bodyUntil', { date: formatReceiptDate(startOfDay(plan.pausedUntil), locale) })
            : i18n._('email.plan.pausedAsAsked.body'),
          next,
        ],
      };
    case 'resumed':
      return {
        subject: i18n._('email.plan.resumed.subject', { amount }),
        heading: i18n._('email.plan.resumed.heading'),
        body: [i18n._('email.plan.resumed.body'), next],
      };
    case 'cancelled': {
      const { refundCents } = cancellation;
      return {
        subject: refundCents === undefined ? i18n._('email.plan.cancelled.subject', { amount }) : i18n._('email.plan.cancelledWithRefund.subject', { amount }),
        heading: i18n._('email.plan.cancelled.heading'),
        body: [
          i18n._('email.plan.cancelled.body', { amount }),
          i18n._('email.plan.cancelled.given', { count: cancellation.giftCount, total: money(cancellation.totalCents) }),
          ...(refundCents === undefined ? [] : [i18n._('email.plan.cancelledWithRefund.refund', { refund: money(refundCents) })]),
          i18n._('email.plan.cancelled.next'),
        ],
      };
    }
  }
}

/** The link a message about one plan ends with: the plan's manage link, or, once cancelled, the donation page. */
export interface PlanMailButton {
  href: string;
  label: string;
  /** True for a manage link, which lets whoever has it change the gift: the message then says to keep it private. */
  isPrivate: boolean;
}

/** The button of the plan's manage link (`manageUrl`), in the plan's language. */
export function manageButton(plan: Pick<RecurringPlanRow, 'locale'>, manageUrl: string): PlanMailButton {
  return { href: manageUrl, label: manageLinkLabel(serverI18n(plan.locale)), isPrivate: true };
}

/** The button of a cancellation's message: "Give again", to the donation page in the plan's language (`donateUrl`). */
export function giveAgainButton(plan: Pick<RecurringPlanRow, 'locale'>, donateUrl: string): PlanMailButton {
  const i18n = serverI18n(plan.locale);
  return { href: donateUrl, label: i18n._('email.plan.cancelled.giveAgain'), isPrivate: false };
}

const buttonStyle = { backgroundColor: '#00695c', color: '#ffffff', padding: '12px 20px', borderRadius: '4px' };
const small = { fontSize: '12px', color: '#555555' };

/**
 * A message about one plan: `wording` (planMailWording or planChangeWording), the plan as it stands, and `button` (its
 * manage link, with the note that it is private; or, for a cancellation, the donation page, without it); in the plan's
 * language (`plan.locale`, issue #24). `context.receiptsPageUrl` should be that language's receipts page.
 */
export function PlanEmail({ wording, plan, button, context }: { wording: PlanMailWording; plan: RecurringPlanRow; button: PlanMailButton; context: EmailContext }) {
  const { locale } = plan;
  const i18n = serverI18n(locale);
  return (
    <EmailLayout organization={context.organization} receiptsPageUrl={context.receiptsPageUrl} preview={wording.heading} locale={locale}>
      <Heading as="h2" style={{ fontSize: '18px' }}>
        {wording.heading}
      </Heading>
      {wording.body.map((sentence) => (
        <Text key={sentence}>{sentence}</Text>
      ))}
      <LabelledLines lines={planLines(plan, locale)} />
      <Button href={button.href} style={buttonStyle}>
        {button.label}
      </Button>
      {button.isPrivate ? <Text style={small}>{i18n._('email.plan.linkNote')}</Text> : null}
    </EmailLayout>
  );
}

/**
 * The answer to a manage-links request: each plan of the address with its manage link, every word in `locale` (English
 * by default; issue #24). Each link opens its own plan's page in the plan's language (the caller's `manageUrl`).
 */
export function ManageLinksEmail({ plans, context, locale = SOURCE_LOCALE }: { plans: Array<{ plan: RecurringPlanRow; manageUrl: string }>; context: EmailContext; locale?: Locale }) {
  const i18n = serverI18n(locale);
  return (
    <EmailLayout organization={context.organization} receiptsPageUrl={context.receiptsPageUrl} preview={i18n._('email.manageLinks.subject')} locale={locale}>
      <Heading as="h2" style={{ fontSize: '18px' }}>
        {i18n._('email.manageLinks.heading')}
      </Heading>
      <Text>{i18n._('email.manageLinks.intro')}</Text>
      {plans.map(({ plan, manageUrl }) => (
        <Section key={plan.id}>
          <LabelledLines lines={planLines(plan, locale)} />
          <Button href={manageUrl} style={buttonStyle}>
            {manageLinkLabel(i18n)}
          </Button>
        </Section>
      ))}
      <Text style={small}>{i18n._('email.manageLinks.note')}</Text>
    </EmailLayout>
  );
}
