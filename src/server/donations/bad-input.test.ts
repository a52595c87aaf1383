import fc from 'fast-check';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, ApiErrorSchema } from '../../shared/api';
import { passesLuhn } from '../../shared/card';
import { DonationSubmissionSchema } from '../../shared/donation';
import { BODY_LIMIT_BYTES } from '../app';
import { donations, idempotencyKeys } from '../db/schema';
import { IDEMPOTENCY_KEY_HEADER } from '../../shared/api';
import { createTestApp, validSubmission, type CsrfCredentials, type TestApp } from '../testing/test-app';

/**
 * Bad input (issue #3): fast-check generates malformed requests to every write route (POST
 * /api/process-donation is the only one; other methods and paths are thrown in too): wrong types, missing and
 * extra fields, huge strings, deep nesting, bad amounts (negative, zero, fractional cents, NaN, enormous),
 * invalid card numbers, non-JSON bodies, wrong content types, oversized bodies, bad Idempotency-Keys.
 * Every answer must be a 4xx with a clear error; none a 5xx; no row is written and the gateway is never called.
 */

let t: TestApp;
let csrf: CsrfCredentials;
beforeAll(async () => {
  t = await createTestApp();
  csrf = await t.csrf();
});
afterAll(async () => {
  await t?.close();
});

/** One generated request. */
interface BadRequest {
  method?: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url?: string;
  body: string;
  contentType?: string;
  idempotencyKey?: string;
}

async function send(request: BadRequest): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: request.method ?? 'POST',
    url: request.url ?? API_PATHS.processDonation,
    headers: {
      cookie: csrf.cookie,
      'x-xsrf-token': csrf.token,
      ...(request.contentType === undefined ? {} : { 'content-type': request.contentType }),
      ...(request.idempotencyKey === undefined ? {} : { [IDEMPOTENCY_KEY_HEADER]: request.idempotencyKey }),
    },
    payload: request.body,
  });
}

/** The property: a 4xx whose body is `{success: false, error: <a sentence>}`, never a 5xx. */
async function expectRefused(request: BadRequest): Promise<void> {
  const response = await send(request);
  expect(response.statusCode, `${response.statusCode} for ${request.body.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
  expect(response.statusCode).toBeLessThan(500);
  const error = ApiErrorSchema.parse(response.json());
  expect(error.error).toMatch(/^[A-Z].*[a-z].*[.!]$/);
}

/** After a property: no donation, no Idempotency-Key written, no charge attempted. */
async function expectNothingWritten(): Promise<void> {
  expect(await t.countDonations()).toBe(0);
  expect(await t.db.select().from(idempotencyKeys)).toEqual([]);
  expect(t.gateway.calls).toBe(0);
}

/** True when the server would accept `body` (as JSON) as a donation: such cases are not bad input and are skipped. */
const isValidSubmission = (body: string) => {
  try {
    return DonationSubmissionSchema.safeParse(JSON.parse(body)).success;
  } catch {
    return false;
  }
};

const JSON_TYPE = 'application/json';
type Json = Record<string, unknown>;

// Where a value can be removed or replaced: every field of the submission, its card and its address.
const FIELD_PATHS: string[][] = [
  ...Object.keys(validSubmission()).map((key) => [key]),
  ...Object.keys(validSubmission().creditCard).map((key) => ['creditCard', key]),
  ...['street', 'city', 'state', 'zipCode', 'country'].map((key) => ['donorAddress', key]),
];

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const luhnFailing = fc
  .stringMatching(/^[0-9]{13,19}$/)
  .map((digits) => (passesLuhn(digits) ? digits.slice(0, -1) + String((Number(digits.at(-1)) + 1) % 10) : digits));

/** Values of the wrong type or shape for most fields: any JSON, huge strings, deep nesting (as raw JSON text). */
const badValue: fc.Arbitrary<{ json: unknown } | { raw: string }> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((json) => ({ json })),
  fc.integer({ min: 1001, max: BODY_LIMIT_BYTES + 2000 }).map((n) => ({ json: 'x'.repeat(n) })),
  fc.integer({ min: 20, max: 4000 }).map((depth) => ({ raw: nested(depth) })),
);

/** Amounts the spec refuses: below $1 (negative, zero), fractional cents, NaN / Infinity as text, enormous, not numbers. */
const badAmount: fc.Arbitrary<{ json: unknown } | { raw: string }> = fc.oneof(
  fc.double({ max: 0.99, noNaN: true }).map((json) => ({ json })),
  fc.double({ min: 1_000_000, noNaN: true }).map((json) => ({ json })),
  fc.integer({ min: 100, max: 99_999_999 }).map((cents) => ({ json: cents / 100 + 0.001 })),
  fc.constantFrom('NaN', 'Infinity', '-Infinity', '1e400', '-0.0001', '25 ').map((raw) => ({ raw })),
  fc.constantFrom('NaN', '25', '1e3', null, true, [25], { value: 25 }).map((json) => ({ json })),
);

/** Card numbers that must be refused: failing Luhn, too short or long, with letters or spaces, not strings. */
const badCardNumber: fc.Arbitrary<{ json: unknown }> = fc.oneof(
  luhnFailing,
  fc.stringMatching(/^[0-9]{1,12}$/),
  fc.stringMatching(/^[0-9]{20,40}$/),
  fc.stringMatching(/^[0-9 a-z-]{13,19}$/).filter((s) => /[^0-9]/.test(s)),
  fc.integer(),
).map((json) => ({ json }));

type Mutation =
  | { kind: 'remove'; path: string[] }
  | { kind: 'set'; path: string[]; value: { json: unknown } | { raw: string } }
  | { kind: 'extra'; parent: string[]; key: string; value: unknown };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('remove' as const), path: fc.constantFrom(...FIELD_PATHS) }),
  fc.record({ kind: fc.constant('set' as const), path: fc.constantFrom(...FIELD_PATHS), value: badValue }),
  fc.record({ kind: fc.constant('set' as const), path: fc.constant<string[]>(['amount']), value: badAmount }),
  fc.record({ kind: fc.constant('set' as const), path: fc.constant<string[]>(['creditCard', 'number']), value: badCardNumber }),
  fc.record({
    kind: fc.constant('extra' as const),
    parent: fc.constantFrom<string[]>([], ['creditCard'], ['donorAddress']),
    key: fc.string({ minLength: 1, maxLength: 30 }),
    value: fc.jsonValue({ maxDepth: 2 }),
  }),
);

// Raw JSON texts are put in place of marker strings, so that values JSON cannot carry (NaN) reach the server as sent.
const rawMarker = (index: number) => `@@raw-value-${index}@@`;

/** Applies mutations to a valid submission and serializes it; raw values are spliced in as text. */
function mutatedBody(mutations: Mutation[]): string {
  const body = JSON.parse(JSON.stringify(validSubmission())) as Json;
  const raws: string[] = [];
  const parentOf = (path: string[]) => {
    let node: Json = body;
    for (const key of path.slice(0, -1)) {
      if (typeof node[key] !== 'object' || node[key] === null) node[key] = {};
      node = node[key] as Json;
    }
    return node;
  };
  for (const change of mutations) {
    if (change.kind === 'remove') delete parentOf(change.path)[change.path.at(-1) ?? ''];
    else if (change.kind === 'extra') parentOf([...change.parent, change.key])[change.key] = change.value;
    else if ('json' in change.value) parentOf(change.path)[change.path.at(-1) ?? ''] = change.value.json;
    else {
      parentOf(change.path)[change.path.at(-1) ?? ''] = rawMarker(raws.length);
      raws.push(change.value.raw);
    }
  }
  let text = JSON.stringify(body);
  raws.forEach((raw, index) => (text = text.replace(JSON.stringify(rawMarker(index)), raw)));
  return text;
}

const VALID_BODY = JSON.stringify(validSubmission());
/** Generated requests per property: 2,150 in all (issue #3: "at least 2,000"); fast-check runs exactly these many. */
const RUNS = { mutated: 1400, notJson: 300, contentTypes: 150, oversized: 50, idempotencyKeys: 150, otherRoutes: 100 };

describe('malformed requests to the write routes (fast-check)', () => {
  afterEach(expectNothingWritten);

  it('a valid submission with 1-3 fields removed, replaced by bad values, or added: 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 3 }), async (mutations) => {
        const body = mutatedBody(mutations);
        fc.pre(!isValidSubmission(body));
        await expectRefused({ body, contentType: JSON_TYPE });
      }),
      { numRuns: RUNS.mutated },
    );
    // NOTE: 1,400 requests through the whole server: 20 s was too close on a loaded 2-core machine (as the file's last property).
  }, 60_000);

  it('bodies that are not a JSON object (random text, truncated JSON, NaN, arrays, scalars): 4xx', async () => {
    const notJson = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc.integer({ min: 0, max: VALID_BODY.length - 1 }).map((end) => VALID_BODY.slice(0, end)),
      fc.constant(VALID_BODY.replace('"amount":25', '"amount":NaN')),
      fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
    );
    await fc.assert(
      fc.asyncProperty(notJson, async (body) => {
        fc.pre(!isValidSubmission(body));
        await expectRefused({ body, contentType: JSON_TYPE });
      }),
      { numRuns: RUNS.notJson },
    );
  });

  it('a valid body with a content type other than JSON, or none: 4xx', async () => {
    const contentType = fc.oneof(
      fc.constantFrom(
        'text/plain',
        'text/html',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/xml',
        'application/octet-stream',
        'application/jsonp',
        'json',
        '',
      ),
      fc.stringMatching(/^[a-z]{1,10}\/[a-z+.-]{1,20}$/).filter((type) => !type.startsWith('application/json')),
    );
    await fc.assert(
      fc.asyncProperty(contentType, async (type) => {
        await expectRefused({ body: VALID_BODY, contentType: type === '' ? undefined : type });
      }),
      { numRuns: RUNS.contentTypes },
    );
  });

  it('bodies over the size limit: 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: BODY_LIMIT_BYTES + 1, max: BODY_LIMIT_BYTES * 8 }), async (size) => {
        const body = JSON.stringify(validSubmission({ message: 'x'.repeat(size) }));
        await expectRefused({ body, contentType: JSON_TYPE });
      }),
      { numRuns: RUNS.oversized },
    );
  });

  it('a valid body with a bad Idempotency-Key: 4xx', async () => {
    const badKey = fc.oneof(
      fc.constant(''),
      fc.integer({ min: 256, max: 2000 }).map((n) => 'k'.repeat(n)),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 50 }).filter((key) => /[^\x20-\x7E]/.test(key)),
    );
    await fc.assert(
      fc.asyncProperty(badKey, async (idempotencyKey) => {
        await expectRefused({ body: VALID_BODY, contentType: JSON_TYPE, idempotencyKey });
      }),
      { numRuns: RUNS.idempotencyKeys },
    );
  });

  it('other methods on the route, and POSTs to API paths that do not exist: 4xx', async () => {
    const request = fc.oneof(
      fc.constantFrom('PUT', 'PATCH', 'DELETE').map((method) => ({ method, body: VALID_BODY, contentType: JSON_TYPE }) as BadRequest),
      fc
        .stringMatching(/^[a-z0-9/_.-]{1,40}$/)
        .filter((rest) => `/api/${rest}` !== API_PATHS.processDonation)
        .map((rest) => ({ url: `/api/${rest}`, body: VALID_BODY, contentType: JSON_TYPE })),
    );
    await fc.assert(fc.asyncProperty(request, expectRefused), { numRuns: RUNS.otherRoutes });
  });
});

describe('any Unicode text in any text field (fast-check; issue #10, part 2)', () => {
  /** The free-text fields of the submission, and the donation column each is stored in. */
  const TEXT_FIELDS = [
    { path: ['donorName'], column: 'donorName' },
    { path: ['donorEmail'], column: 'donorEmail' },
    { path: ['donorPhone'], column: 'donorPhone' },
    { path: ['donorAddress', 'street'], column: 'addressStreet' },
    { path: ['donorAddress', 'city'], column: 'addressCity' },
    { path: ['donorAddress', 'state'], column: 'addressState' },
    { path: ['donorAddress', 'zipCode'], column: 'addressZipCode' },
    { path: ['donorAddress', 'country'], column: 'addressCountry' },
    { path: ['message'], column: 'message' },
    { path: ['creditCard', 'holderName'], column: undefined }, // checked, never stored
  ] as const;
  type TextField = (typeof TEXT_FIELDS)[number];

  /** Full-Unicode strings: any code unit (lone surrogates too), any code point, and controls mixed into plain text. */
  const anyText = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 30 }),
    fc.string({ unit: 'binary-ascii', maxLength: 30 }),
    fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength: 30 }),
    fc
      .tuple(fc.string({ maxLength: 10 }), fc.integer({ min: 0, max: 0x9f }), fc.string({ maxLength: 10 }))
      .map(([before, code, after]) => `Ana${before}${String.fromCharCode(code)}${after}`),
    fc.constantFrom('Jose\u0301', 'An\u0303a', 'A\u0000B', 'ana@exa\u0000mple.org', '\ud800ab', 'ab\udc00', '\u{1F420}\u{1F420}'),
  );
  const edit = fc.record({ field: fc.constantFrom(...TEXT_FIELDS), value: anyText });

  /** The valid submission with each edit's value put in its field. */
  function bodyWith(edits: Array<{ field: TextField; value: string }>): Json {
    const body = JSON.parse(JSON.stringify(validSubmission())) as Json;
    for (const { field, value } of edits) {
      const [first, second] = field.path;
      if (second === undefined) body[first] = value;
      else (body[first] as Json)[second] = value;
    }
    return body;
  }

  beforeAll(async () => {
    await t.reset();
  });

  it('answers 200 and stores the text in NFC, or 400 naming a field and writes nothing; never a 5xx', async () => {
    let accepted = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 3 }), async (edits) => {
        const body = bodyWith(edits);
        const before = await t.countDonations();
        // NOTE: JSON.stringify writes lone surrogates as \u escapes, so they reach the server as sent.
        const response = await send({ body: JSON.stringify(body), contentType: JSON_TYPE });
        const expected = DonationSubmissionSchema.safeParse(body);
        if (!expected.success) {
          refused += 1;
          expect(response.statusCode, response.body).toBe(400);
          const error = ApiErrorSchema.parse(response.json());
          expect(Object.keys(error.fieldErrors ?? {})).toContain(expected.error.issues[0]?.path.join('.'));
          expect(await t.countDonations()).toBe(before);
          return;
        }
        accepted += 1;
        expect(response.statusCode, response.body).toBe(200);
        const { transactionId } = (response.json() as { data: { transactionId: string } }).data;
        const [row] = await t.db.select().from(donations).where(eq(donations.gatewayTransactionId, transactionId));
        for (const { field } of edits) {
          if (field.column === undefined) continue;
          const [first, second] = field.path;
          const sent = second === undefined ? expected.data[first] : expected.data[first]?.[second];
          const stored = row?.[field.column];
          expect(stored ?? '', field.path.join('.')).toBe(sent ?? '');
          expect(stored ?? '').toBe((stored ?? '').normalize('NFC'));
        }
      }),
      { numRuns: 300 },
    );
    // The generators reach both outcomes often, so the property says something about each.
    expect(accepted).toBeGreaterThan(30);
    expect(refused).toBeGreaterThan(30);
    // NOTE: 300 real donations and refusals; a loaded 2-core machine needs more than the default 20 s.
  }, 90_000);
});
