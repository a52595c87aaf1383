import { Body, Button, Container, Head, Heading, Html, Preview, Text } from '@react-email/components';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { WEBHOOK_MAIL_KINDS, webhookEndpoints, type MailKind, type MailOutboxRow, type WebhookMailKind } from '../db/schema';
import { PermanentComposeError, type ComposedMail, type ComposeMail } from '../mail/relay';
import { renderEmailParts } from '../mail/render-email';

/**
 * The admins' e-mail of an endpoint paused after three days of failed deliveries (issue #38, "Delivery": "the admins
 * are told by e-mail"), queued by the relay (relay.ts) in the transaction that pauses it, rendered when sent.
 */

/** True for a kind of {@link WEBHOOK_MAIL_KINDS} (this composer's). */
export function isWebhookMailKind(kind: MailKind): kind is WebhookMailKind {
  return (WEBHOOK_MAIL_KINDS as readonly MailKind[]).includes(kind);
}

const page = { backgroundColor: '#f4f7f7', fontFamily: 'Arial, Helvetica, sans-serif', color: '#1a1a1a' };
const card = { backgroundColor: '#ffffff', padding: '24px', margin: '24px auto', maxWidth: '560px', borderRadius: '8px' };
const button = { backgroundColor: '#00695c', color: '#ffffff', padding: '12px 20px', borderRadius: '4px', textDecoration: 'none' };

/** The message: which endpoint (`url`) stopped receiving, since when, and the link to the integrations page. */
export function WebhookEndpointPausedEmail({ url, failingSince, pageUrl }: { url: string; failingSince: string; pageUrl: string }) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{`A webhook endpoint was paused: ${url}`}</Preview>
      <Body style={page}>
        <Container style={card}>
          <Heading as="h1" style={{ fontSize: '22px', color: '#00695c', margin: '0 0 16px' }}>
            A webhook endpoint was paused
          </Heading>
          <Text>Every delivery to {url} has failed since {failingSince}, for three days. It receives no events until an admin resumes it.</Text>
          <Text>Check that the receiving system is running and answers 2xx, then resume the endpoint and resend what it missed from its delivery log.</Text>
          <Button href={pageUrl} style={button}>
            Open integrations
          </Button>
        </Container>
      </Body>
    </Html>
  );
}

/**
 * The composer of `webhook_endpoint_paused` (the relay's `compose` for that kind, app.ts): reads the endpoint when the
 * message is sent. Rejects with PermanentComposeError for another kind or an endpoint that is gone.
 */
export function createWebhookComposer({ db, publicUrl }: { db: Database; publicUrl: string }): ComposeMail {
  return async (row: MailOutboxRow): Promise<ComposedMail> => {
    if (!isWebhookMailKind(row.kind) || row.webhookEndpointId === null) throw new PermanentComposeError(`Outbox message ${row.id} (${row.kind}) is not a webhook message`);
    const [endpoint] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, row.webhookEndpointId));
    if (!endpoint) throw new PermanentComposeError(`The endpoint of outbox message ${row.id} is gone`);
    const failingSince = endpoint.failingSince?.toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
    return {
      to: row.recipient,
      subject: 'A webhook endpoint was paused after three days of failures',
      ...(await renderEmailParts(<WebhookEndpointPausedEmail url={endpoint.url} failingSince={failingSince} pageUrl={new URL('/staff/integrations', publicUrl).toString()} />)),
    };
  };
}
