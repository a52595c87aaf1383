import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../platform/config';
import type { Database } from '../db/client';
import type { Clock } from '../platform/clock';
import type { ComposeMail } from '../mail/relay';
import { createReceiptComposer } from './compose';
import { createReceiptLinkSigner, receiptLinkKey, type ReceiptLinkSigner } from './receipt-link';
import type { RecurringReceiptNoteOf } from './receipt-view';
import { addReceiptLinkToDonationAnswers, receiptRoutes } from './routes';
import { startYearEndStatementRunner, type YearEndStatementRunner } from './statements';

/** What the rest of the app uses of receipts: the composer the mail relay renders messages with, and the link signer. */
export interface Receipts {
  compose: ComposeMail;
  links: ReceiptLinkSigner;
}

/**
 * Registers receipts (issue #12): the `receiptUrl` of successful donation answers (a root hook, so call this
 * BEFORE the donation routes are registered), the receipt routes (the PDF link, the resend), and the January
 * runner of year-end statements on `clock`, started when the server listens (so `app.inject()` tests start it
 * only if they listen) and stopped when the app closes. Returns the composer for registerMail.
 */
export async function registerReceipts(
  app: FastifyInstance,
  { db, config, clock, recurringNoteOf }: { db: Database; config: ServerConfig; clock: Clock; recurringNoteOf?: RecurringReceiptNoteOf },
): Promise<Receipts> {
  const links = createReceiptLinkSigner(receiptLinkKey(config.cookieSecret));
  const options = { db, organization: config.organization, publicUrl: config.site.publicUrl, links, clock };
  addReceiptLinkToDonationAnswers(app, options);
  await app.register(receiptRoutes, options);
  let statements: YearEndStatementRunner | undefined;
  app.addHook('onListen', async () => {
    statements ??= startYearEndStatementRunner({ db, clock, log: app.log });
  });
  app.addHook('onClose', async () => {
    await statements?.stop();
  });
  return { compose: createReceiptComposer({ ...options, recurringNoteOf }), links };
}
