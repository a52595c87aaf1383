import { Button, Heading, Link, Section, Text } from '@react-email/components';
import { type Locale, SOURCE_LOCALE } from '../../../shared/i18n/locales';
import { DOWNLOAD_RECEIPT_LABEL } from '../../../shared/receipts';
import { serverI18n } from '../../i18n/catalogues';
import type { OrganizationProfile } from '../../platform/config';
import { keptAmountCents } from '../../ledger/kept-amount';
import { formatAmountCents, formatReceiptDate, giftDateOf, receiptLines, taxStatementIn, type RecurringReceiptNote } from '../receipt-view';
import type { ReceiptDetails, RefundNoticeDetails } from '../repository';
import { receiptsPageUrl } from '../receipt-link';
import { LabelledLines } from './labelled-lines';
import { EmailLayout } from './layout';

/** What every receipt e-mail needs besides its own content. */
export interface EmailContext {
  organization: OrganizationProfile;
  /** Absolute URL of /donate/receipts. */
  receiptsPageUrl: string;
}

/**
 * The context of an e-mail in `locale` (issue #24): the organisation, and the receipts page in that language
 * (`<publicUrl>/es/donate/receipts`), which the footer links. `publicUrl` is PUBLIC_URL.
 */
export function emailContextIn(organization: OrganizationProfile, publicUrl: string, locale: Locale): EmailContext {
  return { organization, receiptsPageUrl: receiptsPageUrl(publicUrl, locale) };
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
      <Text>{taxStatementIn(context.organization, locale)}</Text>
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

/** The notice that voids a receipt after a refund (issue #12: a refund voids the receipt, never edits it), in the gift's language (issue #24). */
export function ReceiptVoidEmail({ receipt, context }: { receipt: ReceiptDetails; context: EmailContext }) {
  const locale = receipt.locale ?? SOURCE_LOCALE;
  const i18n = serverI18n(locale);
  const heading = i18n._('email.void.heading', { number: receipt.number });
  return (
    <EmailLayout organization={context.organization} receiptsPageUrl={context.receiptsPageUrl} locale={locale} preview={heading}>
      <Heading as="h2" style={{ fontSize: '18px' }}>
        {heading}
      </Heading>
      <Text>
        {i18n._('email.void.body', {
          amount: formatAmountCents(receipt.amountCents, receipt.currency, locale),
          date: formatReceiptDate(giftDateOf(receipt), locale),
          transactionId: receipt.transactionId,
          number: receipt.number,
        })}
      </Text>
    </EmailLayout>
  );
}

/**
 * The notice of a partial refund (issue #14; decision 0058): how much of which gift was refunded and when, and what
 * the receipt now stands for (the gift after this refund and the ones before it), with the link to its PDF, which
 * states it too. The receipt keeps its number; the donor uses the amount after refunds for their tax records. In the
 * gift's language (issue #24).
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
  const locale = receipt.locale ?? SOURCE_LOCALE;
  const i18n = serverI18n(locale);
  const amount = (cents: number) => formatAmountCents(cents, receipt.currency, locale);
  const refunded = amount(refund.amountCents);
  const kept = amount(keptAmountCents({ amountCents: receipt.amountCents, refundedCents: refund.refundedCentsSoFar }));
  const heading = i18n._('email.partialRefund.heading', { refunded });
  return (
    <EmailLayout organization={context.organization} receiptsPageUrl={context.receiptsPageUrl} locale={locale} preview={heading}>
      <Heading as="h2" style={{ fontSize: '18px' }}>
        {heading}
      </Heading>
      <Text>
        {i18n._('email.partialRefund.body', {
          refundDate: formatReceiptDate(refund.createdAt, locale),
          refunded,
          amount: amount(receipt.amountCents),
          giftDate: formatReceiptDate(giftDateOf(receipt), locale),
          transactionId: receipt.transactionId,
        })}
      </Text>
      <Text style={{ fontWeight: 'bold' }}>{i18n._('email.partialRefund.standsFor', { number: receipt.number, kept })}</Text>
      <Button href={pdfUrl} style={{ backgroundColor: '#00695c', color: '#ffffff', padding: '12px 20px', borderRadius: '4px' }}>
        {i18n._('email.receipt.download')}
      </Button>
      <Text style={{ fontSize: '12px', color: '#555555' }}>{i18n._('email.partialRefund.pdfNote')}</Text>
    </EmailLayout>
  );
}

/** One donation of a list: its receipt and the link to its PDF. */
export interface ListedReceipt {
  receipt: ReceiptDetails;
  pdfUrl: string;
}

/** `Receipt 2026-000012 (PDF)`: the link of one listed receipt, in `locale`. */
function ListedReceiptLink({ number, pdfUrl, locale }: { number: string; pdfUrl: string; locale: Locale }) {
  const i18n = serverI18n(locale);
  return <Link href={pdfUrl}>{i18n._('email.receiptList.pdfLink', { number })}</Link>;
}

/**
 * The answer to a resend request (POST /api/receipts/resend): one line per donation with its receipt link, in
 * `locale` (the language the donor asked in, else their latest gift's; issue #24).
 */
export function ReceiptLinksEmail({ receipts, context, locale }: { receipts: ListedReceipt[]; context: EmailContext; locale: Locale }) {
  const i18n = serverI18n(locale);
  const amount = (cents: number, currency: string) => formatAmountCents(cents, currency, locale);
  const heading = i18n._('email.receiptLinks.heading');
  return (
    <EmailLayout organization={context.organization} receiptsPageUrl={context.receiptsPageUrl} locale={locale} preview={heading}>
      <Heading as="h2" style={{ fontSize: '18px' }}>
        {heading}
      </Heading>
      <Text>{i18n._('email.receiptLinks.intro')}</Text>
      <Section>
        {receipts.map(({ receipt, pdfUrl }) => {
          const values = {
            date: formatReceiptDate(giftDateOf(receipt), locale),
            amount: amount(receipt.amountCents, receipt.currency),
            refunded: amount(receipt.refundedCents, receipt.currency),
          };
          const line = receipt.voidedAt
            ? i18n._('email.receiptLinks.lineVoid', values)
            : receipt.refundedCents > 0
              ? i18n._('email.receiptLinks.lineRefunded', values)
              : i18n._('email.receiptList.line', values);
          return (
            <Text key={receipt.number} style={{ margin: '4px 0' }}>
              {line} · <ListedReceiptLink number={receipt.number} pdfUrl={pdfUrl} locale={locale} />
            </Text>
          );
        })}
      </Section>
      <Text style={{ fontSize: '12px', color: '#555555' }}>{i18n._('email.receiptLinks.ignore')}</Text>
    </EmailLayout>
  );
}

/**
 * A year-end statement (issue #12): each date and amount of `year` (refunded gifts left out) and the total. A partly
 * refunded gift counts for what was kept (issue #14; decision 0058). In `locale` (the donor's latest gift's; issue #24).
 */
export function YearEndStatementEmail({ year, receipts, context, locale }: { year: number; receipts: ListedReceipt[]; context: EmailContext; locale: Locale }) {
  const i18n = serverI18n(locale);
  const currencies = new Set(receipts.map(({ receipt }) => receipt.currency));
  const [currency] = currencies;
  const totalCents = receipts.reduce((sum, { receipt }) => sum + keptAmountCents(receipt), 0);
  const heading = i18n._('email.statement.heading', { year: String(year) });
  return (
    <EmailLayout organization={context.organization} receiptsPageUrl={context.receiptsPageUrl} locale={locale} preview={heading}>
      <Heading as="h2" style={{ fontSize: '18px' }}>
        {heading}
      </Heading>
      <Section>
        {receipts.map(({ receipt, pdfUrl }) => {
          const values = {
            date: formatReceiptDate(giftDateOf(receipt), locale),
            amount: formatAmountCents(keptAmountCents(receipt), receipt.currency, locale),
            refunded: formatAmountCents(receipt.refundedCents, receipt.currency, locale),
          };
          return (
            <Text key={receipt.number} style={{ margin: '4px 0' }}>
              {receipt.refundedCents > 0 ? i18n._('email.statement.lineAfterRefund', values) : i18n._('email.receiptList.line', values)} ·{' '}
              <ListedReceiptLink number={receipt.number} pdfUrl={pdfUrl} locale={locale} />
            </Text>
          );
        })}
      </Section>
      {currencies.size === 1 && currency && (
        <Text style={{ fontWeight: 'bold' }}>{i18n._('email.statement.total', { amount: formatAmountCents(totalCents, currency, locale) })}</Text>
      )}
      <Text>{taxStatementIn(context.organization, locale)}</Text>
    </EmailLayout>
  );
}
