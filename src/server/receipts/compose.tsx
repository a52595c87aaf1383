import type { OrganizationProfile } from '../platform/config';
import type { Database } from '../db/client';
import type { MailOutboxRow } from '../db/schema';
import type { Clock } from '../platform/clock';
import { PermanentComposeError, type ComposedMail, type ComposeMail } from '../mail/relay';
import {
  PartialRefundEmail,
  ReceiptEmail,
  ReceiptLinksEmail,
  ReceiptVoidEmail,
  YearEndStatementEmail,
  emailContextIn,
  type ListedReceipt,
} from './emails/receipt-email';
import { receiptPdfUrl, type ReceiptLinkSigner } from './receipt-link';
import { renderReceiptPdf } from './receipt-pdf';
import { formatAmountCents, type RecurringReceiptNoteOf } from './receipt-view';
import { findReceiptByDonationId, findRefundNoticeDetails, listReceiptsByEmail, type ReceiptDetails } from './repository';
import { renderEmailParts } from '../mail/render-email';
import { type Locale, SOURCE_LOCALE } from '../../shared/i18n/locales';
import { serverI18n } from '../i18n/catalogues';

/**
 * The language of a message listing an address's receipts (issue #24; decision 0094): the one the donor asked in
 * (`row.locale`, the page's language of a resend request), else the latest listed gift's (`receipts` oldest first).
 */
function listLocale(row: MailOutboxRow, receipts: ReceiptDetails[]): Locale {
  return row.locale ?? receipts.at(-1)?.locale ?? SOURCE_LOCALE;
}

/** What the composer needs: the database, the organisation, the site's public URL, the link signer and the clock. */
export interface ReceiptComposerDeps {
  db: Database;
  organization: OrganizationProfile;
  /** PUBLIC_URL: links in e-mails are absolute. */
  publicUrl: string;
  links: ReceiptLinkSigner;
  clock: Clock;
  /** The recurring note of a receipt (issue #13: next charge, manage link); none by default. */
  recurringNoteOf?: RecurringReceiptNoteOf;
}

/**
 * The composer of every outbox kind (the relay's `compose`): renders the message from the rows it names, when it
 * is sent. A receipt gets its PDF attached (`receipt-<number>.pdf`); a partial refund's notice (issue #14) names the
 * refund and links the receipt's PDF, which states the refund. Rejects with PermanentComposeError when the
 * message can never be rendered (no receipt for its donation; nothing to list), so the relay stops retrying it.
 */
export function createReceiptComposer(deps: ReceiptComposerDeps): ComposeMail {
  // Issue #24: every message is in one language, its links to that language's pages.
  const contextIn = (locale: Locale) => emailContextIn(deps.organization, deps.publicUrl, locale);
  const pdfUrlOf = (receipt: ReceiptDetails) => receiptPdfUrl(deps.publicUrl, deps.links.sign(receipt.transactionId, deps.clock.now()));
  const listed = (receipts: ReceiptDetails[]): ListedReceipt[] => receipts.map((receipt) => ({ receipt, pdfUrl: pdfUrlOf(receipt) }));
  const receiptOf = async (row: MailOutboxRow, donationId = row.donationId) => {
    const receipt = donationId ? await findReceiptByDonationId(deps.db, donationId) : undefined;
    if (!receipt) throw new PermanentComposeError(`Outbox message ${row.id} names no receipt`);
    return receipt;
  };

  return async (row): Promise<ComposedMail> => {
    switch (row.kind) {
      // A receipt sent again by staff (issue #21) is the receipt itself, to the address the row names.
      case 'receipt':
      case 'receipt_resend': {
        const receipt = await receiptOf(row);
        const pdfUrl = pdfUrlOf(receipt);
        // Issue #39: a one-time gift belongs to no plan (only a monthly or yearly gift starts one, or renews it), so its
        // receipt skips the plan's lookup: one statement fewer for most receipts.
        const recurring = receipt.frequency === 'one-time' ? undefined : await deps.recurringNoteOf?.(receipt.donationId);
        const locale = receipt.locale ?? SOURCE_LOCALE;
        const i18n = serverI18n(locale);
        const [parts, pdf] = await Promise.all([
          renderEmailParts(<ReceiptEmail receipt={receipt} pdfUrl={pdfUrl} context={contextIn(locale)} recurring={recurring} />),
          renderReceiptPdf({ ...receipt, ...recurring }, { organization: deps.organization, pdfUrl, publicUrl: deps.publicUrl }),
        ]);
        return {
          to: row.recipient,
          subject: i18n._('email.receipt.subject', {
            number: receipt.number,
            amount: formatAmountCents(receipt.amountCents, receipt.currency, locale),
            organization: deps.organization.legalName,
          }),
          ...parts,
          attachments: [{ filename: `receipt-${receipt.number}.pdf`, content: pdf, contentType: 'application/pdf' }],
        };
      }
      case 'receipt_void': {
        const receipt = await receiptOf(row);
        const locale = receipt.locale ?? SOURCE_LOCALE;
        const i18n = serverI18n(locale);
        return {
          to: row.recipient,
          subject: i18n._('email.void.subject', { number: receipt.number }),
          ...(await renderEmailParts(<ReceiptVoidEmail receipt={receipt} context={contextIn(locale)} />)),
        };
      }
      case 'partial_refund': {
        const refund = row.refundId ? await findRefundNoticeDetails(deps.db, row.refundId) : undefined;
        if (!refund) throw new PermanentComposeError(`Outbox message ${row.id} names no refund`);
        const receipt = await receiptOf(row, refund.donationId);
        const locale = receipt.locale ?? SOURCE_LOCALE;
        const i18n = serverI18n(locale);
        return {
          to: row.recipient,
          subject: i18n._('email.partialRefund.subject', {
            refunded: formatAmountCents(refund.amountCents, receipt.currency, locale),
            number: receipt.number,
          }),
          ...(await renderEmailParts(<PartialRefundEmail receipt={receipt} refund={refund} pdfUrl={pdfUrlOf(receipt)} context={contextIn(locale)} />)),
        };
      }
      case 'receipt_links': {
        const receipts = await listReceiptsByEmail(deps.db, row.recipient);
        if (receipts.length === 0) throw new PermanentComposeError(`Outbox message ${row.id} has no receipts to list`);
        const locale = listLocale(row, receipts);
        const i18n = serverI18n(locale);
        return {
          to: row.recipient,
          subject: i18n._('email.receiptLinks.subject', { organization: deps.organization.legalName }),
          ...(await renderEmailParts(<ReceiptLinksEmail receipts={listed(receipts)} context={contextIn(locale)} locale={locale} />)),
        };
      }
      case 'year_end_statement': {
        const year = row.statementYear ?? 0;
        const receipts = await listReceiptsByEmail(deps.db, row.recipient, year);
        if (receipts.length === 0) throw new PermanentComposeError(`Outbox message ${row.id} has no donations of ${year}`);
        const locale = listLocale(row, receipts);
        const i18n = serverI18n(locale);
        return {
          to: row.recipient,
          subject: i18n._('email.statement.subject', { year: String(year), organization: deps.organization.legalName }),
          ...(await renderEmailParts(<YearEndStatementEmail year={year} receipts={listed(receipts)} context={contextIn(locale)} locale={locale} />)),
        };
      }
      default:
        // NOTE: the mail of recurring plans (issue #13) has its own composer (recurring/compose.tsx); app.ts routes it there.
        throw new PermanentComposeError(`Outbox message ${row.id} (${row.kind}) is not a receipt message`);
    }
  };
}
