/**
 * `npm run admin -- <command> ...`: a thin client of the running server's operator routes, /api/admin/*
 * (DESIGN.md, "Operator actions"; the embedded database has one process, so the command asks the server).
 * Environment: ADMIN_TOKEN (required, the server's), ADMIN_URL (default `http://127.0.0.1:$PORT`, PORT default 3000).
 *
 * Commands:
 *   statements --year <YYYY>   queue the year-end statements of a year that is over (sent once per donor and year)
 *
 * Exits 0 on success, 1 on a refusal or an unreachable server (with the reason on stderr), 2 on bad usage.
 */
import { parseArgs } from 'node:util';
import { ADMIN_STATEMENTS_RUN_PATH } from '../src/server/admin/paths';

const USAGE = `Usage: npm run admin -- statements --year <YYYY>

Environment:
  ADMIN_TOKEN  the server's ADMIN_TOKEN (required)
  ADMIN_URL    the server (default http://127.0.0.1:$PORT, PORT default 3000)`;

/** Prints `message` and the usage on stderr and exits 2. */
function usage(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

/** POSTs `body` to `path` on ADMIN_URL with the bearer token; resolves with the status and the JSON answer. */
async function post(baseUrl: string, token: string, path: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const url = new URL(path, baseUrl);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
  } catch (error) {
    const reason = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
    console.error(`Cannot reach the server at ${url.origin} (${reason}). Is it running? Set ADMIN_URL if it listens elsewhere.`);
    process.exit(1);
  }
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

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { year: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    strict: false,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const [command] = positionals;
  if (command !== 'statements') usage(command ? `Unknown command: ${command}` : 'No command given.');
  const year = typeof values.year === 'string' && /^\d{4}$/.test(values.year) ? Number(values.year) : undefined;
  if (year === undefined) usage('statements needs --year <YYYY>, e.g. --year 2026.');

  const token = process.env.ADMIN_TOKEN;
  if (!token) usage('ADMIN_TOKEN is not set: use the token the server was started with.');
  const baseUrl = process.env.ADMIN_URL || `http://127.0.0.1:${process.env.PORT || 3000}`;

  const { status, json } = await post(baseUrl, token, ADMIN_STATEMENTS_RUN_PATH, { year });
  if (status !== 200) refused(status, json);
  const { queued } = json as { queued: number };
  console.log(
    `Queued ${queued} year-end statement${queued === 1 ? '' : 's'} for ${year}` +
      (queued === 0 ? ' (every donor of that year has had theirs queued already, or there were none).' : '; the server sends them within seconds.'),
  );
}

await main();
