import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PLAN_CHANGE_NOT_ALLOWED_MESSAGE, PLAN_CHARGE_UNDER_WAY_MESSAGE } from '../../../shared/recurring-api';
import { EmptyBodySchema, STAFF_FORBIDDEN_MESSAGE, STAFF_REAUTH_MESSAGE } from '../../../shared/staff/identity-api';
import { STAFF_API } from '../../../shared/staff/paths';
import {
  MANAGE_LINK_CANCELLED_MESSAGE,
  NO_CHARGE_TO_REFUND_MESSAGE,
  PLAN_NOT_FOUND_MESSAGE,
  StaffManageLinkAnswerSchema,
  StaffPlanChangeAnswerSchema,
  StaffPlanChangeRequestSchema,
  StaffPlanDetailSchema,
  StaffPlanListAnswerSchema,
  StaffPlanListQuerySchema,
  type StaffPlanDetail,
} from '../../../shared/staff/plans-api';
import { roleHasRight } from '../../../shared/staff/roles';
import { answerRefund, REFUND_IDEMPOTENCY_KEY_MESSAGE, UUID_PATTERN } from '../../admin/refund-route';
import type { Database } from '../../db/client';
import { errorAnswers } from '../../http/error-answers';
import { apiError, INVALID_INPUT_MESSAGE } from '../../http/errors';
import { readIdempotencyKey } from '../../idempotency/idempotency-key';
import type { PaymentGateway } from '../../payments/gateway';
import type { Clock } from '../../platform/clock';
import { releaseAwaitingPayment } from '../../recurring/manage-routes';
import { findPlan } from '../../recurring/plans';
import { attachRefundToCancellationMail } from '../../recurring/plan-change-mail';
import { READ_ERRORS, WRITE_ERRORS, staffError } from '../identity/errors';
import { hasRecentStrongAuth, requireStaff, signedInMember } from '../identity/guard';
import { refundForStaff } from '../shared/refund';
import { staffStatusOf } from '../shared/status';
import { changePlanForStaff, sendManageLinkForStaff } from './actions';
import { lastChargeOf, readStaffPlanDetail } from './detail';
import { listStaffPlans } from './list';

/**
 * The staff plans API (issue #22, "Recurring plans /staff/plans"), under /api/staff/plans: the list with its totals, a
 * plan's page, its changes and the e-mail of its manage link. Every route is behind requireStaff(right) (401 without a
 * valid session, 403 when the role lacks the right: shared/staff/roles.ts); JSON, CSRF on writes and no-store as
 * every /api route.
 */

/** What the staff plans routes need. */
export interface StaffPlansOptions {
  db: Database;
  /** The gateway of a new card's checks and of the refund made with a cancel (as part 1's refunds). */
  gateway: PaymentGateway;
  /** The injected clock: "from the next charge", pause dates, recent strong authentication. */
  clock: Clock;
  /** Smallest gift, in cents (MIN_DONATION_AMOUNT): a new amount's floor, as the donor's. */
  minAmountCents: number;
  /** How many retries a declined period gets (DUNNING_RETRY_DAYS' length), for the dunning state. */
  retriesTotal: number;
}

/** A plan's id in a path: any text (one that names no plan, a non-UUID included, answers 404). */
const PlanParamsSchema = z.object({ id: z.string().max(100) });

/** The staff plans routes; see each route's comment. */
export const staffPlanRoutes: FastifyPluginAsyncZod<StaffPlansOptions> = async (app, { db, gateway, clock, minAmountCents, retriesTotal }) => {
  /** The plan's detail now (it exists: the caller found it). */
  const detailOf = async (planId: string): Promise<StaffPlanDetail> => {
    const detail = await readStaffPlanDetail(db, planId, retriesTotal);
    if (!detail) throw new Error(`Plan ${planId} vanished`);
    return detail;
  };

  /**
   * GET /api/staff/plans (right `read`): one page of the plans the query's filters and search select, sorted, with the
   * totals of the whole filtered set (listStaffPlans). 400 (fieldErrors) an unknown parameter or a bad value.
   */
  app.get(
    STAFF_API.plans,
    {
      preHandler: requireStaff('read'),
      schema: {
        summary: 'Staff: list recurring plans with filters, search, sort, pagination, and the active plans with their monthly equivalent',
        querystring: StaffPlanListQuerySchema,
        response: { 200: StaffPlanListAnswerSchema, ...READ_ERRORS },
      },
    },
    async (request, reply) => reply.code(200).send(await listStaffPlans(db, request.query)),
  );

  /** GET /api/staff/plans/:id (right `read`): the plan's page (readStaffPlanDetail); 404 none. */
  app.get(
    STAFF_API.plan,
    {
      preHandler: requireStaff('read'),
      schema: {
        summary: 'Staff: a recurring plan with its donor, card, next charge, dunning state, charges and changes',
        params: PlanParamsSchema,
        response: { 200: StaffPlanDetailSchema, ...READ_ERRORS, ...errorAnswers(404) },
      },
    },
    async (request, reply) => {
      const detail = UUID_PATTERN.test(request.params.id) ? await readStaffPlanDetail(db, request.params.id, retriesTotal) : undefined;
      if (!detail) return reply.code(404).send(apiError(PLAN_NOT_FOUND_MESSAGE));
      return reply.code(200).send(detail);
    },
  );

  /**
   * POST /api/staff/plans/:id/changes StaffPlanChangeRequestSchema (right `plans`): changes the plan through the donor's
   * own code (changePlanForStaff: from the next charge, e-mailed to the donor, history and audit in its transaction).
   * Answers 200 `{plan, refund: null}`. A cancel with `refundLastCharge` also needs the right `refund` and a passkey or
   * link sign-in within 15 minutes (403 `staff_forbidden` / `staff_reauth_required`, nothing written) and an
   * Idempotency-Key (400 without); it cancels, then refunds all that is left of the last charge as part 1's refund
   * (refundForStaff) and answers 200 `{plan, refund}`; the same key again refunds nothing more (`Idempotent-Replayed`).
   * If the refund fails after the cancel (409 refused, 503 unknown), the cancel stands and the same request with the same
   * key tries the refund again. The donor's cancellation e-mail waits for the refund and says it was made, when it was
   * (decision 0097b). 400 bad body or input (fieldErrors); 404 no such plan; 409 a change the status does not
   * allow, a charge under way (PLAN_CHARGE_UNDER_WAY_MESSAGE, Retry-After, exactly as the donor's), nothing to refund;
   * 422 key reused; 503 refund outcome unknown.
   */
  app.post(
    STAFF_API.planChanges,
    {
      preHandler: requireStaff('plans'),
      schema: {
        summary: 'Staff: change a plan (amount, cause, pause, resume) or cancel it, optionally refunding its last charge',
        params: PlanParamsSchema,
        body: StaffPlanChangeRequestSchema,
        response: { 200: StaffPlanChangeAnswerSchema, ...WRITE_ERRORS, ...errorAnswers(404, 409, 422, 503) },
      },
    },
    async (request, reply) => {
      const member = signedInMember(request);
      const planId = request.params.id;
      const body = request.body;
      const plan = UUID_PATTERN.test(planId) ? await findPlan(db, planId) : undefined;
      if (!plan) return reply.code(404).send(apiError(PLAN_NOT_FOUND_MESSAGE));
      const refundAsked = body.action === 'cancel' && body.refundLastCharge;
      if (refundAsked) {
        if (!roleHasRight(member.role, 'refund')) return reply.code(403).send(staffError(STAFF_FORBIDDEN_MESSAGE, 'staff_forbidden'));
        if (!hasRecentStrongAuth(request, clock)) return reply.code(403).send(staffError(STAFF_REAUTH_MESSAGE, 'staff_reauth_required'));
        const idempotency = readIdempotencyKey(request.headers);
        if ('invalid' in idempotency || idempotency.key === undefined) return reply.code(400).send(apiError(REFUND_IDEMPOTENCY_KEY_MESSAGE));
      }
      const lastCharge = refundAsked ? await lastChargeOf(db, planId) : undefined;
      if (refundAsked && !lastCharge) return reply.code(409).send(apiError(NO_CHARGE_TO_REFUND_MESSAGE));
      const actor = { staffMember: member, requestId: request.id };
      const outcome = await changePlanForStaff({ db, gateway, minAmountCents }, planId, body, actor, clock.now());
      request.log.info({ plan: { planId, action: body.action, outcome: outcome.status, by: 'staff' } }, 'Recurring plan change');
      switch (outcome.status) {
        case 'changed':
          if (body.action === 'resume' || body.action === 'cancel') await releaseAwaitingPayment({ db, gateway, log: request.log }, plan);
          break;
        case 'not_allowed':
          // NOTE: a cancel with refund sent again (the same key) after its cancel was made goes on to its refund.
          if (refundAsked && (await findPlan(db, planId))?.status === 'cancelled') break;
          return reply.code(409).send(apiError(PLAN_CHANGE_NOT_ALLOWED_MESSAGE));
        case 'charge_under_way':
          return reply.code(409).header('retry-after', '300').send(apiError(PLAN_CHARGE_UNDER_WAY_MESSAGE));
        case 'invalid':
          return reply.code(400).send(apiError(INVALID_INPUT_MESSAGE, { [outcome.field === 'amount' ? 'amountCents' : outcome.field]: outcome.message }));
        case 'card_declined':
          return reply.code(409).send(apiError(outcome.message));
      }
      if (!refundAsked || !lastCharge || body.action !== 'cancel') return reply.code(200).send({ plan: await detailOf(planId), refund: null });
      const reason = body.reason ?? '';
      let after: StaffPlanDetail | undefined;
      return answerRefund(request, reply, {
        donationId: lastCharge.donationId,
        amountCents: undefined,
        amountField: 'refundLastCharge',
        refund: async (asked) => {
          let refundId: string | undefined;
          try {
            const refunded = await refundForStaff({ db, gateway }, { ...asked, reason }, actor);
            if (refunded.kind === 'refunded') refundId = refunded.refund.id;
            after = await detailOf(planId);
            return refunded;
          } finally {
            // Decision 0097b: the held cancellation e-mail goes now, saying the last gift was refunded when it was.
            await attachRefundToCancellationMail(db, planId, refundId, clock.now()).catch((error: unknown) =>
              request.log.error({ event: 'plan.cancellation_mail_release_failed', err: error, planId }, 'Cancellation e-mail left to its hold'),
            );
          }
        },
        refunded: ({ refund, donation, replayed }) => {
          request.log.info({ event: 'refund.made', by: 'staff', planId, donationId: donation.id, refundId: refund.id, amountCents: refund.amountCents, replayed }, replayed ? 'Refund replayed' : 'Refund made');
          return {
            statusCode: 200,
            body: {
              plan: after,
              refund: {
                refund: { id: refund.id, amountCents: refund.amountCents, gatewayRefundId: refund.gatewayRefundId, createdAt: refund.createdAt.toISOString() },
                donation: { id: donation.id, status: staffStatusOf(donation), amountCents: donation.amountCents, refundedCents: donation.refundedCents },
              },
            },
          };
        },
      });
    },
  );

  /**
   * POST /api/staff/plans/:id/manage-link `{}` (right `plans`): e-mails the plan's donor their manage links
   * (sendManageLinkForStaff: the donor's own message, at most one per address per hour; staff never see a link),
   * audited. 202 `{success, queued}`. 404 no such plan; 409 a cancelled plan.
   */
  app.post(
    STAFF_API.planManageLink,
    {
      preHandler: requireStaff('plans'),
      schema: {
        summary: "Staff: e-mail a plan's donor the link to manage it (the link itself is never shown to staff)",
        params: PlanParamsSchema,
        body: EmptyBodySchema,
        response: { 202: StaffManageLinkAnswerSchema, ...WRITE_ERRORS, ...errorAnswers(404, 409) },
      },
    },
    async (request, reply) => {
      const planId = request.params.id;
      const outcome = UUID_PATTERN.test(planId)
        ? await sendManageLinkForStaff(db, planId, { staffMember: signedInMember(request), requestId: request.id }, clock.now())
        : { kind: 'not_found' as const };
      switch (outcome.kind) {
        case 'not_found':
          return reply.code(404).send(apiError(PLAN_NOT_FOUND_MESSAGE));
        case 'cancelled':
          return reply.code(409).send(apiError(MANAGE_LINK_CANCELLED_MESSAGE));
        case 'sent':
          return reply.code(202).send({ success: true, queued: outcome.queued });
      }
    },
  );
};
