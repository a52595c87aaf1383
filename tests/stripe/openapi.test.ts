import { describe, expect, it } from 'vitest';
import { API_PATHS } from '../../src/shared/api';
import { OPENAPI_DOCUMENT_PATH } from '../../src/server/http/openapi';
import { appDocumentationGaps, operationOf, structuralProblems, type OpenApiDocument } from '../../src/server/testing/openapi-coverage';
import { useStripeModeApp } from './stripe-mode';

/**
 * GET /api/openapi.json (issue #14) in Stripe mode, where the app has one more route (POST /api/webhooks/stripe) and
 * no ADMIN_TOKEN (every operator route answers 404): the same completeness check as in test-gateway mode
 * (src/server/http/openapi.test.ts).
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
    expect(webhook?.security).toEqual([{ stripeSignature: [] }]);
    expect(Object.keys(webhook?.requestBody?.content ?? {})).toEqual(['application/json']);
    expect(Object.keys(webhook?.responses ?? {}).sort()).toEqual(['200', '400', '413', '415', '500']);
  });
});
