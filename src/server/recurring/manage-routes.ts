import type { Locale } from '../../shared/i18n/locales';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MANAGE_CARD_SETUP_API_PATH, MANAGE_CONFIRM_PAYMENT_API_PATH, MANAGE_LINKS_API_PATH, MANAGE_PLAN_API_PATH } from '../../shared/recurring';
import {
  CardSetupAnswerSchema,
  MANAGE_LINKS_CONFIRMATION,
  ManageLinksAcceptedSchema,
  ManageLinksRequestSchema,
  ManagedPlanAnswerSchema,
  PAYMENT_NOT_CONFIRMED_MESSAGE,
  PLAN_CHANGE_NOT_ALLOWED_MESSAGE,
  PLAN_CHARGE_UNDER_WAY_MESSAGE,
  PlanChangeSchema,
  SETUP_INTENT_NOT_SAVED_MESSAGE,
} from '../../shared/recurring-api';
import type { CapabilitySigner } from '../platform/capability-link';
import type { Database } from '../db/client';
import type { FeeCoverageSettings } from '../../shared/fee-coverage';
import { donations, recurringPlans, type RecurringPlanRow } from '../db/schema';
import { apiError, CARD_DATA_REFUSED_MESSAGE, codeOfMessage, INVALID_INPUT_MESSAGE, NOT_FOUND_MESSAGE } from '../http/errors';
import { publicDeclineCode } from '../../shared/api';
import { errorAnswers, PAGE_WRITE_ERRORS } from '../http/error-answers';
import type { Clock } from '../platform/clock';
import { enqueueMail } from '../mail/outbox';
import type { PaymentGateway } from '../payments/gateway';
import { confirmRenewalFromPage, paymentToConfirmOf, settleAwaitingPayment } from './awaiting-payment';
import { applyPlanChange, managedPlanView } from './manage';
import { findPlan } from './plans';

/** What the manage routes need. */
export interface ManageRoutesOptions {
  db: Database;
  gateway: PaymentGateway;
  links: CapabilitySigner;
  clock: Clock;
  /** Smallest gift, in cents (MIN_DONATION_AMOUNT). */
  minAmountCents: number;
  /** The card fee the site offers to cover (issue #23); null: FEE_COVERAGE=off. */
  feeCoverage?: FeeCoverageSettings | null;
}

/** The window of the manage-links dedupe, in ms: one message per address per clock hour (UTC), as receipt resends. */
const MANAGE_LINKS_WINDOW_MS = 60 * 60 * 1000;

/**
 * Enqueues one `manage_links` message for `email` when that address (case-insensitive) has a plan not cancelled, at
 * most one per address per clock hour, in `locale` when given (the page's language; issue #24), else each plan's.
 * Resolves with whether one was queued now; the caller answers the same either way.
 */
export async function requestManageLinks(db: Database, email: string, now: Date, locale?: Locale): Promise<boolean> {
  const address = email.toLowerCase();
  const [plan] = await db
    .select({ recipient: donations.donorEmail })
    .from(recurringPlans)
    .innerJoin(donations, eq(donations.id, recurringPlans.firstDonationId))
    .where(and(eq(sql`lower(${donations.donorEmail})`, address), ne(recurringPlans.status, 'cancelled')))
    .limit(1);
  if (!plan) return false;
  const dedupeKey = `manage_links:${address}:${Math.floor(now.getTime() / MANAGE_LINKS_WINDOW_MS)}`;
  return (await enqueueMail(db, { kind: 'manage_links', dedupeKey, recipient: plan.recipient, locale })) !== undefined;
}

/**
 * After a resume or a cancel (the donor's or staff's: issue #22), settles the payment `plan`'s period (as it was before
 * the change) held for its donor's confirmation (decision 0046); a gateway failure is logged, not thrown (the runner
 * settles it before any retry).
 */
export async function releaseAwaitingPayment(deps: { db: Database; gateway: PaymentGateway; log: FastifyBaseLogger }, plan: RecurringPlanRow): Promise<void> {
  try {
    await settleAwaitingPayment(deps, plan.id, plan.period);
  } catch (error) {
    deps.log.warn({ err: error, plan: { planId: plan.id, period: plan.period } }, 'Renewal awaiting the donor not released: the gateway could not be asked');
  }
}

const TokenParamsSchema = z.object({ token: z.string().max(400) });

/**
 * The donor's manage API (issue #13, "The donor's link"). Every route declares a schema for each status it answers
 * (DESIGN.md example 9); the POSTs pass the app's CSRF check like every write of the site's pages.
 */
export const manageRoutes: FastifyPluginAsyncZod<ManageRoutesOptions> = async (app, { db, gateway, links, clock, minAmountCents, feeCoverage }) => {
  /** The plan a token names, or undefined for a malformed, forged or expired token or an unknown plan. */
  const planOf = async (token: string) => {
    const planId = links.verify(token, clock.now());
    return planId === undefined ? undefined : findPlan(db, planId);
  };
  /** The page's view of `plan`, with the renewal awaiting the donor's confirmation when there is one (asked of the gateway). */
  const viewOf = async (plan: RecurringPlanRow, log: FastifyBaseLogger) => managedPlanView(db, plan, await paymentToConfirmOf({ db, gateway, log }, plan));

  /**
   * GET /api/recurring/manage/:token: the plan the manage link names, as the page shows it (ManagedPlanSchema: amount
   * in dollars, frequency, cause, status, next charge date, card brand and last 4, charges). Changes nothing (mail
   * scanners follow links). In Stripe mode, `paymentToConfirm` carries the client secret of the renewal the donor's
   * bank wants authenticated (decision 0046); /api answers are never cached (no-store). 404 (one answer) for a bad
   * token or an unknown plan; 400 a token over 400 characters; 500.
   */
  app.get(
    MANAGE_PLAN_API_PATH,
    {
      schema: {
        summary: 'The plan a manage link names',
        params: TokenParamsSchema,
        response: { 200: ManagedPlanAnswerSchema, ...errorAnswers(400, 404, 500) },
      },
    },
    async (request, reply) => {
      const plan = await planOf(request.params.token);
      if (!plan) return reply.code(404).send(apiError(NOT_FOUND_MESSAGE));
      return reply.code(200).send({ success: true, data: await viewOf(plan, request.log) });
    },
  );

  /**
   * POST /api/recurring/manage/:token `PlanChangeSchema`: changes the plan (amount from the next charge, cause, pause
   * until a date or until resumed, resume, a new card, cancel), confirmed by e-mail (see applyPlanChange). Answers
   * 200 with the plan as changed; 400 bad input (fieldErrors), card data in Stripe mode (its card is updated through
   * Stripe), a SetupIntent in test mode, or one that saved no card on the plan's Customer (`setupIntentId`); 402 a card the gateway refused (its message); 403 CSRF; 404 a bad token; 409 a change the plan's status
   * does not allow (resume an active plan; anything once cancelled), or a cancel or pause while a charge of the gift is
   * under way (PLAN_CHARGE_UNDER_WAY_MESSAGE, Retry-After); 413/415; 429 the per-IP limits; 500. A resume or
   * cancel leaves the plan's period behind: the payment it held for the donor's confirmation is settled (cancelled at
   * the gateway, or recorded if it was paid first; decision 0046), so a page still open cannot pay it any more.
   */
  app.post(
    MANAGE_PLAN_API_PATH,
    {
      schema: {
        summary: "Change a plan: amount, cause, pause, resume, card or cancel",
        params: TokenParamsSchema,
        body: PlanChangeSchema,
        response: { 200: ManagedPlanAnswerSchema, ...errorAnswers(...PAGE_WRITE_ERRORS, 402, 404, 409) },
      },
    },
    async (request, reply) => {
      const plan = await planOf(request.params.token);
      if (!plan) return reply.code(404).send(apiError(NOT_FOUND_MESSAGE));
      const change = request.body;
      if (change.action === 'update_card' && !gateway.acceptsCardData) {
        return reply.code(400).send(apiError(CARD_DATA_REFUSED_MESSAGE, { creditCard: CARD_DATA_REFUSED_MESSAGE }));
      }
      if (change.action === 'use_setup_intent' && gateway.acceptsCardData) {
        return reply.code(400).send(apiError(INVALID_INPUT_MESSAGE, { setupIntentId: SETUP_INTENT_NOT_SAVED_MESSAGE }, codeOfMessage(SETUP_INTENT_NOT_SAVED_MESSAGE)));
      }
      const outcome = await applyPlanChange({ db, gateway, minAmountCents, feeCoverage }, plan.id, change, clock.now());
      request.log.info({ plan: { planId: plan.id, action: change.action, outcome: outcome.status } }, 'Recurring plan change');
      switch (outcome.status) {
        case 'changed':
          if (change.action === 'resume' || change.action === 'cancel') await releaseAwaitingPayment({ db, gateway, log: request.log }, plan);
          return reply.code(200).send({ success: true, data: await viewOf(outcome.plan, request.log) });
        case 'not_allowed':
          return reply.code(409).send(apiError(PLAN_CHANGE_NOT_ALLOWED_MESSAGE));
        case 'charge_under_way':
          return reply.code(409).header('retry-after', '300').send(apiError(PLAN_CHARGE_UNDER_WAY_MESSAGE));
        case 'invalid':
          // Issue #24: the field's own code (pause_date_in_past...) when it has one.
          return reply.code(400).send(apiError(INVALID_INPUT_MESSAGE, { [outcome.field]: outcome.message }, codeOfMessage(outcome.message) ?? 'invalid_input'));
        case 'card_declined':
          return reply.code(402).send(apiError(outcome.message, undefined, publicDeclineCode(outcome.declineCode)));
      }
    },
  );

  /**
   * POST /api/recurring/manage/:token/confirm-payment `{}` (Stripe mode; issue #13, decision 0046): the page calls it
   * once Stripe.js confirmed the renewal the donor's bank wanted authenticated. The server retrieves the plan's payment
   * intent from Stripe itself (never trusting the browser) and, when it succeeded, records the renewal once (the try
   * failed -> succeeded with its receipt, the plan active on its next period), as the webhook would; answers 200 with
   * the plan then, also when the webhook recorded it first. 409 PAYMENT_NOT_CONFIRMED_MESSAGE when Stripe does not say
   * it was paid (nothing recorded); 400 a bad body; 403 CSRF; 404 a bad token; 413/415; 429; 500 (Stripe unreachable).
   */
  app.post(
    MANAGE_CONFIRM_PAYMENT_API_PATH,
    {
      schema: {
        summary: 'Record a renewal its donor confirmed with Stripe.js (authentication_required; Stripe mode)',
        params: TokenParamsSchema,
        body: z.strictObject({}),
        response: { 200: ManagedPlanAnswerSchema, ...errorAnswers(...PAGE_WRITE_ERRORS, 404, 409) },
      },
    },
    async (request, reply) => {
      const plan = await planOf(request.params.token);
      if (!plan) return reply.code(404).send(apiError(NOT_FOUND_MESSAGE));
      const outcome = await confirmRenewalFromPage({ db, gateway, log: request.log }, plan);
      request.log.info({ plan: { planId: plan.id, confirmPayment: outcome } }, 'Renewal confirmation from the manage page');
      if (outcome === 'not_paid') return reply.code(409).send(apiError(PAYMENT_NOT_CONFIRMED_MESSAGE));
      return reply.code(200).send({ success: true, data: await viewOf((await findPlan(db, plan.id)) ?? plan, request.log) });
    },
  );

  /**
   * POST /api/recurring/manage/:token/card-setup `{}` (Stripe mode; issue #13): creates a SetupIntent for the plan's
   * Customer (off-session use) and answers 200 `{clientSecret}`, which the page confirms with the Payment Element
   * before posting `{action: 'use_setup_intent', setupIntentId}`; the card goes to Stripe only. 400 in test mode (the
   * card fields post the card); 403 CSRF; 404 a bad token; 409 a cancelled plan or one without a Customer; 413/415;
   * 429; 500 (Stripe unreachable).
   */
  app.post(
    MANAGE_CARD_SETUP_API_PATH,
    {
      schema: {
        summary: "Start a card update through Stripe (a SetupIntent for the plan's Customer; Stripe mode)",
        params: TokenParamsSchema,
        body: z.strictObject({}),
        response: { 200: CardSetupAnswerSchema, ...errorAnswers(...PAGE_WRITE_ERRORS, 404, 409) },
      },
    },
    async (request, reply) => {
      const plan = await planOf(request.params.token);
      if (!plan) return reply.code(404).send(apiError(NOT_FOUND_MESSAGE));
      if (gateway.acceptsCardData) return reply.code(400).send(apiError(INVALID_INPUT_MESSAGE));
      if (plan.status === 'cancelled' || !plan.customerId) return reply.code(409).send(apiError(PLAN_CHANGE_NOT_ALLOWED_MESSAGE));
      const intent = await gateway.createSetupIntent(plan.customerId);
      request.log.info({ plan: { planId: plan.id, setupIntentId: intent.id } }, 'Card setup started');
      return reply.code(200).send({ success: true, data: { clientSecret: intent.clientSecret } });
    },
  );

  /**
   * POST /api/recurring/manage-links `{email, locale?}`: e-mails the address a link to manage each of its plans (at most one
   * message per address per hour), when it has plans. Answers 202 `{success: true, message: MANAGE_LINKS_CONFIRMATION}`
   * whatever the address (no one learns who gives); 400 a malformed address; 403 CSRF; 413/415; 429; 500. Logs whether
   * a message was queued, never the address.
   */
  app.post(
    MANAGE_LINKS_API_PATH,
    {
      schema: {
        summary: 'E-mail an address the manage link of each of its plans',
        body: ManageLinksRequestSchema,
        response: { 202: ManageLinksAcceptedSchema, ...errorAnswers(...PAGE_WRITE_ERRORS) },
      },
    },
    async (request, reply) => {
      const queued = await requestManageLinks(db, request.body.email, clock.now(), request.body.locale);
      request.log.info({ event: 'recurring.manage_links', queued }, 'Manage links asked for');
      return reply.code(202).send({ success: true, message: MANAGE_LINKS_CONFIRMATION });
    },
  );
};
