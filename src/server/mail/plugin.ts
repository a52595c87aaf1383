import type { FastifyInstance } from 'fastify';
import type { MailSettings } from '../platform/config';
import type { Database } from '../db/client';
import type { Clock } from '../platform/clock';
import { relayDueMail, startMailRelay, type ComposeMail, type RelayReport, type RunningMailRelay } from './relay';
import { createMailTransport, type MailTransport } from './transport';

/** The mail relay as the app holds it (`app.mail`): one run on demand, for tests and operator actions. */
export interface AppMail {
  /** SMTP or `.eml` files (SMTP_URL set or not). */
  readonly transport: MailTransport;
  /** Sends every message due now (one relay run, see relayDueMail) and resolves with what it did. */
  relayDue(): Promise<RelayReport>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Outgoing mail (issue #12); see registerMail. */
    mail: AppMail;
  }
}

/** What registerMail needs. */
export interface MailOptions {
  db: Database;
  settings: MailSettings;
  compose: ComposeMail;
  clock: Clock;
  /** A transport to use instead of the one `settings` select (tests). */
  transport?: MailTransport;
}

/**
 * Registers outgoing mail on the root instance (issue #12): the transport SMTP_URL / MAIL_DIR select, `app.mail`,
 * and the relay loop, started when the server starts listening (so `app.inject()` tests run it only when they ask,
 * through `app.mail.relayDue()`) and stopped, with the transport, when the app closes. The relay logs with the
 * app's logger (outbox ids and Message-IDs only).
 */
export async function registerMail(app: FastifyInstance, options: MailOptions): Promise<void> {
  const transport = options.transport ?? createMailTransport(options.settings);
  const deps = { db: options.db, transport, compose: options.compose, clock: options.clock, log: app.log, from: options.settings.from, rendered: new Map() };
  let running: RunningMailRelay | undefined;
  app.decorate('mail', { transport, relayDue: () => relayDueMail(deps) } satisfies AppMail);
  app.addHook('onListen', async () => {
    running ??= startMailRelay(deps, options.settings.pollIntervalMs);
  });
  app.addHook('onClose', async () => {
    await running?.stop();
    transport.close();
  });
}
