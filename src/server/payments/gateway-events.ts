/**
 * What a gateway's webhook tells the ledger (issue #11), in the gateway's neutral terms; the Stripe webhook
 * route turns Stripe's events into these (stripe/webhook-route.ts) and hands them to what its caller gives it
 * (app.ts: donations/payment-events.ts's applyPaymentEvent), so payments/ never imports the ledger's users. Amounts in cents.
 */
export type PaymentEvent =
  | { kind: 'payment_succeeded'; paymentIntentId: string }
  | { kind: 'payment_failed'; paymentIntentId: string; declineCode: string; message: string }
  | { kind: 'payment_processing'; paymentIntentId: string }
  | { kind: 'payment_canceled'; paymentIntentId: string }
  | { kind: 'charge_refunded'; paymentIntentId: string; transactionId: string; fullyRefunded: boolean; amountRefundedCents: number }
  | { kind: 'refund_created'; paymentIntentId: string; gatewayRefundId: string; amountCents: number; refundStatus: string; operatorKey?: string }
  | { kind: 'dispute_opened'; paymentIntentId: string; transactionId: string; disputeStatus: string }
  | { kind: 'dispute_closed'; paymentIntentId: string; disputeStatus: string }
  | { kind: 'ignored' };

/** The event's identity: the gateway's event id and type, and the gateway's name. */
export interface PaymentEventSource {
  eventId: string;
  type: string;
  gateway: string;
}
