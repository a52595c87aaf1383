import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config';
import type { Database } from '../db/client';
import type { Clock } from '../mail/clock';
import type { ComposeMail } from '../mail/relay';
import { createReceiptComposer } from './compose';
import { createReceiptLinkSigner, receiptLinkKey, type ReceiptLinkSigner } from './receipt-link';
import { addReceiptLinkToDonationAnswers, receiptRoutes } from './routes';

/** What the rest of the app uses of receipts: the composer the mail relay renders messages with, and the link signer. */
export interface Receipts {
  compose: ComposeMail;
  links: ReceiptLinkSigner;
}

/**
 * Registers receipts (issue #12): the `receiptUrl` of successful donation answers (a root hook, so call this
 * BEFORE the donation routes are registered), and the receipt routes. Returns the composer for registerMail.
 */
export async function registerReceipts(
  app: FastifyInstance,
  { db, config, clock }: { db: Database; config: ServerConfig; clock: Clock },
): Promise<Receipts> {
  const links = createReceiptLinkSigner(receiptLinkKey(config.cookieSecret));
  const options = { db, organization: config.organization, publicUrl: config.site.publicUrl, links, clock };
  addReceiptLinkToDonationAnswers(app, options);
  await app.register(receiptRoutes, options);
  return { compose: createReceiptComposer(options), links };
}
