import { join } from 'node:path';

/**
 * Port of the server the end-to-end run starts: E2E_PORT, default 3100 (not 3000, so a running
 * `npm start` does not clash). Two runs at once on one machine need two ports.
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
/** Where the browser finds the site. */
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
/**
 * Where the browser finds the staff pages, and the server's PUBLIC_URL (issue #21): passkeys need a secure context and
 * a host name as relying party id; http://localhost is both, 127.0.0.1 is no valid RP ID.
 */
export const E2E_STAFF_BASE_URL = `http://localhost:${E2E_PORT}`;
/**
 * Port of the staff story that runs a server of its own (it ages the staff rows of its own database; issue #21):
 * E2E_PORT + 1. NOTE: fixed, not the system's choice: that server's PUBLIC_URL (the passkeys' relying party and the
 * origin they are checked against) must name its port before it starts.
 */
export const E2E_OWN_STAFF_SERVER_PORT = E2E_PORT + 1;
/**
 * Port of the donors and mail story's own server (issue #22): E2E_PORT + 2, its mail going to an SMTP test server that
 * refuses one address with 550 (the shared server writes its mail to MAIL_DIR, which refuses nothing). Fixed for the same
 * reason as {@link E2E_OWN_STAFF_SERVER_PORT}; +2 because Playwright's two workers may run both stories at once.
 */
export const E2E_OWN_MAIL_SERVER_PORT = E2E_PORT + 2;
/** Scratch folder of one end-to-end run: the server's database and log (one per port). */
export const E2E_WORK_DIR = join(process.cwd(), '.tmp', E2E_PORT === 3100 ? 'e2e' : `e2e-${E2E_PORT}`);
/** The embedded database of the end-to-end server (`DATA_DIR`). */
export const E2E_DATA_DIR = join(E2E_WORK_DIR, 'data');
/** ADMIN_TOKEN of the end-to-end server: the operator routes the specs call (billing runs; issue #13). */
export const E2E_ADMIN_TOKEN = 'e2e-admin-token-0123456789abcdefghijklmnop';
/**
 * MAIL_POLL_INTERVAL_MS of every end-to-end server: how often its mail relay looks for messages due. 200 ms instead of
 * the default 1 s, so a story waiting for an e-mail waits 0.1 s on average for the poll instead of 0.5 s (issue #19,
 * decision 0066); the relay itself is unchanged, and each poll is one indexed query on an idle outbox.
 */
export const E2E_MAIL_POLL_INTERVAL_MS = 200;
/** Everything the end-to-end server printed, stdout and stderr. */
export const E2E_LOG_FILE = join(E2E_WORK_DIR, 'server.log');

/**
 * The environment every spec's own server process starts with (gateway fault, Stripe mode, the staff story on its own
 * server): its e-mails and files in `dataDir`, its rows in the test database at `databaseUrl` (a copy of the migrated
 * template), test mode, no card-testing limits (the specs donate many times from one IP), the built pages of dist/web,
 * the mail relay polling every {@link E2E_MAIL_POLL_INTERVAL_MS}.
 * A spec adds what its story needs (a port, PAYMENT_GATEWAY, PUBLIC_URL...).
 */
export function ownServerEnv(dataDir: string, databaseUrl: string): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    NODE_ENV: 'test',
    RATE_LIMITS: 'off',
    LOG_LEVEL: 'info',
    WEB_ROOT: join(process.cwd(), 'dist', 'web'),
    MAIL_POLL_INTERVAL_MS: String(E2E_MAIL_POLL_INTERVAL_MS),
  };
}
