import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { z } from 'zod';
import { API_PATHS } from '../../../shared/api';
import { apiError } from '../../http/errors';
import { errorAnswers, MACHINE_WRITE_ERRORS } from '../../http/error-answers';
import { REFUND_OPERATOR_KEY_METADATA } from '../gateway';
import type { PaymentEvent, PaymentEventSource } from '../gateway-events';

/**
 * `POST /api/webhooks/stripe` (issue #11): Stripe's events, verified on the raw body with the endpoint's
 * signing secret (https://docs.stripe.com/webhooks#verify-events), then applied to the ledger once each
 * (the caller's `applyEvent`: donations/payment-events.ts's applyPaymentEvent). The webhook, not the browser, is what marks a payment succeeded when the browser never
 * comes back. Exempt from the browser CSRF check and the per-IP limits (isMachineRoute), not from a body limit.
 */

/** 400 of a webhook whose signature is missing or wrong: nothing is written. */
export const INVALID_SIGNATURE_MESSAGE = 'The webhook signature is missing or invalid.';

/** Largest webhook body accepted, in bytes: Stripe's events are a few kB; 64 KiB leaves room and still bounds it. */
export const WEBHOOK_BODY_LIMIT_BYTES = 64 * 1024;

/**
 * The body's schema, for the OpenAPI document (issue #14): any JSON, as the body stays raw bytes until its signature
 * is verified; checking it earlier would answer a forged body before its signature does.
 */
const StripeEventBodySchema = z.unknown().meta({ description: 'A Stripe Event object (https://docs.stripe.com/api/events/object), as Stripe sent it.' });

/**
 * The events handled (issue #11; `refund.created`, a refund made in Stripe's Dashboard too, since issue #14); every
 * other type is acknowledged and ignored.
 */
export const HANDLED_STRIPE_EVENTS = [
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.processing',
  'payment_intent.canceled',
  'charge.refunded',
  'refund.created',
  'charge.dispute.created',
  'charge.dispute.closed',
] as const;

/** An expandable Stripe field's id (`'pi_...'` or `{id: 'pi_...'}`), or undefined when absent. */
const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : value?.id);

/** Stripe's event in the ledger's neutral terms (payment-events.ts); events without a payment intent are ignored. */
export function toPaymentEvent(event: Stripe.Event): PaymentEvent {
  switch (event.type) {
    case 'payment_intent.succeeded':
      return { kind: 'payment_succeeded', paymentIntentId: event.data.object.id };
    case 'payment_intent.payment_failed': {
      const error = event.data.object.last_payment_error;
      return {
        kind: 'payment_failed',
        paymentIntentId: event.data.object.id,
        declineCode: error?.decline_code ?? error?.code ?? 'card_declined',
        message: error?.message ?? 'Your card was declined.',
      };
    }
    case 'payment_intent.processing':
      return { kind: 'payment_processing', paymentIntentId: event.data.object.id };
    case 'payment_intent.canceled':
      return { kind: 'payment_canceled', paymentIntentId: event.data.object.id };
    case 'charge.refunded': {
      const charge = event.data.object;
      const paymentIntentId = idOf(charge.payment_intent);
      if (!paymentIntentId) return { kind: 'ignored' };
      return { kind: 'charge_refunded', paymentIntentId, transactionId: charge.id, fullyRefunded: charge.refunded, amountRefundedCents: charge.amount_refunded };
    }
    case 'refund.created': {
      const refund = event.data.object;
      const paymentIntentId = idOf(refund.payment_intent);
      if (!paymentIntentId) return { kind: 'ignored' };
      return {
        kind: 'refund_created',
        paymentIntentId,
        gatewayRefundId: refund.id,
        amountCents: refund.amount,
        refundStatus: refund.status ?? 'pending',
        operatorKey: refund.metadata?.[REFUND_OPERATOR_KEY_METADATA],
      };
    }
    case 'charge.dispute.created':
    case 'charge.dispute.closed': {
      const dispute = event.data.object;
      const paymentIntentId = idOf(dispute.payment_intent);
      if (!paymentIntentId) return { kind: 'ignored' };
      return event.type === 'charge.dispute.created'
        ? { kind: 'dispute_opened', paymentIntentId, transactionId: idOf(dispute.charge) ?? '', disputeStatus: dispute.status }
        : { kind: 'dispute_closed', paymentIntentId, disputeStatus: dispute.status };
    }
    default:
      return { kind: 'ignored' };
  }
}

/**
 * Applies a verified event to the ledger, once per event id (donations/payment-events.ts's applyPaymentEvent, composed
 * by app.ts), with the request's logger; rejects when the database or the gateway fails (the route then answers 500).
 */
export type ApplyPaymentEvent = (source: PaymentEventSource, event: PaymentEvent, log: FastifyBaseLogger) => Promise<unknown>;

/** What {@link registerStripeWebhook} needs. */
export interface StripeWebhookOptions {
  /** What a verified event is handed to. */
  applyEvent: ApplyPaymentEvent;
  /** The SDK client whose `webhooks.constructEvent` verifies signatures. */
  stripe: Stripe;
  /** STRIPE_WEBHOOK_SECRET (`whsec_...`). */
  webhookSecret: string;
}

/**
 * Registers `POST /api/webhooks/stripe` in its own context, where JSON bodies stay raw bytes (the signature is
 * over the exact bytes Stripe sent; Fastify's JSON parser must not touch them). Answers 200 `{received: true}`
 * once the event is applied (or was already); 400 INVALID_SIGNATURE_MESSAGE for a missing, wrong, tampered or
 * too old signature (Stripe's 5-minute tolerance), writing nothing; 413 over WEBHOOK_BODY_LIMIT_BYTES; 415 a body
 * that is not application/json; 500 when the database or Stripe fails (Stripe delivers the event again later).
 */
export async function registerStripeWebhook(app: FastifyInstance, options: StripeWebhookOptions): Promise<void> {
  await app.register(async (webhook) => {
    webhook.removeContentTypeParser('application/json');
    webhook.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT_BYTES }, (_request, body, done) => {
      done(null, body);
    });
    webhook.post(
      API_PATHS.stripeWebhook,
      {
        bodyLimit: WEBHOOK_BODY_LIMIT_BYTES,
        schema: {
          summary: "Stripe's signed events (Stripe mode)",
          body: StripeEventBodySchema,
          response: { 200: z.object({ received: z.literal(true) }), ...errorAnswers(...MACHINE_WRITE_ERRORS) },
        },
      },
      async (request, reply) => {
        const signature = request.headers['stripe-signature'];
        let event: Stripe.Event;
        try {
          if (typeof signature !== 'string' || !Buffer.isBuffer(request.body)) throw new Error('No signature or no body');
          event = options.stripe.webhooks.constructEvent(request.body, signature, options.webhookSecret);
        } catch (error) {
          request.log.warn({ reason: (error as Error).message }, 'Stripe webhook refused: bad signature');
          return reply.code(400).send(apiError(INVALID_SIGNATURE_MESSAGE));
        }
        await options.applyEvent({ eventId: event.id, type: event.type, gateway: 'stripe' }, toPaymentEvent(event), request.log);
        return reply.code(200).send({ received: true });
      },
    );
  });
}
