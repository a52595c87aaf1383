import { Button, Heading, Section, Text } from '@react-email/components';
import type { I18n } from '@lingui/core';
import { type Locale, SOURCE_LOCALE } from '../../shared/i18n/locales';
import type { RecurringPlanRow, RecurringMailKind } from '../db/schema';
import { serverI18n } from '../i18n/catalogues';
import type { EmailContext } from '../receipts/emails/receipt-email';
import { LabelledLines } from '../receipts/emails/labelled-lines';
import { EmailLayout } from '../receipts/emails/layout';
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

/**
 * Subject, heading and sentences of each message about one plan, in `i18n`'s language; `amount` is planAmountLine's
 * `$30.00 USD monthly` in the same language.
 */
export function planMailWording(kind: PlanMailKind, i18n: I18n, amount: string): { subject: string; heading: string; body: string[] } {
  const ids = PLAN_MAIL_IDS[kind];
  return { subject: i18n._(ids.subject, { amount }), heading: i18n._(ids.heading), body: [i18n._(ids.body, { amount }), i18n._(ids.next)] };
}

const button = { backgroundColor: '#00695c', color: '#ffffff', padding: '12px 20px', borderRadius: '4px' };
const small = { fontSize: '12px', color: '#555555' };

/**
 * A message about one plan (`kind`): what happened, the plan as it stands, and its manage link; in the plan's language
 * (`plan.locale`, issue #24). `context.receiptsPageUrl` should be that language's receipts page.
 */
export function PlanEmail({ kind, plan, manageUrl, context }: { kind: PlanMailKind; plan: RecurringPlanRow; manageUrl: string; context: EmailContext }) {
  const { locale } = plan;
  const i18n = serverI18n(locale);
  const wording = planMailWording(kind, i18n, planAmountLine(plan, locale));
  return (
    <EmailLayout organization={context.organization} receiptsPageUrl={context.receiptsPageUrl} preview={wording.heading} locale={locale}>
      <Heading as="h2" style={{ fontSize: '18px' }}>
        {wording.heading}
      </Heading>
      {wording.body.map((sentence) => (
        <Text key={sentence}>{sentence}</Text>
      ))}
      <LabelledLines lines={planLines(plan, locale)} />
      <Button href={manageUrl} style={button}>
        {manageLinkLabel(i18n)}
      </Button>
      <Text style={small}>{i18n._('email.plan.linkNote')}</Text>
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
          <Button href={manageUrl} style={button}>
            {manageLinkLabel(i18n)}
          </Button>
        </Section>
      ))}
      <Text style={small}>{i18n._('email.manageLinks.note')}</Text>
    </EmailLayout>
  );
}
