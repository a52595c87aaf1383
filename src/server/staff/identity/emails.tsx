import { Body, Button, Container, Head, Heading, Html, Preview, Text } from '@react-email/components';
import { ROLE_DESCRIPTIONS, type StaffRole } from '../../../shared/staff/roles';

/**
 * The staff back office's e-mails (issue #21): the invitation with its enrollment link, and an e-mailed sign-in link.
 * Rendered to HTML and plain text from one tree (renderEmailParts); each link is a Button, so its address stands alone
 * on a line of the text part (decision 0081).
 */

const page = { backgroundColor: '#f4f7f7', fontFamily: 'Arial, Helvetica, sans-serif', color: '#1a1a1a' };
const card = { backgroundColor: '#ffffff', padding: '24px', margin: '24px auto', maxWidth: '560px', borderRadius: '8px' };
const button = { backgroundColor: '#00695c', color: '#ffffff', padding: '12px 20px', borderRadius: '4px', textDecoration: 'none' };
const small = { fontSize: '12px', color: '#555555', lineHeight: '18px' };

/** The invitation to `role` at `organizationName`, with the enrollment page's address `enrollUrl` (valid 72 hours). */
export function StaffInvitationEmail({ organizationName, role, enrollUrl }: { organizationName: string; role: StaffRole; enrollUrl: string }) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{`You are invited to the ${organizationName} donations back office`}</Preview>
      <Body style={page}>
        <Container style={card}>
          <Heading as="h1" style={{ fontSize: '22px', color: '#00695c', margin: '0 0 16px' }}>
            You are invited to the donations back office
          </Heading>
          <Text>
            {organizationName} has added you to its staff. Your role is {role}: you can {ROLE_DESCRIPTIONS[role]}.
          </Text>
          <Text>
            Open this link on the device you will sign in with, then press Create a passkey. There is no password: your device unlocks the passkey with
            your fingerprint, face or screen lock.
          </Text>
          <Button href={enrollUrl} style={button}>
            Create your passkey
          </Button>
          <Text style={small}>The link works once, for 72 hours. If you did not expect this invitation, you can ignore this message.</Text>
        </Container>
      </Body>
    </Html>
  );
}

/** A sign-in link to the back office of `organizationName`: `signInUrl`, valid 15 minutes. */
export function StaffSignInLinkEmail({ organizationName, signInUrl }: { organizationName: string; signInUrl: string }) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{`Your sign-in link to the ${organizationName} back office`}</Preview>
      <Body style={page}>
        <Container style={card}>
          <Heading as="h1" style={{ fontSize: '22px', color: '#00695c', margin: '0 0 16px' }}>
            Sign in to the donations back office
          </Heading>
          <Text>You asked for a sign-in link. Open it, then press Sign in.</Text>
          <Button href={signInUrl} style={button}>
            Sign in
          </Button>
          <Text style={small}>
            The link works once, for 15 minutes. If you did not ask for it, you can ignore this message: nobody can sign in without opening it.
          </Text>
        </Container>
      </Body>
    </Html>
  );
}
