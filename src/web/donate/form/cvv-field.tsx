import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Tooltip from '@mui/material/Tooltip';
import type { KeyboardEvent } from 'react';
import { FormTextField } from './form-text-field';
import { useTranslation } from '../../i18n/use-translation';

/** The most digits a CVV has (spec section 5). */
const CVV_MAX_LENGTH = 4;

/** Keeps the digits of what was typed or pasted, at most four. */
function cvvDigits(text: string): string {
  return text.replace(/\D/g, '').slice(0, CVV_MAX_LENGTH);
}

/** Blocks keys that would type a non-digit; editing keys and shortcuts (Ctrl/⌘+V...) pass. */
function blockNonDigitKeys(event: KeyboardEvent<HTMLDivElement>) {
  const printable = event.key.length === 1;
  if (printable && !/\d/.test(event.key) && !event.ctrlKey && !event.metaKey && !event.altKey) {
    event.preventDefault();
  }
}

/**
 * The 'CVV' field (spec sections 2 and 5): numeric keypad, at most 4 characters, non-digit
 * keypresses blocked and pasted non-digits stripped, and an info button whose tooltip explains
 * the code (the button's accessible name is the tooltip text, spec section 2's verbatim).
 */
export function CvvField() {
  const { i18n } = useTranslation();
  return (
    <FormTextField
      name="cvv"
      label={i18n._('card.cvv')}
      autoComplete="cc-csc"
      required
      format={cvvDigits}
      onKeyDown={blockNonDigitKeys}
      slotProps={{
        htmlInput: { inputMode: 'numeric', maxLength: CVV_MAX_LENGTH },
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <Tooltip title={i18n._('card.cvvTooltip')} enterTouchDelay={0} arrow>
                <IconButton edge="end" size="small">
                  <InfoOutlinedIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
