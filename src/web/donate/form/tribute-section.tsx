import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import type { DonationFormValues } from '../../../shared/donation';
import { MAX_LENGTHS } from '../../../shared/field-rules';
import { TRIBUTE_MESSAGE_MAX_LENGTH, TRIBUTE_TYPES, type TributeType } from '../../../shared/tribute';
import { FormTextField } from './form-text-field';
import { useTranslation } from '../../i18n/use-translation';

/** The catalogue ids of the kinds of dedication (issue #23's 'In honour of' / 'In memory of'). */
const TRIBUTE_TYPE_IDS: Record<TributeType, string> = { honor: /*i18n*/ 'tribute.type.honor', memory: /*i18n*/ 'tribute.type.memory' };

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
  const { i18n } = useTranslation();
  return (
    <Box component="fieldset" sx={fieldset}>
      <Typography component="legend" variant="h2" sx={{ fontSize: '1.25rem', mb: 1, p: 0 }}>
        {i18n._('tribute.legend')}
      </Typography>
      <SectionCheckbox name="tribute.enabled" label={i18n._('tribute.toggle')} />
      {enabled && (
        <Box sx={{ display: 'grid', gap: 2, mt: 1, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' } }}>
          <Controller
            name="tribute.type"
            control={control}
            render={({ field }) => (
              <Box component="fieldset" sx={{ ...fieldset, gridColumn: '1 / -1' }}>
                <Typography component="legend" sx={{ fontWeight: 600, p: 0 }}>
                  {i18n._('tribute.typeLegend')}
                </Typography>
                <RadioGroup row name={field.name} value={field.value} onChange={(event) => field.onChange(event.target.value)} onBlur={field.onBlur}>
                  {TRIBUTE_TYPES.map((type) => (
                    <FormControlLabel key={type} value={type} label={i18n._(TRIBUTE_TYPE_IDS[type])} control={<Radio slotProps={{ input: { id: `donation-tribute-type-${type}` } }} />} />
                  ))}
                </RadioGroup>
              </Box>
            )}
          />
          <FormTextField name="tribute.honoreeName" label={i18n._('tribute.honoreeName')} required autoComplete="off" sx={{ gridColumn: '1 / -1' }}
            slotProps={{ htmlInput: { maxLength: MAX_LENGTHS.name } }} />
          <Box sx={{ gridColumn: '1 / -1' }}>
            <SectionCheckbox name="tribute.notify" label={i18n._('tribute.notify')} describedBy="donation-tribute-notify-help" />
            <Typography id="donation-tribute-notify-help" variant="body2" color="text.secondary" sx={{ ml: 4 }}>
              {i18n._('tribute.notifyHelp')}
            </Typography>
          </Box>
          {notify && (
            <>
              <FormTextField name="tribute.notifyName" label={i18n._('tribute.notifyName')} required autoComplete="off"
                slotProps={{ htmlInput: { maxLength: MAX_LENGTHS.name } }} />
              <FormTextField name="tribute.notifyEmail" label={i18n._('tribute.notifyEmail')} type="email" required autoComplete="off"
                slotProps={{ htmlInput: { maxLength: MAX_LENGTHS.email } }} />
              <FormTextField name="tribute.notifyMessage" label={i18n._('tribute.notifyMessage')} multiline minRows={2} sx={{ gridColumn: '1 / -1' }}
                hint={(value) => i18n._('tribute.characterCount', { count: value.length, max: TRIBUTE_MESSAGE_MAX_LENGTH })}
                slotProps={{ htmlInput: { maxLength: TRIBUTE_MESSAGE_MAX_LENGTH } }} />
            </>
          )}
        </Box>
      )}
    </Box>
  );
}
