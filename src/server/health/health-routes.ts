import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '../db/client';
import { MIGRATIONS_FOLDER } from '../db/client';

/**
 * Health checks for a load balancer (issue #14, "Operating the process"): `GET /healthz` (liveness: the process
 * answers) and `GET /readyz` (readiness: the database answers and every migration of drizzle/ is applied).
 * Neither reads donor data nor writes anything; both are cheap enough to be polled every few seconds.
 */

/** Paths of the health checks. */
export const HEALTH_PATHS = { live: '/healthz', ready: '/readyz' } as const;

const LiveSchema = z.object({ status: z.literal('ok') });
const ReadySchema = z.object({ status: z.enum(['ready', 'not_ready']), reason: z.string().optional() });

/** Number of migrations in drizzle/meta/_journal.json: what a ready database has applied. */
async function expectedMigrationCount(): Promise<number> {
  const journal = JSON.parse(await readFile(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
  return journal.entries.length;
}

/**
 * The database's readiness: undefined when it answers and has applied every migration (Drizzle's record in
 * `drizzle.__drizzle_migrations`), or the reason it is not ready.
 */
export async function notReadyReason(db: Database, migrations: number): Promise<string | undefined> {
  try {
    const result = (await db.execute(sql`SELECT count(*)::int AS applied FROM drizzle.__drizzle_migrations`)) as unknown as {
      rows: Array<{ applied: number }>;
    };
    const applied = result.rows[0]?.applied ?? 0;
    return applied >= migrations ? undefined : `${applied} of ${migrations} migrations applied`;
  } catch {
    return 'database unavailable';
  }
}

/**
 * Registers the health checks on `app`. `GET /healthz` answers 200 `{status: 'ok'}` while the process runs;
 * `GET /readyz` answers 200 `{status: 'ready'}`, or 503 `{status: 'not_ready', reason}` when the embedded database
 * server is not ready or this process lost its connection to it (`serverReadiness`, issue #25), the database does
 * not answer, or a migration is missing. Both `Cache-Control: no-store`.
 */
export async function registerHealthRoutes(
  app: FastifyInstance,
  { db, serverReadiness }: { db: Database; serverReadiness?: () => Promise<string | undefined> },
): Promise<void> {
  const migrations = await expectedMigrationCount();
  app.get(HEALTH_PATHS.live, { schema: { response: { 200: LiveSchema } } }, async (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'ok' as const }),
  );
  app.get(HEALTH_PATHS.ready, { schema: { response: { 200: ReadySchema, 503: ReadySchema } } }, async (request, reply) => {
    const reason = (await serverReadiness?.().catch(() => 'database unavailable')) ?? (await notReadyReason(db, migrations));
    reply.header('cache-control', 'no-store');
    if (reason === undefined) return reply.code(200).send({ status: 'ready' as const });
    request.log.warn({ reason }, 'Not ready');
    return reply.code(503).send({ status: 'not_ready' as const, reason });
  });
}
