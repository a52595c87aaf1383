import { readFile } from 'node:fs/promises';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { API_PATHS, ApiErrorSchema, CSRF_HEADER_NAME } from '../../shared/api';
import { DonationSubmissionSchema } from '../../shared/donation';
import { STAFF_API } from '../../shared/staff/paths';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE } from '../../shared/webhooks';
import { ADMIN_STATEMENTS_RUN_PATH } from '../admin/paths';
import { HEALTH_PATHS } from '../health/health-routes';
import { STAFF_SESSION_COOKIE, STAFF_SESSION_HTTPS_COOKIE } from '../staff/identity/session-cookie';
import { signInStaffForTest } from '../staff/identity/testing/staff-session';
import {
  apiRoutesOf,
  appDocumentationGaps,
  documentationGaps,
  operationOf,
  structuralProblems,
  unresolvedRefs,
  type OpenApiDocument,
} from '../testing/openapi-coverage';
import { createTestApp, type TestApp } from '../testing/test-app';
import { errorAnswers, PAGE_WRITE_ERRORS } from './error-answers';
import { API_ERROR_COMPONENT, OPENAPI_DOCUMENT_PATH, registerOpenApi } from './openapi';
import { OPERATION_IDS, operationKey } from './operation-ids';

/**
 * GET /api/openapi.json (issue #14) on the real app in test-gateway mode, with ADMIN_TOKEN set: the document, and the
 * completeness check that fails when a route or a status is missing from it (tests/stripe/openapi.test.ts: Stripe mode);
 * what integrators' tools read in it (issue #41): operationIds, security, servers, licence, no unused component, 4xx
 * answers. Redocly's CLI lints the same document in CI (`npm run openapi:lint`).
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
    // The licence by its SPDX identifier (OpenAPI 3.1's Licence Object: `identifier`, in place of a `url`).
    expect(pkg.license).toBe('MIT');
    expect(document.info).toEqual({ title: pkg.name, version: pkg.version, description: pkg.description, license: { name: 'MIT', identifier: 'MIT' } });
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
    expect(stats?.security).toEqual([]);
    expect(document.components?.securitySchemes?.adminToken).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('names every operation by its id in operation-ids.ts: present, readable, and used once', async () => {
    const document = (await getDocument()).json<OpenApiDocument>();
    const ids: string[] = [];
    for (const route of apiRoutesOf(t.app)) {
      const operationId = operationOf(document, route)?.operationId;
      expect(operationId, `${route.method} ${route.url}`).toBe(OPERATION_IDS[operationKey(route.method, route.url)]);
      expect(operationId, `${route.method} ${route.url}`).toMatch(/^[a-z]+(?:[A-Z][a-z]+)+$/);
      ids.push(operationId ?? '');
    }
    expect(new Set(ids).size).toBe(ids.length);
    // The table itself names no operation twice (its Stripe-mode entry included).
    expect(new Set(Object.values(OPERATION_IDS)).size).toBe(Object.keys(OPERATION_IDS).length);
    expect(operationOf(document, { method: 'GET', url: STAFF_API.donations })?.operationId).toBe('listStaffDonations');
    expect(operationOf(document, { method: 'POST', url: '/api/admin/donations/:id/refund' })?.operationId).toBe('refundDonation');
  });

  it('asks the staff session cookie of the back office (with the CSRF header on writes), none of the public reads and of sign-in', async () => {
    const document = (await getDocument()).json<OpenApiDocument>();
    const securityOf = (method: string, url: string) => operationOf(document, { method, url })?.security;
    expect(document.components?.securitySchemes?.staffSession).toMatchObject({ type: 'apiKey', in: 'cookie', name: STAFF_SESSION_COOKIE });
    expect(document.components?.securitySchemes?.csrfToken).toMatchObject({ type: 'apiKey', in: 'header', name: CSRF_HEADER_NAME });
    expect(securityOf('GET', STAFF_API.donations)).toEqual([{ staffSession: [] }]);
    expect(securityOf('POST', STAFF_API.donationRefunds)).toEqual([{ staffSession: [], csrfToken: [] }]);
    expect(securityOf('DELETE', STAFF_API.teamMember)).toEqual([{ staffSession: [], csrfToken: [] }]);
    // Sign-in and enrollment come before a session; the passkey's second step and sign-out use one when sent.
    expect(securityOf('POST', STAFF_API.signInOptions)).toEqual([{ csrfToken: [] }]);
    expect(securityOf('POST', STAFF_API.enrollVerify)).toEqual([{ csrfToken: [] }]);
    expect(securityOf('POST', STAFF_API.signOut)).toEqual([{ staffSession: [], csrfToken: [] }, { csrfToken: [] }]);
    expect(securityOf('GET', '/api/receipts/pdf/:token')).toEqual([]);
    expect(securityOf('GET', OPENAPI_DOCUMENT_PATH)).toEqual([]);
    expect(securityOf('POST', '/api/admin/donations/:id/refund')).toEqual([{ adminToken: [] }]);
    // Every operation says what it needs, `[]` when nothing (Redocly's security-defined rule).
    for (const route of apiRoutesOf(t.app)) expect(operationOf(document, route)?.security, `${route.method} ${route.url}`).toBeDefined();
  });

  it("names the cookie the server reads: each staff read that asks the session answers 401 without it and 200 with the documented cookie", async () => {
    const document = (await getDocument()).json<OpenApiDocument>();
    const cookieName = (document.components?.securitySchemes?.staffSession as { name: string }).name;
    const { sessionId } = await signInStaffForTest(t.app, t.db, { role: 'admin' });
    // NOTE: a request is validated before its session is checked, so only the reads that need no parameter say 401.
    const reads = apiRoutesOf(t.app).filter((route) => {
      const operation = operationOf(document, route);
      const needsNoParameter = (operation?.parameters ?? []).every((parameter) => parameter.required !== true);
      return route.method === 'GET' && needsNoParameter && JSON.stringify(operation?.security) === '[{"staffSession":[]}]';
    });
    expect(reads.map((route) => route.url)).toEqual(expect.arrayContaining([STAFF_API.session, STAFF_API.donations, STAFF_API.team]));
    for (const { url } of reads) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
      expect((await t.app.inject({ method: 'GET', url, headers: { cookie: `${cookieName}=${sessionId}` } })).statusCode, url).toBe(200);
    }
  });

  it('documents every outgoing webhook (issue #38): each event type and the test event, signed, with its payload schema', async () => {
    const document = (await getDocument()).json<OpenApiDocument & { webhooks?: Record<string, { post?: { parameters?: Array<{ name: string }>; requestBody?: { content: Record<string, { schema: { properties?: { type?: { const?: string } } } }> } } }> }>();
    expect(Object.keys(document.webhooks ?? {}).sort()).toEqual([...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE].sort());
    for (const [type, item] of Object.entries(document.webhooks ?? {})) {
      expect(item.post?.parameters?.map((parameter) => parameter.name), type).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
      expect(item.post?.requestBody?.content['application/json']?.schema.properties?.type?.const, type).toBe(type);
    }
  });

  it("names PUBLIC_URL's origin as its one server", async () => {
    const document = (await getDocument()).json<OpenApiDocument>();
    expect(document.servers).toEqual([{ url: t.config.site.publicUrl, description: expect.any(String) }]);
    expect(t.config.site.publicUrl).toBe('http://localhost:3000');
  });

  it('keeps only the components some operation uses', async () => {
    const document = (await getDocument()).json<OpenApiDocument>();
    const { components, ...rest } = document;
    const referred = new Set(JSON.stringify(rest).match(/#\/components\/schemas\/[A-Za-z0-9._-]+/g) ?? []);
    expect(Object.keys(components?.schemas ?? {}).map((name) => `#/components/schemas/${name}`).sort()).toEqual([...referred].sort());
    expect(unresolvedRefs(document)).toEqual([]);
    // fastify-type-provider-zod's input twins of the error shapes are not used by any route.
    expect(components?.schemas).not.toHaveProperty('ApiErrorInput');
    // No webhook in test-gateway mode, so no Stripe signature scheme; the outgoing webhooks' signature (issue #38) is always there.
    expect(Object.keys(components?.securitySchemes ?? {}).sort()).toEqual(['adminToken', 'csrfToken', 'staffSession', 'standardWebhooksSignature']);
  });

  it('declares 4xx answers on every operation that takes input or credentials: 400, 401/403 where it needs them, 404 where its path names a record', async () => {
    const document = (await getDocument()).json<OpenApiDocument>();
    const without4xx: string[] = [];
    for (const route of apiRoutesOf(t.app)) {
      const operation = operationOf(document, route);
      if (!Object.keys(operation?.responses ?? {}).some((status) => status.startsWith('4'))) without4xx.push(`${route.method} ${route.url}`);
    }
    // The two that take nothing and need nothing (.redocly.lint-ignore.yaml says so to the linter).
    expect(without4xx.sort()).toEqual([`GET ${API_PATHS.donationStats}`, `GET ${OPENAPI_DOCUMENT_PATH}`]);
    const statusesOf = (method: string, url: string) => Object.keys(operationOf(document, { method, url })?.responses ?? {});
    expect(statusesOf('GET', STAFF_API.donation)).toEqual(expect.arrayContaining(['400', '401', '403', '404']));
    expect(statusesOf('GET', STAFF_API.audit)).toEqual(expect.arrayContaining(['401', '403']));
    expect(statusesOf('POST', '/api/admin/donations/:id/refund')).toEqual(expect.arrayContaining(['400', '401', '404']));
  });
});

describe('GET /api/openapi.json of a deployment over HTTPS', () => {
  let https: TestApp;
  beforeAll(async () => {
    https = await createTestApp({ env: { PUBLIC_URL: 'https://give.example.org/' } });
  });
  afterAll(async () => {
    await https?.close();
  });

  it('names its origin as the server and the `__Host-` session cookie', async () => {
    const document = (await https.app.inject({ method: 'GET', url: OPENAPI_DOCUMENT_PATH })).json<OpenApiDocument>();
    expect(document.servers?.map((server) => server.url)).toEqual(['https://give.example.org']);
    expect(document.components?.securitySchemes?.staffSession).toMatchObject({ in: 'cookie', name: STAFF_SESSION_HTTPS_COOKIE });
    expect(https.app.staffSessionCookieName).toBe(STAFF_SESSION_HTTPS_COOKIE);
  });
});

describe('the completeness check', () => {
  it('fails for a route registered before the document, one hidden from it, one without schemas, one without the statuses of a page write and routes without an operationId', async () => {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    const ok = z.object({ ok: z.literal(true) });
    const answerOk = async () => ({ ok: true as const });
    app.get('/api/before', { schema: { response: { 200: ok, ...errorAnswers(500) } } }, answerOk);
    await registerOpenApi(app, { publicUrl: 'http://localhost:3000', staffSessionCookie: STAFF_SESSION_COOKIE });
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
          'GET /api/no-schema: no operationId (src/server/http/operation-ids.ts)',
          'GET /api/no-schema: response 200 has no schema',
          'GET /api/no-schema: no response for status 500',
          'POST /api/partial: no operationId (src/server/http/operation-ids.ts)',
          'POST /api/complete: no operationId (src/server/http/operation-ids.ts)',
          'POST /api/partial: no response for status 403',
          'POST /api/partial: no response for status 413',
          'POST /api/partial: no response for status 415',
          'POST /api/partial: no response for status 429',
        ].sort(),
      );
      // A status the route was seen answering but does not declare is a gap too.
      const seen = (route: { url: string }) => (route.url === '/api/complete' ? [418] : []);
      expect(documentationGaps(document, apiRoutesOf(app), seen)).toContain('POST /api/complete: no response for status 418');
      // Two operations of one id are a gap too.
      const sameIds = structuredClone(document);
      for (const url of ['/api/partial', '/api/complete']) Object.assign(sameIds.paths[url]?.post ?? {}, { operationId: 'sendThing' });
      expect(documentationGaps(sameIds, apiRoutesOf(app))).toContain('operationId sendThing is used by 2 operations: POST /api/partial, POST /api/complete');
      expect(structuralProblems(document)).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
