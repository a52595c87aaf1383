import { Body, Container, Head, Heading, Hr, Html, Preview, Section, Text } from '@react-email/components';
import { CAUSE_DETAILS } from '../../shared/causes';
import { CURRENCY } from '../../shared/money';
import { startOfDay } from '../recurring/calendar';
import { formatAmountCents } from '../receipts/receipt-view';
import type { DailyDigest, MailTally } from './report';

/**
 * The staff's daily digest e-mail (issue #14): the day's gifts and what they came to, by cause and by campaign (issue #23); new and cancelled
 * recurring plans; failed renewals; mail that could not be sent. Counts and sums only (decision 0063): a staff member
 * who needs the gifts themselves exports them (GET /api/admin/donations.csv). Rendered to HTML and plain text from
 * this one tree (renderEmailParts).
 */

const page = { backgroundColor: '#f4f7f7', fontFamily: 'Arial, Helvetica, sans-serif', color: '#1a1a1a' };
const card = { backgroundColor: '#ffffff', padding: '24px', margin: '24px auto', maxWidth: '560px', borderRadius: '8px' };
const line = { margin: '4px 0' };
const small = { fontSize: '12px', color: '#555555', lineHeight: '18px' };

/** The parts of a written date, in UTC: the digest's day is a calendar date already in the staff's zone. */
const dateParts = new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/**
 * `Sunday 8 March 2026`: a calendar date as staff read it. NOTE: joined from its parts, as ICU versions (Node 20, 22,
 * 24) differ on the comma after the weekday.
 */
export function formatDigestDate(date: string): string {
  const parts = Object.fromEntries(dateParts.formatToParts(startOfDay(date)).map((part) => [part.type, part.value]));
  return `${parts.weekday} ${parts.day} ${parts.month} ${parts.year}`;
}

/** `1 gift` or `3 gifts`. */
export function giftsLabel(count: number): string {
  return `${count} ${count === 1 ? 'gift' : 'gifts'}`;
}

/** `$1,234.50 USD`: cents in the site's currency (CURRENCY; the site takes no other). */
const amount = (amountCents: number) => formatAmountCents(amountCents, CURRENCY);

/** `receipt: 2, renewal_failed: 1`, or `none`. */
const byKind = (tallies: MailTally[]) => (tallies.length === 0 ? 'none' : tallies.map((tally) => `${tally.kind}: ${tally.count}`).join(', '));

/** The digest of `digest.date`, for the organisation `organizationName` (ORG_LEGAL_NAME). */
export function DigestEmail({ digest, organizationName }: { digest: DailyDigest; organizationName: string }) {
  const { gifts, failedRenewals, mail } = digest;
  const day = formatDigestDate(digest.date);
  return (
    <Html lang="en">
      <Head />
      <Preview>{`${day}: ${giftsLabel(gifts.count)}, ${amount(gifts.amountCents)}`}</Preview>
      <Body style={page}>
        <Container style={card}>
          <Heading as="h1" style={{ fontSize: '22px', color: '#00695c', margin: '0 0 16px' }}>
            {organizationName}: daily digest
          </Heading>
          <Text>
            {day}, from midnight to midnight in {digest.timeZone}.
          </Text>
          <Section>
            <Heading as="h2" style={{ fontSize: '18px' }}>
              Gifts received
            </Heading>
            <Text style={line}>
              Total: {amount(gifts.amountCents)} from {giftsLabel(gifts.count)}
            </Text>
            {gifts.byCause.map((tally) => (
              <Text key={tally.cause} style={line}>
                {CAUSE_DETAILS[tally.cause].displayName}: {amount(tally.amountCents)} from {giftsLabel(tally.count)}
              </Text>
            ))}
            <Text style={line}>
              Dedicated gifts: {digest.dedicatedGifts.honor} in honour, {digest.dedicatedGifts.memory} in memory of someone
            </Text>
            {digest.byCampaign.map((tally) => (
              <Text key={`campaign-${tally.campaign}`} style={line}>
                Campaign {tally.campaign}: {amount(tally.amountCents)} from {giftsLabel(tally.count)}
              </Text>
            ))}
          </Section>
          <Section>
            <Heading as="h2" style={{ fontSize: '18px' }}>
              Recurring gifts
            </Heading>
            <Text style={line}>New plans: {digest.newPlans}</Text>
            <Text style={line}>Cancelled plans: {digest.cancelledPlans}</Text>
            <Text style={line}>
              Failed renewals: {failedRenewals.count} ({amount(failedRenewals.amountCents)})
            </Text>
          </Section>
          <Section>
            <Heading as="h2" style={{ fontSize: '18px' }}>
              Mail that could not be sent
            </Heading>
            <Text style={line}>Given up in the day: {byKind(mail.failed)}</Text>
            <Text style={line}>Still being retried: {byKind(mail.retrying)}</Text>
          </Section>
          <Hr />
          <Text style={small}>
            Amounts are what the charity kept: refunds made since are taken off, and a gift refunded in full or disputed is left out.
            Each failed message is in the server log as a mail.failed event. The gifts themselves are in the donation export
            (npm run admin -- export).
          </Text>
        </Container>
      </Body>
    </Html>
  );
}
