import { Body, Container, Head, Heading, Hr, Html, Link, Preview, Section, Text } from '@react-email/components';
import type { ReactNode } from 'react';
import { type Locale, SOURCE_LOCALE } from '../../../shared/i18n/locales';
import { serverI18n } from '../../i18n/catalogues';
import type { OrganizationProfile } from '../../platform/config';

/**
 * The frame of every e-mail the site sends (issue #12): the organisation's name as a heading, the content, and a
 * footer with the organisation profile and how to get receipts again (/donate/receipts). Rendered on the server
 * with @react-email/components; its plain-text part is rendered from the same tree.
 */

/** What the layout needs: the organisation, the preview line, the page where receipts can be asked for again. */
export interface EmailLayoutProps {
  organization: OrganizationProfile;
  /** The line mail apps show after the subject. */
  preview: string;
  /** Absolute URL of /donate/receipts. */
  receiptsPageUrl: string;
  /** The language of the e-mail (issue #24); English by default. */
  locale?: Locale;
  children: ReactNode;
}

const page = { backgroundColor: '#f4f7f7', fontFamily: 'Arial, Helvetica, sans-serif', color: '#1a1a1a' };
const card = { backgroundColor: '#ffffff', padding: '24px', margin: '24px auto', maxWidth: '560px', borderRadius: '8px' };
const small = { fontSize: '12px', color: '#555555', lineHeight: '18px' };

/** The shared frame, in `locale` (issue #24): heading with the organisation's name, `children`, a rule, and the footer. */
export function EmailLayout({ organization, preview, receiptsPageUrl, locale = SOURCE_LOCALE, children }: EmailLayoutProps) {
  const i18n = serverI18n(locale);
  const profile = [organization.address, organization.taxId ? i18n._('email.layout.taxId', { taxId: organization.taxId }) : undefined].filter(Boolean).join(' · ');
  return (
    <Html lang={locale}>
      <Head />
      <Preview>{preview}</Preview>
      <Body style={page}>
        <Container style={card}>
          <Heading as="h1" style={{ fontSize: '22px', color: '#00695c', margin: '0 0 16px' }}>
            {organization.legalName}
          </Heading>
          {children}
          <Hr />
          <Section>
            <Text style={small}>
              {i18n._('email.layout.lostReceipt')}{' '}
              <Link href={receiptsPageUrl}>{receiptsPageUrl}</Link>
            </Text>
            <Text style={small}>
              {organization.legalName}
              {profile ? ` · ${profile}` : ''}
            </Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}
