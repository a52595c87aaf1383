import { Body, Container, Head, Heading, Hr, Html, Preview, Text } from '@react-email/components';
import { CAUSE_DETAILS, type Cause } from '../../shared/causes';
import { TRIBUTE_TYPE_LABELS, type TributeType } from '../../shared/tribute';
import type { OrganizationProfile } from '../platform/config';

/**
 * The card a donor asked us to send to someone when they dedicated their gift (issue #23, section 3): who gave (or
 * "Someone" for an anonymous gift), in honour or in memory of whom, for which cause, and the donor's message. Never the
 * amount: the gift's size is the donor's business. Rendered with @react-email/components; its plain-text part comes from
 * the same tree (mail/render-email.ts).
 */

/** What the card says: the giver as named on it, the dedication, the cause, whom it goes to and the donor's message. */
export interface TributeCard {
  /** The donor's name, or `Someone` for an anonymous gift. */
  giver: string;
  type: TributeType;
  honoreeName: string;
  cause: Cause;
  recipientName: string;
  message: string | null;
}

/** `Ana Lopez made a gift in memory of Jane Doe`: the card's subject and heading. */
export function tributeCardHeadline(card: Pick<TributeCard, 'giver' | 'type' | 'honoreeName'>): string {
  return `${card.giver} made a gift ${TRIBUTE_TYPE_LABELS[card.type].toLowerCase()} ${card.honoreeName}`;
}

const page = { backgroundColor: '#f4f7f7', fontFamily: 'Arial, Helvetica, sans-serif', color: '#1a1a1a' };
const frame = { backgroundColor: '#ffffff', padding: '24px', margin: '24px auto', maxWidth: '560px', borderRadius: '8px' };
const quote = { borderLeft: '4px solid #00695c', paddingLeft: '12px', whiteSpace: 'pre-line' as const };
const small = { fontSize: '12px', color: '#555555', lineHeight: '18px' };

/** The card e-mail of one dedicated gift. */
export function TributeCardEmail({ card, organization }: { card: TributeCard; organization: OrganizationProfile }) {
  const headline = tributeCardHeadline(card);
  return (
    <Html lang="en">
      <Head />
      <Preview>{headline}</Preview>
      <Body style={page}>
        <Container style={frame}>
          <Heading as="h1" style={{ fontSize: '22px', color: '#00695c', margin: '0 0 16px' }}>
            {headline}
          </Heading>
          <Text>Dear {card.recipientName},</Text>
          <Text>
            {card.giver} made a gift to {organization.legalName} {TRIBUTE_TYPE_LABELS[card.type].toLowerCase()} {card.honoreeName}, for{' '}
            {CAUSE_DETAILS[card.cause].displayName}, and asked us to let you know.
          </Text>
          {card.message && (
            <>
              <Text>Their message to you:</Text>
              <Text style={quote}>{card.message}</Text>
            </>
          )}
          <Text>The gift helps protect the Belize Barrier Reef Reserve System, a marine World Heritage site.</Text>
          <Hr />
          <Text style={small}>
            You receive this one message because a donor gave your address for it; we will not write to you again about it.{' '}
            {organization.legalName}
            {organization.address ? ` · ${organization.address}` : ''}
          </Text>
        </Container>
      </Body>
    </Html>
  );
}
