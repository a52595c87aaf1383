import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { Locale } from '../../shared/i18n/locales';
import type { CapabilitySigner } from '../platform/capability-link';
import type { OrganizationProfile } from '../platform/config';
import type { Database } from '../db/client';
import { donationRefunds, donations, RECURRING_MAIL_KINDS, recurringPlans, type MailKind, type MailOutboxRow, type RecurringMailKind, type RecurringPlanRow } from '../db/schema';
import type { Clock } from '../platform/clock';
import { PermanentComposeError, type ComposedMail, type ComposeMail } from '../mail/relay';
import { emailContextIn } from '../receipts/emails/receipt-email';
import { serverI18n } from '../i18n/catalogues';
import { localizedPath } from '../../shared/i18n/locale-paths';
import { PATHS } from '../../shared/site-paths';
import { giveAgainButton, ManageLinksEmail, manageButton, planChangeWording, PlanEmail, planMailWording, type PlanMailButton, type PlanMailWording } from './emails';
import { givenThroughPlan, planChangeEventOfMessage } from './plan-change-mail';
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

/**
 * The composer of the outbox's plan messages (issue #13): renders each from the plan as it is when sent, with a
 * freshly signed manage link; a `plan_changed` message tells the event it was enqueued for (a change, a pause, a resume,
 * a cancellation with what was given and its refund, if any; decision 0097b). Issue #24: a message about one plan speaks the plan's language (`plan.locale`); a
 * manage-links answer lists the address's plans (oldest first) in the language it was asked in (`row.locale`), or, when
 * none was recorded (links staff sent), in the language of the latest listed plan; each link opens its own plan's
 * language, and the footer links that language's receipts page. Rejects with PermanentComposeError for a message whose
 * plan is gone, or a manage-links request of an address without plans (the relay then stops retrying it).
 */
export function createPlanComposer(deps: PlanComposerDeps): ComposeMail {
  // Issue #24: an e-mail's footer links the receipts page in the e-mail's language.
  const contextIn = (locale: Locale) => emailContextIn(deps.organization, deps.publicUrl, locale);
  // Issue #24: the manage link opens the page in the plan's language.
  const linkOf = (plan: { id: string; locale: Locale }) => manageUrl(deps.links, deps.publicUrl, plan.id, deps.clock.now(), plan.locale);
  /**
   * The wording and button of `row`, a `plan_changed` message, by its event (planChangeEventOfMessage; decision 0097b):
   * a cancellation with what was given through the plan, the refund `row.refundId` names (a staff cancel with refund),
   * and the donation page in the plan's language; any other event with the plan's manage link.
   */
  const changeMessage = async (row: MailOutboxRow, plan: RecurringPlanRow): Promise<{ wording: PlanMailWording; button: PlanMailButton }> => {
    const event = planChangeEventOfMessage(row.dedupeKey, plan);
    if (event !== 'cancelled') {
      return { wording: planChangeWording(event, plan, { giftCount: 0, totalCents: 0, refundCents: undefined }), button: manageButton(plan, linkOf(plan)) };
    }
    const [refund] = row.refundId
      ? await deps.db.select({ amountCents: donationRefunds.amountCents }).from(donationRefunds).where(eq(donationRefunds.id, row.refundId))
      : [];
    const given = await givenThroughPlan(deps.db, plan.id);
    const donateUrl = new URL(localizedPath(plan.locale, PATHS.donate), deps.publicUrl).toString();
    return { wording: planChangeWording(event, plan, { ...given, refundCents: refund?.amountCents }), button: giveAgainButton(plan, donateUrl) };
  };
  return async (row: MailOutboxRow): Promise<ComposedMail> => {
    if (row.kind === 'manage_links') {
      const plans = await deps.db
        .select({ plan: recurringPlans })
        .from(recurringPlans)
        .innerJoin(donations, eq(donations.id, recurringPlans.firstDonationId))
        .where(and(eq(sql`lower(${donations.donorEmail})`, row.recipient.toLowerCase()), ne(recurringPlans.status, 'cancelled')))
        .orderBy(asc(recurringPlans.createdAt), asc(recurringPlans.id));
      const latest = plans.at(-1)?.plan;
      if (!latest) throw new PermanentComposeError(`Outbox message ${row.id} has no plans to list`);
      // Issue #24: in the language the donor asked in (the page's), or, for links staff sent, their latest plan's.
      const locale = row.locale ?? latest.locale;
      const i18n = serverI18n(locale);
      const listed = plans.map(({ plan }) => ({ plan, manageUrl: linkOf(plan) }));
      return {
        to: row.recipient,
        subject: i18n._('email.manageLinks.subject'),
        ...(await renderEmailParts(<ManageLinksEmail plans={listed} context={contextIn(locale)} locale={locale} />)),
      };
    }
    if (!isRecurringMailKind(row.kind)) throw new PermanentComposeError(`Outbox message ${row.id} (${row.kind}) is not about a plan`);
    const plan = row.recurringPlanId ? await findPlan(deps.db, row.recurringPlanId) : undefined;
    if (!plan) throw new PermanentComposeError(`Outbox message ${row.id} names no plan`);
    // Issue #24: in the plan's language, subject and footer link included.
    const { wording, button } =
      row.kind === 'plan_changed'
        ? await changeMessage(row, plan)
        : { wording: planMailWording(row.kind, serverI18n(plan.locale), planAmountLine(plan)), button: manageButton(plan, linkOf(plan)) };
    return {
      to: row.recipient,
      subject: wording.subject,
      ...(await renderEmailParts(<PlanEmail wording={wording} plan={plan} button={button} context={contextIn(plan.locale)} />)),
    };
  };
}
