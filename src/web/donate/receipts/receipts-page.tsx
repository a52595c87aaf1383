import MarkEmailReadIcon from '@mui/icons-material/MarkEmailRead';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router';
import { MAX_LENGTHS } from '../../../shared/field-rules';
import { RESEND_RECEIPTS_CONFIRMATION, ResendReceiptsRequestSchema } from '../../../shared/receipts';
import { ScreenHeading } from '../../components/screen-heading';
import { usePageTitle } from '../../components/use-page-title';
import { PATHS } from '../../paths';
import { resendReceipts } from './resend-receipts';

const SCREEN_TITLE = 'Get Your Receipts';
const FIELD_ID = 'receipts-email';

/** Where the page is: filling the form, sending, sent (the one confirmation), or failed with a message. */
type PageState = { step: 'form' } | { step: 'sending' } | { step: 'sent' } | { step: 'failed'; message: string };

/**
 * /donate/receipts (issue #12, "Resend"): a donor types the address they gave with their donations and asks for
 * their receipts again; the server e-mails that address one message with a link to each receipt (PDF), if it has
 * donations. The confirmation is the same whatever the address ({@link RESEND_RECEIPTS_CONFIRMATION}): the page
 * never says whether an address gave. The address is checked with the donation form's rule before it is sent; a
 * failed request (offline, limit) says so and keeps the form. Linked from the thank-you page and every e-mail.
 */
export function ReceiptsPage() {
  usePageTitle(SCREEN_TITLE);
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const [state, setState] = useState<PageState>({ step: 'form' });
  const confirmationRef = useRef<HTMLDivElement>(null);

  // The confirmation takes focus when it appears, so keyboard and screen reader users hear it at once.
  useEffect(() => {
    if (state.step === 'sent') confirmationRef.current?.focus();
  }, [state.step]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (state.step === 'sending') return;
    const parsed = ResendReceiptsRequestSchema.safeParse({ email });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? 'Please enter a valid email address');
      document.getElementById(FIELD_ID)?.focus();
      return;
    }
    setFieldError(undefined);
    setState({ step: 'sending' });
    const outcome = await resendReceipts(parsed.data.email);
    if (outcome.kind === 'accepted') setState({ step: 'sent' });
    else if (outcome.kind === 'invalid') {
      setFieldError(outcome.message);
      setState({ step: 'form' });
    } else setState({ step: 'failed', message: outcome.message });
  };

  return (
    <Container maxWidth="sm" sx={{ pt: { xs: 3, sm: 5 } }}>
      <Paper elevation={2} sx={{ p: { xs: 2, sm: 4 } }}>
        <Stack spacing={3}>
          <Stack spacing={1.5} sx={{ alignItems: 'center', textAlign: 'center' }}>
            <ReceiptLongIcon color="primary" sx={{ fontSize: 56 }} />
            <ScreenHeading>{SCREEN_TITLE}</ScreenHeading>
            <Typography>
              Lost a receipt? Enter the email address you gave with your donation and we will email it a link to each of
              your receipts (PDF), for every donation made with that address.
            </Typography>
          </Stack>

          {state.step === 'sent' ? (
            <Alert
              ref={confirmationRef}
              tabIndex={-1}
              severity="success"
              icon={<MarkEmailReadIcon fontSize="inherit" />}
              role="status"
              sx={{ fontSize: '1rem' }}
            >
              {RESEND_RECEIPTS_CONFIRMATION}
            </Alert>
          ) : (
            <Box component="form" noValidate onSubmit={(event) => void submit(event)} aria-label="Ask for your receipts">
              <Stack spacing={2}>
                <TextField
                  id={FIELD_ID}
                  label="Email Address"
                  type="email"
                  autoComplete="email"
                  required
                  fullWidth
                  value={email}
                  onChange={(event) => setEmail(event.target.value)}
                  error={fieldError !== undefined}
                  helperText={fieldError ?? 'The address you gave with your donation'}
                  slotProps={{ htmlInput: { maxLength: MAX_LENGTHS.email } }}
                />
                {state.step === 'failed' && (
                  <Alert severity="error" role="alert">
                    {state.message}
                  </Alert>
                )}
                <Button type="submit" variant="contained" size="large" disabled={state.step === 'sending'}>
                  {state.step === 'sending' ? 'Sending…' : 'Email My Receipts'}
                </Button>
              </Stack>
            </Box>
          )}

          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} useFlexGap sx={{ justifyContent: 'center' }}>
            <Button component={RouterLink} to={PATHS.donate} variant="outlined">
              Make a Donation
            </Button>
          </Stack>
        </Stack>
      </Paper>
    </Container>
  );
}
