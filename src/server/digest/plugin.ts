import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../platform/config';
import type { Database } from '../db/client';
import type { Clock } from '../platform/clock';
import { PermanentComposeError, type ComposeMail } from '../mail/relay';
import { createDigestComposer } from './compose';
import { createDigestCheck, startDigestRunner, type DigestRun, type DigestRunner } from './runner';

/** The staff digest as the app holds it (`app.digest`): one check on demand, for tests. */
export interface AppDigest {
  /** Queues the digest due at the clock's now, if any (see createDigestCheck); resolves with what it queued. */
  queueDue(): Promise<DigestRun | undefined>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The staff's daily digest (issue #14); see registerDigest. */
    digest: AppDigest;
  }
}

/**
 * Registers the staff's daily digest (issue #14): `app.digest`, and, when STAFF_EMAILS is set, the digest runner on
 * `clock`, started when the server listens (so `app.inject()` tests queue digests only when they ask) and stopped when
 * the app closes. Returns the composer of `staff_digest` messages for the mail relay; without STAFF_EMAILS it rejects
 * such a message (one queued before the variable was unset) with PermanentComposeError.
 */
export function registerDigest(app: FastifyInstance, { db, config, clock }: { db: Database; config: ServerConfig; clock: Clock }): { compose: ComposeMail } {
  const deps = { db, clock, log: app.log, settings: config.digest };
  app.decorate('digest', { queueDue: createDigestCheck(deps) } satisfies AppDigest);
  let running: DigestRunner | undefined;
  app.addHook('onListen', async () => {
    if (config.digest) running ??= startDigestRunner(deps);
  });
  app.addHook('onClose', async () => {
    await running?.stop();
  });
  const compose: ComposeMail = config.digest
    ? createDigestComposer({ db, organizationName: config.organization.legalName, timeZone: config.digest.timeZone })
    : async (row) => {
        throw new PermanentComposeError(`Outbox message ${row.id} is a staff digest, but STAFF_EMAILS is unset`);
      };
  return { compose };
}
