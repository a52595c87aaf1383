/**
 * `npm run admin -- <command> ...`: a thin client of the running server's operator routes, /api/admin/*
 * (DESIGN.md, "Operator actions"; the embedded database has one process, so the command asks the server).
 * Environment: ADMIN_TOKEN (required, the server's), ADMIN_URL (default `http://127.0.0.1:$PORT`, PORT default 3000).
 *
 * Commands:
 *   statements --year <YYYY>   queue the year-end statements of a year that is over (sent once per donor and year)
 *   export --from <YYYY-MM-DD> --to <YYYY-MM-DD> --format <format> [--out <file>]
 *                              save the gifts of those days (UTC, both included) as CSV for a CRM, streamed to disk
 *   refund <donation id> [--amount <dollars>] [--idempotency-key <key>]
 *                              refund all that is left of a donation, or that many dollars of it, through the gateway
 *   staff invite <email> --role <viewer|finance|admin>
 *                              invite a staff member (the first admin, typically): the server e-mails a link to enroll a passkey
 *
 * Exits 0 on success, 1 on a refusal or an unreachable server (with the reason on stderr), 2 on bad usage.
 */
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { EXPORT_FORMATS } from '../src/server/admin/export-request';
import { ADMIN_DONATIONS_EXPORT_PATH, ADMIN_STATEMENTS_RUN_PATH, adminDonationRefundPath } from '../src/server/admin/paths';
import { ADMIN_STAFF_PATH } from '../src/shared/staff/paths';
import { STAFF_ROLES } from '../src/shared/staff/roles';

const USAGE = `Usage: npm run admin -- statements --year <YYYY>
       npm run admin -- export --from <YYYY-MM-DD> --to <YYYY-MM-DD> --format <${EXPORT_FORMATS.join('|')}> [--out <file>]
         (--out defaults to the server's file name in the current directory; --out - writes to stdout)
       npm run admin -- refund <donation id> [--amount <dollars, e.g. 12.50>] [--idempotency-key <key>]
         (all that is left without --amount; run again with the key it prints if the outcome was unknown)
       npm run admin -- staff invite <email> --role <${STAFF_ROLES.join('|')}>
         (e-mails an invitation to enroll a passkey at PUBLIC_URL/staff/enroll/..., valid 72 hours)

Environment:
  ADMIN_TOKEN  the server's ADMIN_TOKEN (required)
  ADMIN_URL    the server (default http://127.0.0.1:$PORT, PORT default 3000)`;

/** Prints `message` and the usage on stderr and exits 2. */
function usage(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

/** Sends a request to `url` with the bearer token and `init`; resolves with the answer, or exits 1 when the server cannot be reached. */
async function send(url: URL, token: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(url, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });
  } catch (error) {
    const reason = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
    console.error(`Cannot reach the server at ${url.origin} (${reason}). Is it running? Set ADMIN_URL if it listens elsewhere.`);
    process.exit(1);
  }
}

/** POSTs `body` to `path` on ADMIN_URL with the bearer token (and `headers`); resolves with the status and the JSON answer. */
async function post(baseUrl: string, token: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: unknown }> {
  const response = await send(new URL(path, baseUrl), token, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json().catch(() => undefined) };
}

/** Explains a refused answer on stderr and exits 1. */
function refused(status: number, json: unknown): never {
  const answer = json as { error?: string; fieldErrors?: Record<string, string> } | undefined;
  const hints: Record<number, string> = {
    401: 'The server refused the token: ADMIN_TOKEN must be the server\'s own.',
    404: 'The server has no admin routes: set ADMIN_TOKEN (32+ characters) on the server and restart it.',
  };
  const details = Object.values(answer?.fieldErrors ?? {}).join(' ');
  console.error(hints[status] ?? `The server answered ${status}: ${answer?.error ?? 'no details'} ${details}`.trim());
  process.exit(1);
}

/** The options as parseArgs reads them (not strict: a flag given without a value is `true`). */
type Values = Record<string, string | boolean | undefined>;
/** Where the server is and the token it takes. */
interface Server {
  baseUrl: string;
  token: string;
}

/** `statements --year <YYYY>`: queues the year-end statements of that year through the server and says how many. */
async function statements(values: Values, { baseUrl, token }: Server): Promise<void> {
  const year = typeof values.year === 'string' && /^\d{4}$/.test(values.year) ? Number(values.year) : undefined;
  if (year === undefined) usage('statements needs --year <YYYY>, e.g. --year 2026.');
  const { status, json } = await post(baseUrl, token, ADMIN_STATEMENTS_RUN_PATH, { year });
  if (status !== 200) refused(status, json);
  const { queued } = json as { queued: number };
  console.log(
    `Queued ${queued} year-end statement${queued === 1 ? '' : 's'} for ${year}` +
      (queued === 0 ? ' (every donor of that year has had theirs queued already, or there were none).' : '; the server sends them within seconds.'),
  );
}

/** The file name of an attachment's `Content-Disposition` (its last path segment only), or `donations.csv`. */
function attachmentName(response: Response): string {
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1];
  return name ? path.basename(name) : 'donations.csv';
}

/**
 * `export --from --to --format [--out]`: GET /api/admin/donations.csv (issue #14, Export), streamed to `--out` (default:
 * the server's file name in the current directory; `-` for stdout) as it arrives, never held in memory. The server
 * checks the dates and format (a refusal exits 1 with its reason). A download that breaks off exits 1 and removes the
 * partial file, so a file left behind is always a whole export.
 */
async function exportDonations(values: Values, { baseUrl, token }: Server): Promise<void> {
  const { from, to, format, out } = values;
  if (typeof from !== 'string' || typeof to !== 'string' || typeof format !== 'string') {
    usage('export needs --from <YYYY-MM-DD> --to <YYYY-MM-DD> --format <format>, e.g. --from 2026-01-01 --to 2026-01-31 --format npsp.');
  }
  const url = new URL(ADMIN_DONATIONS_EXPORT_PATH, baseUrl);
  url.search = new URLSearchParams({ from, to, format }).toString();
  const response = await send(url, token, { headers: { accept: 'text/csv, application/json' } });
  if (response.status !== 200 || !response.body) refused(response.status, await response.json().catch(() => undefined));
  const body = Readable.fromWeb(response.body as ReadableStream<Uint8Array>);
  if (out === '-') {
    await pipeline(body, process.stdout, { end: false });
    return;
  }
  const file = typeof out === 'string' ? out : attachmentName(response);
  try {
    await pipeline(body, createWriteStream(file));
  } catch (error) {
    await rm(file, { force: true });
    console.error(`The export broke off (${error instanceof Error ? error.message : String(error)}); ${file} was removed. Run the command again.`);
    process.exit(1);
  }
  console.log(`Saved the ${format} export of ${from} to ${to} (UTC days) in ${file}.`);
}

/** `$12.50` of an amount in dollars. */
const dollars = (amount: number) => `$${amount.toFixed(2)}`;

/**
 * `refund <donation id> [--amount <dollars>] [--idempotency-key <key>]`: POST /api/admin/donations/:id/refund (issue
 * #14) with `{amount}` (all that is left without it) and an Idempotency-Key (a new UUID unless given), and says what was
 * refunded. The key is printed first: when the outcome is unknown (503, or the server went away), running the command
 * again with `--idempotency-key <key>` is safe, it cannot refund twice. A refusal exits 1 with the server's reason.
 */
async function refund(values: Values, { baseUrl, token }: Server, [donationId]: string[]): Promise<void> {
  if (!donationId) usage('refund needs the donation id, e.g. refund 0b8f4f1e-....');
  const { amount } = values;
  if (amount !== undefined && (typeof amount !== 'string' || !/^\d+(\.\d{1,2})?$/.test(amount))) usage('--amount is in dollars with at most two decimals, e.g. --amount 12.50.');
  const key = typeof values['idempotency-key'] === 'string' ? values['idempotency-key'] : randomUUID();
  console.log(`Refunding donation ${donationId} with Idempotency-Key ${key}`);
  const body = amount === undefined ? {} : { amount: Number(amount) };
  const { status, json } = await post(baseUrl, token, adminDonationRefundPath(donationId), body, { 'idempotency-key': key });
  if (status === 503) {
    console.error(`${(json as { error?: string } | undefined)?.error ?? 'The outcome of the refund is unknown.'}\nRun: npm run admin -- refund ${donationId}${amount === undefined ? '' : ` --amount ${amount}`} --idempotency-key ${key}`);
    process.exit(1);
  }
  if (status !== 200) refused(status, json);
  const answer = json as { refund: { amount: number; gatewayRefundId: string }; donation: { status: string; amount: number; refunded: number } };
  const { donation } = answer;
  console.log(
    `Refunded ${dollars(answer.refund.amount)} (gateway refund ${answer.refund.gatewayRefundId})` +
      (donation.status === 'refunded' ? `: the donation of ${dollars(donation.amount)} is refunded in full.` : `: ${dollars(donation.refunded)} of the donation's ${dollars(donation.amount)} refunded so far.`),
  );
}

/**
 * `staff invite <email> --role <role>`: POST /api/admin/staff (issue #21, "The first staff member") and says where the
 * invitation went. The server checks the address and role (a refusal, or an address already on the team, exits 1).
 */
async function staff(values: Values, { baseUrl, token }: Server, [action, email]: string[]): Promise<void> {
  if (action !== 'invite' || !email) usage('staff needs: invite <email> --role <role>, e.g. staff invite ana@example.org --role admin.');
  const { role } = values;
  if (typeof role !== 'string' || !(STAFF_ROLES as readonly string[]).includes(role)) usage(`--role is one of ${STAFF_ROLES.join(', ')}.`);
  const { status, json } = await post(baseUrl, token, ADMIN_STAFF_PATH, { email, role });
  if (status !== 201) refused(status, json);
  const member = json as { email: string; role: string };
  console.log(`Invited ${member.email} as ${member.role}: the invitation is on its way, with a link to create a passkey (valid 72 hours).`);
}

/** The commands, by name; each gets the options, the server, and the positionals after the command's name. */
const COMMANDS: Record<string, (values: Values, server: Server, args: string[]) => Promise<void>> = { statements, export: exportDonations, refund, staff };

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: {
      year: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      format: { type: 'string' },
      out: { type: 'string' },
      amount: { type: 'string' },
      'idempotency-key': { type: 'string' },
      role: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: false,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const [command] = positionals;
  // NOTE: own keys only, so `toString` or `constructor` is an unknown command rather than Object.prototype's method.
  const run = command !== undefined && Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!run) usage(command ? `Unknown command: ${command}` : 'No command given.');

  const token = process.env.ADMIN_TOKEN;
  if (!token) usage('ADMIN_TOKEN is not set: use the token the server was started with.');
  const baseUrl = process.env.ADMIN_URL || `http://127.0.0.1:${process.env.PORT || 3000}`;
  await run(values, { baseUrl, token }, positionals.slice(1));
}

await main();
