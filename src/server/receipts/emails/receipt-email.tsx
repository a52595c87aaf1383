import { Button, Heading, Link, Section, Text } from '@react-email/components';
import { SOURCE_LOCALE } from '../../../shared/i18n/locales';
import { DOWNLOAD_RECEIPT_LABEL } from '../../../shared/receipts';
import { serverI18n } from '../../i18n/catalogues';
import type { OrganizationProfile } from '../../platform/config';
import { keptAmountCents } from '../../ledger/kept-amount';
import { formatAmountCents, formatReceiptDate, receiptLines, type RecurringReceiptNote } from '../receipt-view';
import type { ReceiptDetails, RefundNoticeDetails } from '../repository';
import { LabelledLines } from './labelled-lines';
import { EmailLayout } from './layout';

/** What every receipt e-mail needs besides its own content. */
export interface EmailContext {
  organization: OrganizationProfile;
  /** Absolute URL of /donate/receipts. */
  receiptsPageUrl: string;
}

/** The link text of a receipt's PDF, the same in the e-mail and on the thank-you page (issue #12; shared). */
export { DOWNLOAD_RECEIPT_LABEL };

/**
 * A donation's receipt (issue #12, "Contents"): the receipt's lines (receiptLines), the tax wording, and the link to
 * download the PDF again. The PDF itself is attached by the composer.
 */
export function ReceiptEmail({
  receipt,
  pdfUrl,
  context,
  recurring,
}: {
  receipt: ReceiptDetails;
  pdfUrl: string;
  context: EmailContext;
  /** A recurring plan's gift (issue #13): its next charge (a receipt line) and the link to manage the plan. */
  recurring?: RecurringReceiptNote;
}) {
  // Issue #24: in the gift's language; the context's links are that language's pages.
  const locale = receipt.locale ?? SOURCE_LOCALE;
  const i18n = serverI18n(locale);
  return (
    <EmailLayout
      organization={context.organization}
      receiptsPageUrl={context.receiptsPageUrl}
      locale={locale}
      preview={i18n._('email.receipt.preview', { number: receipt.number, amount: formatAmountCents(receipt.amountCents, receipt.currency, locale) })}
    >
      <Heading as="h2" style={{ fontSize: '18px' }}>
        {i18n._('email.receipt.heading')}
      </Heading>
      {receipt.isTestPayment && <Text>{i18n._('email.receipt.testPayment')}</Text>}
      <LabelledLines lines={receiptLines({ ...receipt, ...recurring })} />
      <Text>{context.organization.taxStatement}</Text>
      <Button href={pdfUrl} style={{ backgroundColor: '#00695c', color: '#ffffff', padding: '12px 20px', borderRadius: '4px' }}>
        {i18n._('email.receipt.download')}
      </Button>
      <Text style={{ fontSize: '12px', color: '#555555' }}>{i18n._('email.receipt.pdfNote')}</Text>
      {recurring && (
        <Text>
          {i18n._('email.receipt.recurring')} <Link href={recurring.manageUrl}>{i18n._('email.receipt.manageLink')}</Link>
        </Text>
      )}
    </EmailLayout>
  );
}

/** The notice that voids a receipt after a refund (issue #12: a refund voids the receipt, never edits it). */
export function ReceiptVoidEmail({ receipt, context }: { receipt: ReceiptDetails; context: EmailContext }) {
  return (
    <EmailLayout organization={context.organization} receiptsPageUrl={context.receiptsPageUrl} preview={`Receipt ${receipt.number} is void`}>
      <Heading as="h2" style={{ fontSize: '18px' }}>
        Receipt {receipt.number} is void
      </Heading>
      <Text>
        Your donation of {formatAmountCents(receipt.amountCents, receipt.currency)} on {formatReceiptDate(receipt.issuedAt)} (transaction{' '}
        {receipt.transactionId}) was refunded, so receipt {receipt.number} is no longer valid. Please do not use it for your tax
        records.
      </Text>
    </EmailLayout>
  );
}

/**
 * The notice of a partial refund (issue #14; decision 0058): how much of which gift was refunded and when, and what
 * the receipt now stands for (the gift after this refund and the ones before it), with the link to its PDF, which
 * states it too. The receipt keeps its number; the donor uses the amount after refunds for their tax records.
 */
export function PartialRefundEmail({
  receipt,
  refund,
  pdfUrl,
  context,
}: {
  receipt: ReceiptDetails;
  refund: RefundNoticeDetails;
  pdfUrl: string;
  context: EmailContext;
}) {
  const refunded = formatAmountCents(refund.amountCents, receipt.currency);
  const kept = formatAmountCents(keptAmountCents({ amountCents: receipt.amountCents, refundedCents: refund.refundedCentsSoFar }), receipt.currency);
  return (
    <EmailLayout organization={context.organization} receiptsPageUrl={context.receiptsPageUrl} preview={`${refunded} of your donation was refunded`}>
      <Heading as="h2" style={{ fontSize: '18px' }}>
        {refunded} of your donation was refunded
      </Heading>
      <Text>
        On {formatReceiptDate(refund.createdAt)} we refunded {refunded} of your donation of {formatAmountCents(receipt.amountCents, receipt.currency)} made
        on {formatReceiptDate(receipt.issuedAt)} (transaction {receipt.transactionId}). The refund goes back to the card you paid with.
      </Text>
      <Text style={{ fontWeight: 'bold' }}>
        Receipt {receipt.number} now stands for {kept}, your gift after refunds. Please use this amount for your tax records.
      </Text>
      <Button href={pdfUrl} style={{ backgroundColor: '#00695c', color: '#ffffff', padding: '12px 20px', borderRadius: '4px' }}>
        {DOWNLOAD_RECEIPT_LABEL}
      </Button>
      <Text style={{ fontSize: '12px', color: '#555555' }}>The receipt's PDF shows the refund and the amount after it.</Text>
    </EmailLayout>
  );
}

/** One donation of a list: its receipt and the link to its PDF. */
export interface ListedReceipt {
  receipt: ReceiptDetails;
  pdfUrl: string;
}

/** The answer to a resend request (POST /api/receipts/resend): one line per donation with its receipt link. */
export function ReceiptLinksEmail({ receipts, context }: { receipts: ListedReceipt[]; context: EmailContext }) {
  return (
    <EmailLayout organization={context.organization} receiptsPageUrl={context.receiptsPageUrl} preview="Your donation receipts">
      <Heading as="h2" style={{ fontSize: '18px' }}>
        Your donation receipts
      </Heading>
      <Text>You asked for the receipts of the donations made with this address. Each link downloads one receipt as a PDF.</Text>
      <Section>
        {receipts.map(({ receipt, pdfUrl }) => (
          <Text key={receipt.number} style={{ margin: '4px 0' }}>
            {formatReceiptDate(receipt.issuedAt)}: {formatAmountCents(receipt.amountCents, receipt.currency)}
            {receipt.voidedAt ? ' (refunded, void)' : receipt.refundedCents > 0 ? ` (${formatAmountCents(receipt.refundedCents, receipt.currency)} refunded)` : ''} ·{' '}
            <Link href={pdfUrl}>Receipt {receipt.number} (PDF)</Link>
          </Text>
        ))}
      </Section>
      <Text style={{ fontSize: '12px', color: '#555555' }}>If you did not ask for this message, you can ignore it.</Text>
    </EmailLayout>
  );
}

/**
 * A year-end statement (issue #12): each date and amount of `year` (refunded gifts left out) and the total. A partly
 * refunded gift counts for what was kept (issue #14; decision 0058).
 */
export function YearEndStatementEmail({ year, receipts, context }: { year: number; receipts: ListedReceipt[]; context: EmailContext }) {
  const currencies = new Set(receipts.map(({ receipt }) => receipt.currency));
  const [currency] = currencies;
  const totalCents = receipts.reduce((sum, { receipt }) => sum + keptAmountCents(receipt), 0);
  return (
    <EmailLayout organization={context.organization} receiptsPageUrl={context.receiptsPageUrl} preview={`Your donations in ${year}`}>
      <Heading as="h2" style={{ fontSize: '18px' }}>
        Your donations in {year}
      </Heading>
      <Section>
        {receipts.map(({ receipt, pdfUrl }) => (
          <Text key={receipt.number} style={{ margin: '4px 0' }}>
            {formatReceiptDate(receipt.issuedAt)}: {formatAmountCents(keptAmountCents(receipt), receipt.currency)}
            {receipt.refundedCents > 0 ? ` (after a refund of ${formatAmountCents(receipt.refundedCents, receipt.currency)})` : ''} ·{' '}
            <Link href={pdfUrl}>Receipt {receipt.number} (PDF)</Link>
          </Text>
        ))}
      </Section>
      {currencies.size === 1 && currency && <Text style={{ fontWeight: 'bold' }}>Total: {formatAmountCents(totalCents, currency)}</Text>}
      <Text>{context.organization.taxStatement}</Text>
    </EmailLayout>
  );
}
