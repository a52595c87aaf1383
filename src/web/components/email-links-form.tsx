import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { DonorEmailSchema, MAX_LENGTHS } from '../../shared/field-rules';
import { type EmailLinksFailure, requestEmailLinks } from '../api/email-links';
import { useTranslation } from '../i18n/use-translation';
import { useValidationMessage } from './use-validation-message';

/** Props of {@link EmailLinksForm}: where to ask, and the page's words. */
export interface EmailLinksFormProps {
  /** The API path that e-mails the links (answers 202 whatever the address). */
  path: string;
  /** The text field's id (unique on the page). */
  fieldId: string;
  /** The form's accessible name, e.g. 'Ask for your receipts'. */
  formLabel: string;
  /** The field's hint, e.g. 'The address you gave with your donation'. */
  helperText: string;
  /** The submit button's text, e.g. 'Email My Receipts'. */
  submitLabel: string;
  /** The one confirmation shown whatever the address (in the page's language). */
  confirmation: string;
  /** An icon for the confirmation (MUI Alert's `icon`). */
  confirmationIcon?: ReactNode;
}

/** Where the form is: filling it in, sending, sent (the one confirmation), or failed with a message. */
type FormState = { step: 'form' } | { step: 'sending' } | { step: 'sent' } | { step: 'failed'; message: EmailLinksFailure };

/**
 * The "e-mail me my links" form of /donate/receipts (issue #12) and /donate/manage (issue #13): the donor types the
 * address they gave, checked with the donation form's rule (DonorEmailSchema) before anything is sent, and gets the
 * same confirmation whatever the address, so the page never says whether an address gave. The confirmation takes
 * focus when it appears (keyboard and screen reader users hear it at once); a failed request (offline, a limit)
 * says so and keeps the form.
 */
export function EmailLinksForm({ path, fieldId, formLabel, helperText, submitLabel, confirmation, confirmationIcon }: EmailLinksFormProps) {
  const [email, setEmail] = useState('');
  const { i18n, locale } = useTranslation();
  const localized = useValidationMessage();
  const [fieldError, setFieldError] = useState<string>();
  const [state, setState] = useState<FormState>({ step: 'form' });
  const confirmationRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (state.step === 'sent') confirmationRef.current?.focus();
  }, [state.step]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (state.step === 'sending') return;
    const parsed = DonorEmailSchema.safeParse(email);
    if (!parsed.success) {
      setFieldError(localized(parsed.error.issues[0]?.message) ?? i18n._('validation.emailInvalid'));
      document.getElementById(fieldId)?.focus();
      return;
    }
    setFieldError(undefined);
    setState({ step: 'sending' });
    const outcome = await requestEmailLinks(path, parsed.data, locale);
    if (outcome.kind === 'accepted') setState({ step: 'sent' });
    else if (outcome.kind === 'invalid') {
      setFieldError(localized(outcome.message));
      setState({ step: 'form' });
    } else setState({ step: 'failed', message: outcome.message });
  };

  if (state.step === 'sent') {
    return (
      <Alert ref={confirmationRef} tabIndex={-1} severity="success" icon={confirmationIcon} role="status" sx={{ fontSize: '1rem' }}>
        {confirmation}
      </Alert>
    );
  }
  return (
    <Box component="form" noValidate onSubmit={(event) => void submit(event)} aria-label={formLabel}>
      <Stack spacing={2}>
        <TextField
          id={fieldId}
          label={i18n._('form.emailAddress')}
          type="email"
          autoComplete="email"
          required
          fullWidth
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={fieldError !== undefined}
          helperText={fieldError ?? helperText}
          slotProps={{ htmlInput: { maxLength: MAX_LENGTHS.email } }}
        />
        {state.step === 'failed' && (
          <Alert severity="error" role="alert">
            {i18n._(state.message)}
          </Alert>
        )}
        <Button type="submit" variant="contained" size="large" disabled={state.step === 'sending'}>
          {state.step === 'sending' ? i18n._('emailLinks.sending') : submitLabel}
        </Button>
      </Stack>
    </Box>
  );
}
