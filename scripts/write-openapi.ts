/**
 * `npm run openapi:write [-- <folder>]` (issue #41): writes the OpenAPI document the server serves at
 * GET /api/openapi.json, as integrators' tools read it, into `<folder>` (default `dist/openapi`), for `npm run
 * openapi:lint` (Redocly's CLI, `redocly.yaml`) to check:
 * - `openapi.json`: the app in test-gateway mode with ADMIN_TOKEN set, every operator route included;
 * - `openapi-stripe.json`: the app in Stripe mode (PAYMENT_GATEWAY=stripe), which has the Stripe webhook too.
 * Each app is built as the API tests build it (createTestApp: the real buildApp on a migrated database of the run's
 * PostgreSQL, the embedded server in a temporary folder unless DATABASE_URL is set), with PUBLIC_URL an https address
 * (so the document names the `__Host-` session cookie a deployment uses), and asked for the document with
 * `app.inject`; no port is opened and no request leaves the process. Exits 1 (with the reason) if a document cannot
 * be built or is not answered 200.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { OPENAPI_DOCUMENT_PATH } from '../src/server/http/openapi';
import { createTestApp, type TestAppOptions } from '../src/server/testing/test-app';
import { startTestPostgres } from '../src/server/testing/test-database';

/** Where the documents go unless a folder is given. */
const DEFAULT_FOLDER = 'dist/openapi';

/** The public address of the apps: an https one, as a deployment's (README, "Deploying"). */
const PUBLIC_URL = 'https://donate.example.org';

/** An operator token of the right shape (32+ printable characters), so the operator routes are there as deployed. */
const ADMIN_TOKEN = 'openapi-document-admin-token-0123456789';

/** The documents to write: file name, and the environment of the app that serves it. */
const DOCUMENTS: ReadonlyArray<{ file: string; env: NonNullable<TestAppOptions['env']> }> = [
  { file: 'openapi.json', env: { PUBLIC_URL, ADMIN_TOKEN } },
  {
    file: 'openapi-stripe.json',
    env: {
      PUBLIC_URL,
      ADMIN_TOKEN,
      PAYMENT_GATEWAY: 'stripe',
      // NOTE: keys of the right shape only: building the app and its document calls no Stripe API.
      STRIPE_SECRET_KEY: 'sk_test_openapiDocument000000000000',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_openapiDocument000000000000',
      STRIPE_WEBHOOK_SECRET: 'whsec_openapiDocument000000000000',
    },
  },
];

/** Builds the app of `env`, asks it for its document, and returns the document's JSON text (2-space indented). */
async function documentOf(env: NonNullable<TestAppOptions['env']>): Promise<string> {
  const t = await createTestApp({ env });
  try {
    const response = await t.app.inject({ method: 'GET', url: OPENAPI_DOCUMENT_PATH });
    if (response.statusCode !== 200) throw new Error(`GET ${OPENAPI_DOCUMENT_PATH} answered ${response.statusCode}: ${response.body}`);
    return `${JSON.stringify(response.json(), null, 2)}\n`;
  } finally {
    await t.close();
  }
}

const folder = path.resolve(process.argv[2] ?? DEFAULT_FOLDER);
const stopPostgres = await startTestPostgres();
try {
  await mkdir(folder, { recursive: true });
  for (const { file, env } of DOCUMENTS) {
    await writeFile(path.join(folder, file), await documentOf(env));
    console.log(`Wrote ${path.relative(process.cwd(), path.join(folder, file))}`);
  }
} finally {
  await stopPostgres();
}
