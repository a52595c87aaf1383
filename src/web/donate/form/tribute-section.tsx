import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import type { DonationFormValues } from '../../../shared/donation';
import { MAX_LENGTHS } from '../../../shared/field-rules';
import { TRIBUTE_MESSAGE_MAX_LENGTH, TRIBUTE_TYPE_LABELS, TRIBUTE_TYPES } from '../../../shared/tribute';
import { FormTextField } from './form-text-field';

/** The legend of the section (issue #23, section 3: "an optional section 'Dedicate this gift'"). */
const TRIBUTE_LEGEND = 'Dedicate this gift (Optional)';
/** The checkbox that opens the section. */
const TRIBUTE_TOGGLE_LABEL = 'Give this gift in honour or in memory of someone';
/** The checkbox that asks for the card to be sent. */
const TRIBUTE_NOTIFY_LABEL = 'Send a card about this gift by e-mail';

const fieldset = { border: 0, m: 0, p: 0, minWidth: 0 } as const;

/** A checkbox of the section bound to `name` (a boolean of the tribute's values), with its label. */
function SectionCheckbox({ name, label, describedBy }: { name: 'tribute.enabled' | 'tribute.notify'; label: string; describedBy?: string }) {
  const { control } = useFormContext<DonationFormValues>();
  return (
    <Controller
      name={name}
      control={control}
      render={({ field }) => (
        <FormControlLabel
          label={label}
          control={
            <Checkbox
              name={field.name}
              checked={field.value}
              onChange={(event) => field.onChange(event.target.checked)}
              onBlur={field.onBlur}
              slotProps={{ input: { id: `donation-${name}`, ...(describedBy ? { 'aria-describedby': describedBy } : {}) } }}
            />
          }
        />
      )}
    />
  );
}

/**
 * The donation form's "Dedicate this gift" section (issue #23, section 3), in both payment modes: a fieldset with its
 * legend; a checkbox opens it; then "In honour of" / "In memory of" (a radio group with its own legend), the honoree's
 * name (required, 2-100 characters), and a second checkbox that asks for a card to be e-mailed, with the recipient's
 * name, address and an optional message (500 characters at most). Everything is reached and used with the keyboard
 * (Tab, Space, arrow keys); errors show under their fields as the rest of the form's do (TributeFormSchema, helper
 * text tied to the input by MUI), and a refused submit focuses the first.
 */
export function TributeSection() {
  const { control } = useFormContext<DonationFormValues>();
  const [enabled, notify] = useWatch({ control, name: ['tribute.enabled', 'tribute.notify'] });
  return (
    <Box component="fieldset" sx={fieldset}>
      <Typography component="legend" variant="h2" sx={{ fontSize: '1.25rem', mb: 1, p: 0 }}>
        {TRIBUTE_LEGEND}
      </Typography>
      <SectionCheckbox name="tribute.enabled" label={TRIBUTE_TOGGLE_LABEL} />
      {enabled && (
        <Box sx={{ display: 'grid', gap: 2, mt: 1, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' } }}>
          <Controller
            name="tribute.type"
            control={control}
            render={({ field }) => (
              <Box component="fieldset" sx={{ ...fieldset, gridColumn: '1 / -1' }}>
                <Typography component="legend" sx={{ fontWeight: 600, p: 0 }}>
                  This gift is
                </Typography>
                <RadioGroup row name={field.name} value={field.value} onChange={(event) => field.onChange(event.target.value)} onBlur={field.onBlur}>
                  {TRIBUTE_TYPES.map((type) => (
                    <FormControlLabel key={type} value={type} label={TRIBUTE_TYPE_LABELS[type]} control={<Radio slotProps={{ input: { id: `donation-tribute-type-${type}` } }} />} />
                  ))}
                </RadioGroup>
              </Box>
            )}
          />
          <FormTextField name="tribute.honoreeName" label="Honoree's Name" required autoComplete="off" sx={{ gridColumn: '1 / -1' }}
            slotProps={{ htmlInput: { maxLength: MAX_LENGTHS.name } }} />
          <Box sx={{ gridColumn: '1 / -1' }}>
            <SectionCheckbox name="tribute.notify" label={TRIBUTE_NOTIFY_LABEL} describedBy="donation-tribute-notify-help" />
            <Typography id="donation-tribute-notify-help" variant="body2" color="text.secondary" sx={{ ml: 4 }}>
              The card names you (or someone, if your gift is anonymous) and the honoree, never the amount.
            </Typography>
          </Box>
          {notify && (
            <>
              <FormTextField name="tribute.notifyName" label="Recipient's Name" required autoComplete="off"
                slotProps={{ htmlInput: { maxLength: MAX_LENGTHS.name } }} />
              <FormTextField name="tribute.notifyEmail" label="Recipient's Email" type="email" required autoComplete="off"
                slotProps={{ htmlInput: { maxLength: MAX_LENGTHS.email } }} />
              <FormTextField name="tribute.notifyMessage" label="Message to the Recipient (Optional)" multiline minRows={2} sx={{ gridColumn: '1 / -1' }}
                hint={(value) => `${value.length} / ${TRIBUTE_MESSAGE_MAX_LENGTH} characters`}
                slotProps={{ htmlInput: { maxLength: TRIBUTE_MESSAGE_MAX_LENGTH } }} />
            </>
          )}
        </Box>
      )}
    </Box>
  );
}
