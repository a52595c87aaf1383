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

/**
 * Subject, heading and sentences of each message about one plan, in `i18n`'s language; `amount` is planAmountLine's
 * `$30.00 USD monthly` in the same language.
 */
export function planMailWording(kind: PlanMailKind, i18n: I18n, amount: string): { subject: string; heading: string; body: string[] } {
  switch (kind) {
    case 'renewal_failed':
      return {
        subject: i18n._('email.plan.renewalFailed.subject', { amount }),
        heading: i18n._('email.plan.renewalFailed.heading'),
        body: [i18n._('email.plan.renewalFailed.body', { amount }), i18n._('email.plan.renewalFailed.next')],
      };
    case 'plan_paused':
      return {
        subject: i18n._('email.plan.paused.subject', { amount }),
        heading: i18n._('email.plan.paused.heading'),
        body: [i18n._('email.plan.paused.body', { amount }), i18n._('email.plan.paused.next')],
      };
    case 'plan_changed':
      return {
        subject: i18n._('email.plan.changed.subject', { amount }),
        heading: i18n._('email.plan.changed.heading'),
        body: [i18n._('email.plan.changed.body'), i18n._('email.plan.changed.next')],
      };
    case 'renewal_needs_authentication':
      return {
        subject: i18n._('email.plan.needsAuthentication.subject', { amount }),
        heading: i18n._('email.plan.needsAuthentication.heading'),
        body: [i18n._('email.plan.needsAuthentication.body', { amount }), i18n._('email.plan.needsAuthentication.next')],
      };
    case 'card_expiring':
      return {
        subject: i18n._('email.plan.cardExpiring.subject', { amount }),
        heading: i18n._('email.plan.cardExpiring.heading'),
        body: [i18n._('email.plan.cardExpiring.body', { amount }), i18n._('email.plan.cardExpiring.next')],
      };
  }
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
