import { z } from 'zod';
import { atMost, present, textField } from '../field-rules';
import { WEBHOOK_EVENT_TYPES } from '../webhooks';

/**
 * The staff integrations API (issue #38, "/staff/integrations"; decision 0106): an admin's outgoing webhook endpoints,
 * each with its events, donor contact yes/no, status, secret (shown once, at creation and rotation) and delivery log.
 * Shared by the server (validation, OpenAPI) and the staff page.
 */

/** Longest endpoint URL, in characters. */
export const MAX_ENDPOINT_URL_LENGTH = 2000;
/** Longest endpoint description, in characters. */
export const MAX_ENDPOINT_DESCRIPTION_LENGTH = 200;

/** The body of `POST /api/staff/integrations`: the URL, what it is, the events it wants (at least one), donor contact or not. */
export const StaffEndpointInputSchema = z.strictObject({
  url: textField([
    [present, 'Enter the address that receives the webhooks'],
    [atMost(MAX_ENDPOINT_URL_LENGTH), `Use at most ${MAX_ENDPOINT_URL_LENGTH} characters`],
  ]),
  description: textField([[atMost(MAX_ENDPOINT_DESCRIPTION_LENGTH), `Use at most ${MAX_ENDPOINT_DESCRIPTION_LENGTH} characters`]]).default(''),
  events: z
    .array(z.enum(WEBHOOK_EVENT_TYPES, { error: `Choose events among ${WEBHOOK_EVENT_TYPES.join(', ')}` }), { error: 'Choose at least one event' })
    .min(1, { error: 'Choose at least one event' })
    .max(WEBHOOK_EVENT_TYPES.length, { error: 'Choose each event once' })
    .refine((events) => new Set(events).size === events.length, { error: 'Choose each event once' }),
  includeContact: z.boolean({ error: 'Say whether the endpoint gets donor contact' }),
});
/** A parsed {@link StaffEndpointInputSchema}. */
export type StaffEndpointInput = z.infer<typeof StaffEndpointInputSchema>;

/** Path parameters of an endpoint's routes. */
export const StaffEndpointParamsSchema = z.strictObject({ id: z.uuid({ error: 'Not an endpoint id' }) });
/** Path parameters of a delivery's resend. */
export const StaffDeliveryParamsSchema = z.strictObject({ id: z.uuid({ error: 'Not an endpoint id' }), deliveryId: z.uuid({ error: 'Not a delivery id' }) });

/** An endpoint as the page lists it: never its secret. */
export const StaffEndpointSchema = z.object({
  id: z.uuid(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.string()),
  includeContact: z.boolean(),
  status: z.enum(['active', 'paused']),
  /** `staff` or `failing` when paused. */
  pausedReason: z.string().nullable(),
  /** Until when the secret before the last rotation still signs (ISO 8601), or null. */
  previousSecretExpiresAt: z.iso.datetime().nullable(),
  failingSince: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
/** See {@link StaffEndpointSchema}. */
export type StaffEndpoint = z.infer<typeof StaffEndpointSchema>;

/** `GET /api/staff/integrations`: every endpoint, oldest first. */
export const StaffEndpointListSchema = z.object({ endpoints: z.array(StaffEndpointSchema) });

/** An endpoint with its new secret: the answer of a creation and of a rotation (the only time the secret is shown). */
export const StaffEndpointWithSecretSchema = z.object({ endpoint: StaffEndpointSchema, secret: z.string() });

/** The answer of a test event: the message id (`webhook-id`) it was sent under. */
export const StaffTestEventSchema = z.object({ messageId: z.string() });

/** One try in an endpoint's delivery log (kept 30 days). */
export const StaffDeliveryAttemptSchema = z.object({
  id: z.uuid(),
  deliveryId: z.uuid(),
  messageId: z.string(),
  eventType: z.string(),
  attemptedAt: z.iso.datetime(),
  /** The receiver's HTTP status, or null when no answer came (`error` says why). */
  statusCode: z.number().int().nullable(),
  latencyMs: z.number().int(),
  responseStart: z.string(),
  error: z.string().nullable(),
  /** The delivery's state now: pending (waiting or retrying), delivered, failed, cancelled. */
  deliveryStatus: z.string(),
});
/** See {@link StaffDeliveryAttemptSchema}. */
export type StaffDeliveryAttempt = z.infer<typeof StaffDeliveryAttemptSchema>;

/** `GET /api/staff/integrations/:id/deliveries`: the last 100 tries, newest first, and deliveries not tried yet. */
export const StaffDeliveryLogSchema = z.object({
  attempts: z.array(StaffDeliveryAttemptSchema),
  /** Deliveries written whose first try is not recorded yet (due, or being tried now). */
  waiting: z.number().int(),
});

/** The answer of a resend: the delivery is due again, under its same message id. */
export const StaffResendSchema = z.object({ deliveryId: z.uuid(), messageId: z.string() });
