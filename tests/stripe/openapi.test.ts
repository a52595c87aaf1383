import { describe, expect, it } from 'vitest';
import { API_PATHS } from '../../src/shared/api';
import { OPENAPI_DOCUMENT_PATH } from '../../src/server/http/openapi';
import { OPERATION_IDS, operationKey } from '../../src/server/http/operation-ids';
import { apiRoutesOf, appDocumentationGaps, operationOf, structuralProblems, type OpenApiDocument } from '../../src/server/testing/openapi-coverage';
import { useStripeModeApp } from './stripe-mode';

/**
 * GET /api/openapi.json (issue #14) in Stripe mode, where the app has one more route (POST /api/webhooks/stripe) and
 * no ADMIN_TOKEN (every operator route answers 404): the same completeness check as in test-gateway mode
 * (src/server/http/openapi.test.ts), and, as this app has every route, that the operationId table names no route the
 * app lacks (issue #41).
 */

const app = useStripeModeApp({ webhookSecret: 'whsec_openapi_test_secret' });

describe('GET /api/openapi.json in Stripe mode', () => {
  it('documents every /api route, the Stripe webhook included, with a response schema for every status it answers', async () => {
    const response = await app.t.app.inject({ method: 'GET', url: OPENAPI_DOCUMENT_PATH });
    expect(response.statusCode).toBe(200);
    const document = response.json<OpenApiDocument>();
    expect(structuralProblems(document)).toEqual([]);
    expect(await appDocumentationGaps(app.t, document)).toEqual([]);

    const webhook = operationOf(document, { method: 'POST', url: API_PATHS.stripeWebhook });
    expect(webhook?.tags).toEqual(['webhooks']);
    expect(webhook?.operationId).toBe('receiveStripeEvent');
    expect(webhook?.security).toEqual([{ stripeSignature: [] }]);
    expect(document.components?.securitySchemes?.stripeSignature).toMatchObject({ type: 'apiKey', in: 'header', name: 'Stripe-Signature' });
    expect(Object.keys(webhook?.requestBody?.content ?? {})).toEqual(['application/json']);
    expect(Object.keys(webhook?.responses ?? {}).sort()).toEqual(['200', '400', '413', '415', '500']);
  });

  it('has a route for every entry of the operationId table, so the table keeps no id of a route that is gone', () => {
    const routes = new Set(apiRoutesOf(app.t.app).map((route) => operationKey(route.method, route.url)));
    expect(Object.keys(OPERATION_IDS).filter((key) => !routes.has(key))).toEqual([]);
  });
});
