import { readFile } from 'node:fs/promises';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { API_PATHS, ApiErrorSchema } from '../../shared/api';
import { DonationSubmissionSchema } from '../../shared/donation';
import { ADMIN_STATEMENTS_RUN_PATH } from '../admin/paths';
import { HEALTH_PATHS } from '../health/health-routes';
import {
  apiRoutesOf,
  appDocumentationGaps,
  documentationGaps,
  operationOf,
  structuralProblems,
  type OpenApiDocument,
} from '../testing/openapi-coverage';
import { createTestApp, type TestApp } from '../testing/test-app';
import { errorAnswers, PAGE_WRITE_ERRORS } from './error-answers';
import { API_ERROR_COMPONENT, OPENAPI_DOCUMENT_PATH, registerOpenApi } from './openapi';

/**
 * GET /api/openapi.json (issue #14) on the real app in test-gateway mode, with ADMIN_TOKEN set: the document, and the
 * completeness check that fails when a route or a status is missing from it (tests/stripe/openapi.test.ts: Stripe mode).
 */

const ADMIN_TOKEN = 'openapi-test-admin-token-0123456789abcdef';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_TOKEN } });
});
afterAll(async () => {
  await t?.close();
});

/** GET /api/openapi.json without any cookie or token, as any client would. */
const getDocument = () => t.app.inject({ method: 'GET', url: OPENAPI_DOCUMENT_PATH });

describe('GET /api/openapi.json', () => {
  it('answers a well-formed OpenAPI 3.1 document as JSON, never cached, with the info of package.json', async () => {
    const response = await getDocument();
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['cache-control']).toBe('no-store');
    const document = response.json<OpenApiDocument>();
    expect(document.openapi).toBe('3.1.0');
    const pkg = JSON.parse(await readFile(new URL('../../../package.json', import.meta.url), 'utf8')) as Record<string, string>;
    expect(document.info).toEqual({ title: pkg.name, version: pkg.version, description: pkg.description });
    expect(structuralProblems(document)).toEqual([]);
  });

  it('lists every /api route of the app with its methods, a request body for each write and a response schema for every status it answers', async () => {
    const document = (await getDocument()).json<OpenApiDocument>();
    const routes = apiRoutesOf(t.app);
    // The router's listing is read independently of the document: it must find the routes known to exist.
    expect(routes).toEqual(
      expect.arrayContaining([
        { method: 'POST', url: API_PATHS.processDonation },
        { method: 'GET', url: API_PATHS.donationStats },
        { method: 'GET', url: '/api/recurring/manage/:token' },
        { method: 'POST', url: '/api/recurring/manage/:token/card-setup' },
        { method: 'POST', url: ADMIN_STATEMENTS_RUN_PATH },
        { method: 'GET', url: OPENAPI_DOCUMENT_PATH },
      ]),
    );
    expect(await appDocumentationGaps(t, document)).toEqual([]);
    // Left out (the gaps above name any documented operation that is no /api route): the health checks, and the
    // Stripe webhook, which the app has in Stripe mode only.
    expect(document.paths[HEALTH_PATHS.ready]).toBeUndefined();
    expect(document.paths[API_PATHS.stripeWebhook]).toBeUndefined();
  });

  it('is generated from the zod schemas the routes validate with: bodies, parameters, and one ApiError component for every failure', async () => {
    const document = (await getDocument()).json<OpenApiDocument>();
    const processDonation = operationOf(document, { method: 'POST', url: API_PATHS.processDonation });
    const body = processDonation?.requestBody?.content?.['application/json']?.schema as { properties: object; additionalProperties: boolean };
    expect(Object.keys(body.properties).sort()).toEqual(Object.keys(DonationSubmissionSchema.shape).sort());
    expect(body.additionalProperties).toBe(false);
    expect(processDonation?.responses?.['402']?.content?.['application/json']?.schema).toEqual({ $ref: `#/components/schemas/${API_ERROR_COMPONENT}` });
    const apiError = document.components?.schemas?.[API_ERROR_COMPONENT] as { properties: object; required: string[] };
    expect(Object.keys(apiError.properties).sort()).toEqual(Object.keys(ApiErrorSchema.shape).sort());
    expect(apiError.required.sort()).toEqual(['error', 'success']);

    const managePlan = operationOf(document, { method: 'GET', url: '/api/recurring/manage/:token' });
    expect(managePlan?.parameters).toEqual([{ in: 'path', name: 'token', required: true, schema: { type: 'string', maxLength: 400 } }]);
    const receiptPdf = operationOf(document, { method: 'GET', url: '/api/receipts/pdf/:token' });
    expect(Object.keys(receiptPdf?.responses?.['200']?.content ?? {})).toEqual(['application/pdf']);
  });

  it("tags each route and names its credentials: the bearer token of operator routes, the page's CSRF token of its writes", async () => {
    const document = (await getDocument()).json<OpenApiDocument>();
    const statements = operationOf(document, { method: 'POST', url: ADMIN_STATEMENTS_RUN_PATH });
    expect(statements?.tags).toEqual(['admin']);
    expect(statements?.security).toEqual([{ adminToken: [] }]);
    const donation = operationOf(document, { method: 'POST', url: API_PATHS.processDonation });
    expect(donation?.tags).toEqual(['donations']);
    expect(donation?.security).toEqual([{ csrfToken: [] }]);
    const stats = operationOf(document, { method: 'GET', url: API_PATHS.donationStats });
    expect(stats?.security).toBeUndefined();
    expect(document.components?.securitySchemes?.adminToken).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});

describe('the completeness check', () => {
  it('fails for a route registered before the document, one hidden from it, one without schemas and one without the statuses of a page write', async () => {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    const ok = z.object({ ok: z.literal(true) });
    const answerOk = async () => ({ ok: true as const });
    app.get('/api/before', { schema: { response: { 200: ok, ...errorAnswers(500) } } }, answerOk);
    await registerOpenApi(app);
    app.get('/api/hidden', { schema: { hide: true, response: { 200: ok, ...errorAnswers(500) } } }, answerOk);
    app.get('/api/no-schema', answerOk);
    app.post('/api/partial', { schema: { body: z.object({}), response: { 200: ok, 400: ApiErrorSchema, 500: ApiErrorSchema } } }, answerOk);
    app.post('/api/complete', { schema: { body: z.object({}), response: { 200: ok, ...errorAnswers(...PAGE_WRITE_ERRORS) } } }, answerOk);
    app.get('/elsewhere', answerOk);
    try {
      await app.ready();
      const document = app.swagger() as unknown as OpenApiDocument;
      expect(documentationGaps(document, apiRoutesOf(app)).sort()).toEqual(
        [
          'GET /api/before: missing from the document',
          'GET /api/hidden: missing from the document',
          'GET /api/no-schema: response 200 has no schema',
          'GET /api/no-schema: no response for status 500',
          'POST /api/partial: no response for status 403',
          'POST /api/partial: no response for status 413',
          'POST /api/partial: no response for status 415',
          'POST /api/partial: no response for status 429',
        ].sort(),
      );
      // A status the route was seen answering but does not declare is a gap too.
      const seen = (route: { url: string }) => (route.url === '/api/complete' ? [418] : []);
      expect(documentationGaps(document, apiRoutesOf(app), seen)).toContain('POST /api/complete: no response for status 418');
      expect(structuralProblems(document)).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
