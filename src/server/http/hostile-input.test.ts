import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, ApiErrorSchema, CSRF_HEADER_NAME, IDEMPOTENCY_KEY_HEADER } from '../../shared/api';
import { donations, mailOutbox, recurringPlans, staffCredentials } from '../db/schema';
import type { PaymentGateway } from '../payments/gateway';
import { createTestGateway } from '../payments/test-gateway';
import { createLogger } from '../platform/logger';
import { createManageLinkSigner } from '../recurring/manage-link';
import { signInStaffForTest, type StaffTestSession } from '../staff/identity/testing/staff-session';
import { insertMember } from '../staff/identity/member-store';
import { apiRoutesOf, isAdminRoute, isWrite, operationOf, type AppRoute, type OpenApiDocument } from '../testing/openapi-coverage';
import { createTestApp, validSubmission, type CsrfCredentials, type TestApp } from '../testing/test-app';
import { OPENAPI_DOCUMENT_PATH } from './openapi';

/**
 * Hostile input on every route (issues #32 and #40): the routes come from the app's OpenAPI document, so a new route
 * is covered without editing this test. Each body field, query parameter and path parameter the document names gets,
 * one at a time (the others valid, path parameters naming rows that exist), NUL and other C0 controls, DEL, C1
 * controls, lone surrogates, bidirectional controls, 10,000 characters and wrong types; query and path values also
 * invalid UTF-8 (`%ED%A0%80`, `%FF`) and traversal-looking values (`..%2F`). Public routes as a visitor (CSRF
 * credentials), staff routes as a signed-in admin (session and CSRF token), operator routes with the bearer token.
 * Every answer is a refusal (400, or 401/403/404/409/413/414/415 where one comes first) in the API's error shape,
 * never a 5xx; no row is written in any table (but the operator audit log, which records every operator request by
 * design, decision 0059), the gateway is never called and nothing is logged at error level. Runs are bounded per route (fast-check `numRuns`), with
 * every fixed hostile value tried as an example.
 */

const ADMIN_TOKEN = 'hostile-input-test-admin-token-0123456789abcdef';

/** Runs per route beyond the fixed examples, drawn at random (bounded: the whole test stays within seconds). */
const RANDOM_RUNS_PER_ROUTE = 5;

/** The statuses a hostile request may get: a refusal, never a success or a server error. */
const REFUSALS = new Set([400, 401, 403, 404, 409, 413, 414, 415]);

/** Characters no text may hold (shared/field-rules.ts), each inside text as a client would send it in JSON. */
const HOSTILE_TEXTS = [
  'a\u0000b',
  '\u0000',
  'x\u0001',
  '\u001b[2J',
  'a\u007f',
  'a\u0085b',
  '\u009f',
  'a\ud800',
  '\udfffz',
  'Rtl \u202egnp.exe',
  '\u202aab',
  '\u2066ab\u2069',
  'x'.repeat(10_000),
];

/** JSON values of the wrong type for any field (a string, a number, a boolean, an object all refused somewhere). */
const WRONG_TYPES: unknown[] = [-1, 1.234, true, null, [], {}, ['a\u0000'], { '\u0000': 1 }, '1'];

/** Query and path values, as they travel percent-encoded: the same characters, invalid UTF-8, traversal. */
const HOSTILE_ADDRESS_VALUES = [
  'a%00b',
  '%00',
  '%01',
  '%1B%5B2J',
  '%7F',
  '%C2%85',
  '%E2%80%AE',
  'Rtl%20%E2%80%AEgnp.exe',
  '%E2%81%A6',
  '%ED%A0%80',
  '%FF',
  'a%C0%AF',
  '..%2F..%2Fetc%2Fpasswd',
  '..%2F',
  '%2E%2E%2F%2E%2E%2F',
  '..',
  'x'.repeat(10_000),
  'x'.repeat(101),
];

/**
 * Of {@link HOSTILE_ADDRESS_VALUES}, those a query value may hold as text: invalid UTF-8 is kept as the characters it
 * was sent as (`%FF`, Fastify's query parser), a traversal-looking value is text (a search for `../`), and so is a
 * value of 101 characters (over a path parameter's limit, within a search's); only a path parameter names a row. In a query they must still get no 5xx, no write and no gateway call, not a refusal.
 */
const TEXT_IN_A_QUERY = new Set(['%ED%A0%80', '%FF', 'a%C0%AF', '..%2F..%2Fetc%2Fpasswd', '..%2F', '%2E%2E%2F%2E%2E%2F', '..', 'x'.repeat(101)]);

/** A character no text may hold, for the generated values. */
const refusedCharacter = fc.oneof(
  fc.integer({ min: 0, max: 0x08 }),
  fc.integer({ min: 0x0b, max: 0x1f }).filter((code) => code !== 0x0d),
  fc.integer({ min: 0x7f, max: 0x9f }),
  fc.integer({ min: 0x202a, max: 0x202e }),
  fc.integer({ min: 0x2066, max: 0x2069 }),
  fc.integer({ min: 0xd800, max: 0xdfff }),
).map((code) => String.fromCharCode(code));

/**
 * Text with a refused character inside it, between two letters (a lone surrogate stays lone: the text around it is
 * ASCII). NOTE: inside, because a vertical tab or form feed at an edge is white space that every text field trims
 * away before the rule reads it (decision 0096), so `\u000b` alone is an empty search, rightly answered 200.
 */
const hostileText = fc
  .tuple(fc.string({ unit: 'grapheme-ascii', maxLength: 8 }), refusedCharacter, fc.string({ unit: 'grapheme-ascii', maxLength: 8 }))
  .map(([before, character, after]) => `${before}a${character}b${after}`);

/** Each UTF-16 code unit of `text` percent-encoded as UTF-8 (a lone surrogate as the bytes a careless client sends). */
const percentEncoded = (text: string) =>
  [...text]
    .map((character) => {
      const code = character.codePointAt(0) ?? 0;
      const bytes = code >= 0xd800 && code <= 0xdfff ? [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)] : [...Buffer.from(character)];
      return bytes.map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
    })
    .join('');

/** A gateway that forwards to the real test gateway and counts every call of any of its methods. */
function everyCallCounted(inner: PaymentGateway): { gateway: PaymentGateway; calls: () => number } {
  let calls = 0;
  const gateway = new Proxy(inner, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls += 1;
        return (value as (...parameters: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { gateway, calls: () => calls };
}

/** A hostile value as a JSON body field carries it (`json`) and as a query or path value (`address`, percent-encoded). */
interface HostileValue {
  json: unknown;
  address: string;
  /** True when `address` is text in a query all the same (a lone surrogate's bytes: invalid UTF-8, see {@link TEXT_IN_A_QUERY}). */
  textInAQuery?: boolean;
}

/** A JSON Schema as the document holds it (the parts read here). */
interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  default?: unknown;
}

let t: TestApp;
let document: OpenApiDocument;
let admin: StaffTestSession;
let visitor: CsrfCredentials;
let gatewayCalls: () => number;
const errorLines: string[] = [];
/** Rows that exist, by the path segment before a route's parameter (`donations` for `/api/staff/donations/:id`). */
const existing = new Map<string, string>();

beforeAll(async () => {
  const counted = everyCallCounted(createTestGateway());
  gatewayCalls = counted.calls;
  // Lines logged at error level or above (pino's 50): a refused request is no server error (issue #40).
  const logger = createLogger({ logLevel: 'info' }, { write: (line: string) => void (JSON.parse(line).level >= 50 && errorLines.push(line)) });
  t = await createTestApp({ env: { ADMIN_TOKEN }, gateway: counted.gateway, logger });
  document = (await t.app.inject({ method: 'GET', url: OPENAPI_DOCUMENT_PATH })).json<OpenApiDocument>();
  visitor = await t.csrf();
  admin = await signInStaffForTest(t.app, t.db, { role: 'admin' });
  // Rows for the path parameters to name, so a request is refused for its hostile value, not for naming nothing.
  const gift = await t.postDonation(validSubmission());
  const monthly = await t.postDonation(validSubmission({ frequency: 'monthly', donorEmail: 'monthly@example.org' }));
  expect([gift.statusCode, monthly.statusCode]).toEqual([200, 200]);
  const [donation] = await t.db.select({ id: donations.id }).from(donations).where(eq(donations.frequency, 'one-time')).limit(1);
  const [plan] = await t.db.select({ id: recurringPlans.id }).from(recurringPlans).limit(1);
  const colleague = await insertMember(t.db, { email: 'colleague@example.org', role: 'viewer' });
  const [passkey] = await t.db.select({ id: staffCredentials.id }).from(staffCredentials).limit(1);
  const [mail] = await t.db.select({ id: mailOutbox.id }).from(mailOutbox).limit(1);
  const donorKey = (await t.app.inject({ method: 'GET', url: '/api/staff/donors', headers: admin.headers })).json<{ donors?: { donorKey: string }[] }>().donors?.[0]?.donorKey;
  for (const [segment, id] of Object.entries({
    donations: donation?.id,
    plans: plan?.id,
    manage: plan ? createManageLinkSigner(t.config.cookieSecret).sign(plan.id, new Date()) : undefined,
    team: colleague?.id,
    passkeys: passkey?.id,
    mail: mail?.id,
    donors: donorKey,
  })) {
    if (id) existing.set(segment, id);
  }
}, 60_000);
afterAll(async () => {
  await t?.close();
});

/** Row count of every table (but the operator audit log), by table. */
async function rowCounts(): Promise<Record<string, number>> {
  const tables = (await t.db.execute(
    sql`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'admin_audit_log' ORDER BY 1`,
  )) as unknown as { rows: { name: string }[] };
  const counts = (await t.db.execute(
    sql.raw(tables.rows.map(({ name }) => `SELECT '${name}' AS name, count(*)::text AS rows FROM "${name}"`).join(' UNION ALL ')),
  )) as unknown as { rows: { name: string; rows: string }[] };
  return Object.fromEntries(counts.rows.map((row) => [row.name, Number(row.rows)]));
}

/** The schema `$ref` names in the document, or `schema` itself. */
function resolved(schema: JsonSchema | undefined): JsonSchema {
  const ref = schema?.$ref;
  if (!ref) return schema ?? {};
  const name = decodeURIComponent(ref.replace('#/components/schemas/', ''));
  return (document.components?.schemas?.[name] as JsonSchema | undefined) ?? {};
}

/** A value `schema` accepts, as far as its JSON Schema tells (a pattern it cannot honour gives a plain word). */
function validValueOf(raw: JsonSchema | undefined): unknown {
  const schema = resolved(raw);
  if ('const' in schema) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return validValueOf(variants.find((variant) => resolved(variant).type !== 'null') ?? variants[0]);
  const type = Array.isArray(schema.type) ? schema.type.find((name) => name !== 'null') : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'uuid') return randomUUID();
      if (schema.format === 'email') return 'ana@example.org';
      if (schema.format === 'date') return new Date().toISOString().slice(0, 10);
      if (schema.format === 'date-time') return new Date().toISOString();
      return 'Reef text'.padEnd(schema.minLength ?? 0, 'x');
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, (schema.exclusiveMinimum ?? 0) + 1);
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((name) => [name, validValueOf(schema.properties?.[name])]));
    default:
      return 'Reef text';
  }
}

/** The body shapes of a request body schema: each variant of a union (say a plan change's actions), or the one object. */
const bodyVariants = (schema: JsonSchema | undefined): JsonSchema[] =>
  (resolved(schema).oneOf ?? resolved(schema).anyOf ?? [resolved(schema)]).map(resolved).filter((variant) => variant.type !== 'null');

/** The JSON types `raw` accepts (`string`, `number`, `boolean`, `null`, `array`, `object`), as far as its schema tells. */
function jsonTypesOf(raw: JsonSchema | undefined): Set<string> {
  const schema = resolved(raw);
  const types = new Set<string>();
  if ('const' in schema) types.add(schema.const === null ? 'null' : typeof schema.const);
  for (const value of schema.enum ?? []) types.add(value === null ? 'null' : typeof value);
  for (const type of Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []) types.add(type === 'integer' ? 'number' : type);
  for (const variant of schema.anyOf ?? schema.oneOf ?? []) jsonTypesOf(variant).forEach((type) => types.add(type));
  if (types.size === 0) ['string', 'number', 'boolean', 'null', 'array', 'object'].forEach((type) => types.add(type));
  return types;
}

/** The JSON type of `value`. */
const jsonTypeOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/**
 * True when `value` is bad for a field of schema `raw`: a hostile text always (a character no text may hold, or too
 * long), a number always (every value of {@link WRONG_TYPES} is negative or has three decimals), anything else when the
 * field takes no value of its type (`true` is no wrong type for a boolean field, nor null for a nullable one).
 */
function isWrongFor(value: unknown, raw: JsonSchema | undefined): boolean {
  if (HOSTILE_TEXTS.includes(value as string) || typeof value === 'number') return true;
  return !jsonTypesOf(raw).has(jsonTypeOf(value));
}

/** True for a whole body some routes take as it is: `{}`, or none (null). */
const isEmptyBody = (value: unknown) => value === null || (jsonTypeOf(value) === 'object' && Object.keys(value as object).length === 0);

/** One request of the property: a route with one input hostile. */
interface HostileRequest {
  /** Which input carries the hostile value: `body.<field>`, `body`, `query.<name>`, `path.<name>`. */
  target: string;
  url: string;
  payload?: unknown;
  /** True when the value is text there (see {@link TEXT_IN_A_QUERY}): a success is then a right answer too. */
  mayBeAccepted?: boolean;
}

/** The requests of `route` with `value` in each of its inputs, one at a time (the others valid). */
function requestsOf(route: AppRoute, value: HostileValue): HostileRequest[] {
  const operation = operationOf(document, route);
  const parameters = (operation?.parameters ?? []) as Array<{ name: string; in: string; required?: boolean; schema?: JsonSchema }>;
  const pathNames = [...route.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1] ?? '');
  const pathValue = (name: string) => {
    const segment = route.url.split('/').at(route.url.split('/').indexOf(`:${name}`) - 1) ?? '';
    return encodeURIComponent(existing.get(segment) ?? 'no-such-row');
  };
  const urlWith = (pathValues: Record<string, string>, query: Record<string, string>) => {
    const path = route.url.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => pathValues[name] ?? pathValue(name));
    const search = Object.entries(query).map(([name, text]) => `${encodeURIComponent(name)}=${text}`).join('&');
    return search ? `${path}?${search}` : path;
  };
  const validQuery = Object.fromEntries(
    parameters.filter((parameter) => parameter.in === 'query' && parameter.required).map((parameter) => [parameter.name, encodeURIComponent(String(validValueOf(parameter.schema)))]),
  );
  const bodySchema = operation?.requestBody?.content?.['application/json']?.schema as JsonSchema | undefined;
  const baseUrl = urlWith({}, validQuery);
  const requests: HostileRequest[] = [];
  for (const name of pathNames) requests.push({ target: `path.${name}`, url: urlWith({ [name]: value.address }, validQuery) });
  for (const parameter of parameters.filter((candidate) => candidate.in === 'query')) {
    const url = urlWith({}, { ...validQuery, [parameter.name]: value.address });
    requests.push({ target: `query.${parameter.name}`, url, mayBeAccepted: TEXT_IN_A_QUERY.has(value.address) || value.textInAQuery === true });
  }
  if (isWrite(route.method)) {
    // NOTE: an empty object or null is a whole body some routes take (`{}`: refund all that is left; none: sign out).
    if (!isEmptyBody(value.json)) requests.push({ target: 'body', url: baseUrl, payload: value.json });
    for (const variant of bodySchema ? bodyVariants(bodySchema) : []) {
      const base = validValueOf(variant) as Record<string, unknown>;
      for (const field of Object.keys(variant.properties ?? {})) {
        if (!isWrongFor(value.json, variant.properties?.[field])) continue;
        const discriminant = 'const' in resolved(variant.properties?.[field]) ? '' : `${JSON.stringify(base).slice(0, 40)} `;
        requests.push({ target: `body.${field} ${discriminant}`.trim(), url: baseUrl, payload: { ...base, [field]: value.json } });
      }
    }
  }
  return requests;
}

/** The credentials `route` needs: the operator's bearer token, the signed-in admin's session, or a visitor's cookies. */
function headersOf(route: AppRoute): Record<string, string> {
  if (isAdminRoute(route.url)) return { authorization: `Bearer ${ADMIN_TOKEN}` };
  if (route.url.startsWith('/api/staff/')) return admin.headers;
  return { cookie: visitor.cookie, [CSRF_HEADER_NAME]: visitor.token };
}

/** Sends `request` to `route` and asserts a refusal in the API's error shape, and no gateway call. */
async function expectRefused(route: AppRoute, request: HostileRequest): Promise<void> {
  const callsBefore = gatewayCalls();
  const response = await t.app.inject({
    method: route.method as 'POST',
    url: request.url,
    headers: {
      ...headersOf(route),
      ...(isWrite(route.method) ? { 'content-type': 'application/json', [IDEMPOTENCY_KEY_HEADER]: randomUUID() } : {}),
    },
    ...(isWrite(route.method) ? { payload: JSON.stringify(request.payload ?? {}) } : {}),
  });
  const name = `${route.method} ${route.url} ${request.target} (${request.url.slice(0, 120)} ${JSON.stringify(request.payload)?.slice(0, 80)})`;
  if (request.mayBeAccepted && response.statusCode < 300) {
    expect(gatewayCalls(), `${name} called the gateway`).toBe(callsBefore);
    return;
  }
  expect(REFUSALS.has(response.statusCode), `${name} answered ${response.statusCode}: ${response.body.slice(0, 300)}`).toBe(true);
  expect(ApiErrorSchema.safeParse(response.json()).success, `${name}: not the API's error shape`).toBe(true);
  expect(gatewayCalls(), `${name} called the gateway`).toBe(callsBefore);
}

/** The document's routes as the app's router lists them (the document's own paths, with `:param`s). */
const documentedRoutes = (): AppRoute[] => apiRoutesOf(t.app).filter((route) => operationOf(document, route) !== undefined);

describe('hostile input on every route of the OpenAPI document (issues #32 and #40)', () => {
  it('covers the public, staff and operator routes of the document', () => {
    const urls = documentedRoutes().map((route) => route.url);
    expect(urls).toEqual(expect.arrayContaining([API_PATHS.processDonation, '/api/staff/donations/:id/refunds', '/api/recurring/manage/:token']));
    expect(urls.some(isAdminRoute)).toBe(true);
  });

  it('refuses every hostile value in every body field, query parameter and path parameter, writes nothing and never calls the gateway', async () => {
    // Tried on every input of every route: NUL, 10,000 characters, a lone surrogate (invalid UTF-8 in an address), a
    // bidirectional override, traversal and wrong types, a path parameter over the router's limit.
    const always: HostileValue[] = [
      { json: 'a\u0000b', address: 'a%00b' },
      { json: 'x'.repeat(10_000), address: 'x'.repeat(10_000) },
      { json: 'a\ud800', address: '%ED%A0%80' },
      { json: 'Rtl \u202egnp.exe', address: 'Rtl%20%E2%80%AEgnp.exe' },
      { json: [], address: '..%2F..%2Fetc%2Fpasswd' },
      { json: -1, address: '%FF' },
      { json: true, address: 'x'.repeat(101) },
    ];
    // Drawn from for a few more runs per route: every other fixed value, and generated text with a refused character.
    const hostileValue: fc.Arbitrary<HostileValue> = fc.oneof(
      fc.record({ json: fc.constantFrom(...HOSTILE_TEXTS, ...WRONG_TYPES), address: fc.constantFrom(...HOSTILE_ADDRESS_VALUES) }),
      hostileText.map((text) => ({ json: text, address: percentEncoded(text), textInAQuery: /[\ud800-\udfff]/.test(text) })),
    );
    for (const route of documentedRoutes()) {

      const before = await rowCounts();
      await fc.assert(
        fc.asyncProperty(hostileValue, async (value) => {
          for (const request of requestsOf(route, value)) await expectRefused(route, request);
        }),
        { numRuns: always.length + RANDOM_RUNS_PER_ROUTE, examples: always.map((example): [HostileValue] => [example]) },
      );
      expect(await rowCounts(), `${route.method} ${route.url} wrote rows`).toEqual(before);
      expect(errorLines, `${route.method} ${route.url} logged at error level`).toEqual([]);
    }
  }, 120_000);

  it('a staff refund with a NUL in its reason answers 400 naming the reason, and never reaches the gateway', async () => {
    const donationId = existing.get('donations') ?? '';
    const callsBefore = gatewayCalls();
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/staff/donations/${donationId}/refunds`,
      headers: { ...admin.headers, 'content-type': 'application/json', [IDEMPOTENCY_KEY_HEADER]: randomUUID() },
      payload: JSON.stringify({ amountCents: 100, reason: 'a\u0000b' }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, fieldErrors: { reason: 'Please remove unsupported characters' } });
    expect(gatewayCalls()).toBe(callsBefore);
  });

  it.each(['/api/staff/donations', '/api/staff/plans', '/api/staff/donors'])('a NUL in the search of %s answers 400 naming q', async (url) => {
    const response = await t.app.inject({ method: 'GET', url: `${url}?q=a%00b`, headers: admin.headers });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ fieldErrors: { q: 'Please remove unsupported characters' } });
  });

  it.each(['actor', 'action', 'subjectId'])('a NUL in the audit filter %s answers 400 naming it', async (name) => {
    const response = await t.app.inject({ method: 'GET', url: `/api/staff/audit?${name}=a%00b`, headers: admin.headers });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ fieldErrors: { [name]: 'Please remove unsupported characters' } });
  });

  it('a path parameter over 100 characters answers 404 in the API error shape on public, staff and operator routes', async () => {
    const long = 'x'.repeat(500);
    for (const [url, headers] of [
      [`/api/recurring/manage/${long}`, { cookie: visitor.cookie, [CSRF_HEADER_NAME]: visitor.token }],
      [`/api/staff/donations/${long}/refunds`, admin.headers],
      [`/api/admin/donations/${long}/refund`, { authorization: `Bearer ${ADMIN_TOKEN}` }],
    ] as const) {
      const response = await t.app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': 'application/json' }, payload: '{}' });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({ success: false, error: 'Not found.', code: 'not_found' });
    }
    expect(errorLines, 'an over-long path parameter is no server error').toEqual([]);
  });
});
