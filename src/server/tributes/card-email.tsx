import { Body, Container, Head, Heading, Hr, Html, Preview, Text } from '@react-email/components';
import { causeName, type Cause } from '../../shared/causes';
import { type Locale, SOURCE_LOCALE } from '../../shared/i18n/locales';
import type { TributeType } from '../../shared/tribute';
import { serverI18n } from '../i18n/catalogues';
import type { OrganizationProfile } from '../platform/config';

/**
 * The card a donor asked us to send to someone when they dedicated their gift (issue #23, section 3): who gave (or
 * "Someone" for an anonymous gift), in honour or in memory of whom, for which cause, and the donor's message. Never the
 * amount: the gift's size is the donor's business. In the gift's language (issue #24: every text from the catalogues,
 * ids `email.tribute.*`). Rendered with @react-email/components; its plain-text part comes from the same tree
 * (mail/render-email.ts).
 */

/** What the card says: the giver as named on it, the dedication, the cause, whom it goes to and the donor's message. */
export interface TributeCard {
  /** The donor's name, or `Someone` (in the card's language, compose.tsx anonymousGiver) for an anonymous gift. */
  giver: string;
  type: TributeType;
  honoreeName: string;
  cause: Cause;
  recipientName: string;
  message: string | null;
}

/**
 * `Ana Lopez made a gift in memory of Jane Doe` (`Ana Lopez hizo una donación en memoria de Jane Doe` in Spanish): the
 * card's subject, preview and heading, in `locale` (issue #24; English by default).
 */
export function tributeCardHeadline(card: Pick<TributeCard, 'giver' | 'type' | 'honoreeName'>, locale: Locale = SOURCE_LOCALE): string {
  const i18n = serverI18n(locale);
  return i18n._('email.tribute.headline', { giver: card.giver, type: card.type, honoree: card.honoreeName });
}

const page = { backgroundColor: '#f4f7f7', fontFamily: 'Arial, Helvetica, sans-serif', color: '#1a1a1a' };
const frame = { backgroundColor: '#ffffff', padding: '24px', margin: '24px auto', maxWidth: '560px', borderRadius: '8px' };
const quote = { borderLeft: '4px solid #00695c', paddingLeft: '12px', whiteSpace: 'pre-line' as const };
const small = { fontSize: '12px', color: '#555555', lineHeight: '18px' };

/** The card e-mail of one dedicated gift, in `locale` (the gift's language, issue #24; English by default). */
export function TributeCardEmail({ card, organization, locale = SOURCE_LOCALE }: { card: TributeCard; organization: OrganizationProfile; locale?: Locale }) {
  const i18n = serverI18n(locale);
  const headline = tributeCardHeadline(card, locale);
  // The small print, then the organisation's name and its address when there is one.
  const footer = [i18n._('email.tribute.smallPrint'), [organization.legalName, organization.address].filter(Boolean).join(' · ')].join(' ');
  return (
    <Html lang={locale}>
      <Head />
      <Preview>{headline}</Preview>
      <Body style={page}>
        <Container style={frame}>
          <Heading as="h1" style={{ fontSize: '22px', color: '#00695c', margin: '0 0 16px' }}>
            {headline}
          </Heading>
          <Text>{i18n._('email.tribute.greeting', { name: card.recipientName })}</Text>
          <Text>
            {i18n._('email.tribute.body', {
              giver: card.giver,
              organization: organization.legalName,
              type: card.type,
              honoree: card.honoreeName,
              cause: causeName(i18n, card.cause),
            })}
          </Text>
          {card.message && (
            <>
              <Text>{i18n._('email.tribute.messageIntro')}</Text>
              <Text style={quote}>{card.message}</Text>
            </>
          )}
          <Text>{i18n._('email.tribute.reef')}</Text>
          <Hr />
          <Text style={small}>{footer}</Text>
        </Container>
      </Body>
    </Html>
  );
}
