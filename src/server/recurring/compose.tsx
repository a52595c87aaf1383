import { and, eq, ne, sql } from 'drizzle-orm';
import type { Locale } from '../../shared/i18n/locales';
import { RECEIPTS_PAGE_PATH } from '../../shared/receipts';
import type { CapabilitySigner } from '../platform/capability-link';
import type { OrganizationProfile } from '../platform/config';
import type { Database } from '../db/client';
import { donations, RECURRING_MAIL_KINDS, recurringPlans, type MailKind, type MailOutboxRow, type RecurringMailKind } from '../db/schema';
import type { Clock } from '../platform/clock';
import { PermanentComposeError, type ComposedMail, type ComposeMail } from '../mail/relay';
import type { EmailContext } from '../receipts/emails/receipt-email';
import { ManageLinksEmail, PlanEmail } from './emails';
import { manageUrl } from './manage-link';
import { findPlan } from './plans';
import { planAmountLine } from './plan-view';
import { renderEmailParts } from '../mail/render-email';

/** What the composer of plan e-mails needs. */
export interface PlanComposerDeps {
  db: Database;
  organization: OrganizationProfile;
  /** PUBLIC_URL: links in e-mails are absolute. */
  publicUrl: string;
  links: CapabilitySigner;
  clock: Clock;
}

/** True for an outbox kind the plan composer renders (RECURRING_MAIL_KINDS). */
export function isRecurringMailKind(kind: MailKind): kind is RecurringMailKind {
  return (RECURRING_MAIL_KINDS as readonly string[]).includes(kind);
}

/** Subject of each message about one plan; `amount` is planAmountLine's `$30.00 USD monthly`. */
const SUBJECTS: Record<Exclude<RecurringMailKind, 'manage_links'>, (amount: string) => string> = {
  renewal_failed: (amount) => `Your ${amount} gift could not be charged`,
  plan_paused: (amount) => `Your ${amount} gift is paused`,
  plan_changed: (amount) => `Your recurring gift was changed: now ${amount}`,
  renewal_needs_authentication: (amount) => `Please confirm your ${amount} gift`,
  card_expiring: (amount) => `The card of your ${amount} gift expires soon`,
};

/**
 * The composer of the outbox's plan messages (issue #13): renders each from the plan as it is when sent, with a
 * freshly signed manage link. Rejects with PermanentComposeError for a message whose plan is gone, or a manage-links
 * request of an address without plans (the relay then stops retrying it).
 */
export function createPlanComposer(deps: PlanComposerDeps): ComposeMail {
  const context: EmailContext = { organization: deps.organization, receiptsPageUrl: new URL(RECEIPTS_PAGE_PATH, deps.publicUrl).toString() };
  // Issue #24: the manage link opens the page in the plan's language.
  const linkOf = (plan: { id: string; locale: Locale }) => manageUrl(deps.links, deps.publicUrl, plan.id, deps.clock.now(), plan.locale);
  return async (row: MailOutboxRow): Promise<ComposedMail> => {
    if (row.kind === 'manage_links') {
      const plans = await deps.db
        .select({ plan: recurringPlans })
        .from(recurringPlans)
        .innerJoin(donations, eq(donations.id, recurringPlans.firstDonationId))
        .where(and(eq(sql`lower(${donations.donorEmail})`, row.recipient.toLowerCase()), ne(recurringPlans.status, 'cancelled')));
      if (plans.length === 0) throw new PermanentComposeError(`Outbox message ${row.id} has no plans to list`);
      const listed = plans.map(({ plan }) => ({ plan, manageUrl: linkOf(plan) }));
      return { to: row.recipient, subject: 'Links to manage your recurring gifts', ...(await renderEmailParts(<ManageLinksEmail plans={listed} context={context} />)) };
    }
    if (!isRecurringMailKind(row.kind)) throw new PermanentComposeError(`Outbox message ${row.id} (${row.kind}) is not about a plan`);
    const plan = row.recurringPlanId ? await findPlan(deps.db, row.recurringPlanId) : undefined;
    if (!plan) throw new PermanentComposeError(`Outbox message ${row.id} names no plan`);
    return {
      to: row.recipient,
      subject: SUBJECTS[row.kind](planAmountLine(plan)),
      ...(await renderEmailParts(<PlanEmail kind={row.kind} plan={plan} manageUrl={linkOf(plan)} context={context} />)),
    };
  };
}
