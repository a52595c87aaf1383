import { Button, Heading, Section, Text } from '@react-email/components';
import type { RecurringPlanRow, RecurringMailKind } from '../db/schema';
import type { EmailContext } from '../receipts/emails/receipt-email';
import { LabelledLines } from '../receipts/emails/labelled-lines';
import { EmailLayout } from '../receipts/emails/layout';
import { planAmountLine, planLines } from './plan-view';

/** The e-mails of recurring plans (issue #13), in the receipts' frame (EmailLayout); each carries the plan's manage link. */

/** The button text of a manage link, the same in every e-mail. */
export const MANAGE_LINK_LABEL = 'Manage your recurring gift';

/** Heading and sentences of each message about one plan. */
const WORDING: Record<Exclude<RecurringMailKind, 'manage_links'>, { heading: string; body: (amount: string) => string[] }> = {
  renewal_failed: {
    heading: 'Your recurring gift could not be charged',
    body: (amount) => [
      `We could not charge your card for your ${amount} gift. We will try again in a few days.`,
      'If your card changed or expired, you can update it with the link below; nothing else is needed.',
    ],
  },
  plan_paused: {
    heading: 'Your recurring gift is paused',
    body: (amount) => [
      `We tried several times to charge your card for your ${amount} gift, without success, so we paused it: nothing more will be charged.`,
      'To give again, update your card and resume your gift with the link below.',
    ],
  },
  plan_changed: {
    heading: 'Your recurring gift was changed',
    body: () => ['Your change is saved and takes effect from the next charge. Here is your gift as it stands now.', 'If you did not make this change, use the link below to review your gift.'],
  },
  renewal_needs_authentication: {
    heading: 'Please confirm your recurring gift',
    body: (amount) => [
      `Your bank asks you to confirm the payment of your ${amount} gift. Nothing was charged yet.`,
      'Open the link below and choose Confirm Payment; your bank may ask you to approve it.',
    ],
  },
  card_expiring: {
    heading: 'Your card expires soon',
    body: (amount) => [
      `The card of your ${amount} gift expires at the end of its expiry month, within 30 days.`,
      'To keep your gift going, update your card with the link below.',
    ],
  },
};

const button = { backgroundColor: '#00695c', color: '#ffffff', padding: '12px 20px', borderRadius: '4px' };
const small = { fontSize: '12px', color: '#555555' };

/** A message about one plan (`kind`): what happened, the plan as it stands, and its manage link. */
export function PlanEmail({ kind, plan, manageUrl, context }: { kind: Exclude<RecurringMailKind, 'manage_links'>; plan: RecurringPlanRow; manageUrl: string; context: EmailContext }) {
  const wording = WORDING[kind];
  return (
    <EmailLayout organization={context.organization} receiptsPageUrl={context.receiptsPageUrl} preview={wording.heading}>
      <Heading as="h2" style={{ fontSize: '18px' }}>
        {wording.heading}
      </Heading>
      {wording.body(planAmountLine(plan)).map((sentence) => (
        <Text key={sentence}>{sentence}</Text>
      ))}
      <LabelledLines lines={planLines(plan)} />
      <Button href={manageUrl} style={button}>
        {MANAGE_LINK_LABEL}
      </Button>
      <Text style={small}>The link works without an account: keep it private, it lets anyone who has it change your gift.</Text>
    </EmailLayout>
  );
}

/** The answer to a manage-links request: each plan of the address with its manage link. */
export function ManageLinksEmail({ plans, context }: { plans: Array<{ plan: RecurringPlanRow; manageUrl: string }>; context: EmailContext }) {
  return (
    <EmailLayout organization={context.organization} receiptsPageUrl={context.receiptsPageUrl} preview="Links to manage your recurring gifts">
      <Heading as="h2" style={{ fontSize: '18px' }}>
        Your recurring gifts
      </Heading>
      <Text>You asked for the links to manage the recurring gifts made with this address.</Text>
      {plans.map(({ plan, manageUrl }) => (
        <Section key={plan.id}>
          <LabelledLines lines={planLines(plan)} />
          <Button href={manageUrl} style={button}>
            {MANAGE_LINK_LABEL}
          </Button>
        </Section>
      ))}
      <Text style={small}>If you did not ask for this message, you can ignore it. Keep these links private.</Text>
    </EmailLayout>
  );
}
