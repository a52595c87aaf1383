import AutorenewIcon from '@mui/icons-material/Autorenew';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { MAX_LENGTHS } from '../../../shared/field-rules';
import { MANAGE_LINKS_CONFIRMATION, ManageLinksRequestSchema } from '../../../shared/recurring-api';
import { ScreenHeading } from '../../components/screen-heading';
import { usePageTitle } from '../../components/use-page-title';
import { MANAGE_FAILED_MESSAGE, requestManageLinks } from './manage-api';

const SCREEN_TITLE = 'Manage Your Recurring Gifts';
const FIELD_ID = 'manage-email';

/**
 * /donate/manage (issue #13): a donor who lost their link types the address they gave and gets an e-mail with a
 * link to manage each of their recurring gifts. The confirmation is the same whatever the address
 * ({@link MANAGE_LINKS_CONFIRMATION}): the page never says whether an address gives.
 */
export function ManageLinksPage() {
  usePageTitle(SCREEN_TITLE);
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const [step, setStep] = useState<'form' | 'sending' | 'sent' | 'failed'>('form');
  const confirmationRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (step === 'sent') confirmationRef.current?.focus();
  }, [step]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = ManageLinksRequestSchema.safeParse({ email });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? 'Please enter a valid email address');
      document.getElementById(FIELD_ID)?.focus();
      return;
    }
    setFieldError(undefined);
    setStep('sending');
    setStep((await requestManageLinks(parsed.data.email)) ? 'sent' : 'failed');
  };

  return (
    <Container maxWidth="sm" sx={{ pt: { xs: 3, sm: 5 } }}>
      <Paper elevation={2} sx={{ p: { xs: 2, sm: 4 } }}>
        <Stack spacing={3}>
          <Stack spacing={1.5} sx={{ alignItems: 'center', textAlign: 'center' }}>
            <AutorenewIcon color="primary" sx={{ fontSize: 56 }} />
            <ScreenHeading>{SCREEN_TITLE}</ScreenHeading>
            <Typography>Enter the email address you gave with your monthly or yearly gift and we will email it a link to manage each gift.</Typography>
          </Stack>
          {step === 'sent' ? (
            <Alert ref={confirmationRef} tabIndex={-1} severity="success" role="status">
              {MANAGE_LINKS_CONFIRMATION}
            </Alert>
          ) : (
            <Box component="form" noValidate onSubmit={(event) => void submit(event)} aria-label="Ask for your manage links">
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
                  helperText={fieldError ?? 'The address you gave with your gift'}
                  slotProps={{ htmlInput: { maxLength: MAX_LENGTHS.email } }}
                />
                {step === 'failed' && (
                  <Alert severity="error" role="alert">
                    {MANAGE_FAILED_MESSAGE}
                  </Alert>
                )}
                <Button type="submit" variant="contained" size="large" disabled={step === 'sending'}>
                  {step === 'sending' ? 'Sending…' : 'Email My Links'}
                </Button>
              </Stack>
            </Box>
          )}
        </Stack>
      </Paper>
    </Container>
  );
}
