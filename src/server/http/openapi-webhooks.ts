import { z } from 'zod';
import {
  WEBHOOK_DATA_SCHEMAS,
  WEBHOOK_EVENT_DESCRIPTIONS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_PAYLOAD_VERSION,
  WEBHOOK_TEST_EVENT_TYPE,
  webhookPayloadSchema,
} from '../../shared/webhooks';

/**
 * The OpenAPI 3.1 `webhooks` of the document (issue #38: "documented in the OpenAPI document"; OpenAPI 3.1.0 section
 * 4.8.1, "webhooks"): one entry per event type, a POST the charity's endpoint receives, with the Standard Webhooks
 * headers and the payload's JSON Schema (from the same zod schemas the tests parse received payloads with).
 */

/** The Standard Webhooks headers every delivery carries. */
const HEADERS = [
  { name: 'webhook-id', description: 'The message id (`msg_...`): the same on every retry and resend of one event; use it to drop duplicates.' },
  { name: 'webhook-timestamp', description: 'Seconds since the Unix epoch when this try was signed; refuse one far from your clock (replay).' },
  {
    name: 'webhook-signature',
    description:
      'Space-separated `v1,<base64>` HMAC-SHA256 signatures of `webhook-id.webhook-timestamp.body` with the endpoint secret (`whsec_...`); two during the 24 hours after a rotation. Verify with any Standard Webhooks library.',
  },
].map(({ name, description }) => ({ name, in: 'header', required: true, description, schema: { type: 'string' } }));

/** The JSON Schema of `schema`, without its `$schema` keyword (the document's dialect applies). */
function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

/** One webhook's Path Item: a POST with the headers and the payload, answered 2xx to acknowledge it. */
function pathItem(type: string, description: string, data: z.ZodType) {
  const operationId = `webhook${type.replace(/(^|[._])(\w)/g, (_match, _sep: string, letter: string) => letter.toUpperCase())}`;
  return {
    post: {
      summary: `Event ${type}`,
      description: `${description} Payload version ${WEBHOOK_PAYLOAD_VERSION}. Answer any 2xx within 10 seconds to acknowledge it; timeouts, 5xx and 429 are retried with backoff for three days, other answers are not.`,
      operationId,
      tags: ['outgoing-webhooks'],
      security: [{ [WEBHOOK_SIGNATURE_SCHEME]: [] }],
      parameters: HEADERS,
      requestBody: { required: true, content: { 'application/json': { schema: jsonSchemaOf(webhookPayloadSchema(type, data)) } } },
      responses: { '200': { description: 'Received (any 2xx acknowledges the message).' } },
    },
  };
}

/** The document's `webhooks`: every event type of WEBHOOK_EVENT_TYPES, and the staff page's test event. */
export function openApiWebhooks(): Record<string, ReturnType<typeof pathItem>> {
  const entries = WEBHOOK_EVENT_TYPES.map((type) => [type, pathItem(type, WEBHOOK_EVENT_DESCRIPTIONS[type], WEBHOOK_DATA_SCHEMAS[type])] as const);
  const test = pathItem(WEBHOOK_TEST_EVENT_TYPE, 'A test event an admin sent from /staff/integrations.', z.object({ endpointId: z.uuid(), message: z.string() }));
  return Object.fromEntries([...entries, [WEBHOOK_TEST_EVENT_TYPE, test]]);
}

/** Name of the security scheme of the webhooks: the receiver checks `webhook-signature` with the endpoint's secret. */
export const WEBHOOK_SIGNATURE_SCHEME = 'standardWebhooksSignature';

/** The security scheme the webhooks name (OpenAPI `components.securitySchemes`). */
export const WEBHOOK_SIGNATURE_SECURITY_SCHEME = {
  type: 'apiKey',
  in: 'header',
  name: 'webhook-signature',
  description: 'Standard Webhooks signature made with the endpoint secret (`whsec_...`) shown once when the endpoint is added or its secret rotated.',
};

/** The tag of the webhooks (OpenAPI `tags`). */
export const OUTGOING_WEBHOOKS_TAG = {
  name: 'outgoing-webhooks',
  description: 'Signed events this site POSTs to the endpoints admins add at /staff/integrations (Standard Webhooks; issue #38).',
};
