import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputAdornment from '@mui/material/InputAdornment';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { useState } from 'react';
import { PRESET_AMOUNTS_DOLLARS } from '../../../shared/amounts';
import { formatDollars } from '../../../shared/money';
import { getMinAmountDollars } from '../../config/min-amount';
import type { SelectionChoices } from './use-selection-choices';
import { toggleGridSx } from './toggle-grid-sx';

const CUSTOM = 'custom';
const CUSTOM_FIELD_ID = 'custom-amount';
const CUSTOM_HELPER_ID = 'custom-amount-helper-text';
type AmountButtonValue = number | typeof CUSTOM;

/** Props of {@link AmountPicker}: the selection screen's choices and the id of the card title labelling the group. */
export interface AmountPickerProps {
  choices: SelectionChoices;
  labelledBy: string;
}

/**
 * The amount controls of the selection screen (spec section 2; issue #2): preset buttons named
 * like '$25' and a 'Custom Amount' button in one exclusive toggle group, and, while Custom Amount is
 * pressed, the one 'Enter Custom Amount' field ($ prefix, min the deployment's minimum, default 1, cents
 * allowed). The field says why its text is not an amount, even text the browser cannot read as a number
 * (`validity.badInput`), and is outlined in the brand colour when its
 * amount is the selected one.
 */
export function AmountPicker({ choices, labelledBy }: AmountPickerProps) {
  const { preset, customOpen, customText, customError, amount } = choices;
  const [focusCustomField, setFocusCustomField] = useState(false);

  const handleChange = (_event: unknown, value: AmountButtonValue | null) => {
    if (value === null) {
      // The pressed button was pressed again: Custom Amount toggles off; a preset stays selected.
      if (customOpen) choices.setCustomOpen(false);
      return;
    }
    if (value === CUSTOM) {
      setFocusCustomField(true);
      choices.setCustomOpen(true);
    } else {
      choices.selectPreset(value);
    }
  };

  const customIsSelected = customOpen && amount !== null;

  return (
    <Stack spacing={2}>
      <ToggleButtonGroup
        exclusive
        value={customOpen ? CUSTOM : preset}
        onChange={handleChange}
        aria-labelledby={labelledBy}
        sx={toggleGridSx({ xs: 3, sm: 4 })}
      >
        {PRESET_AMOUNTS_DOLLARS.map((preset) => (
          <ToggleButton key={preset} value={preset}>
            {formatDollars(preset)}
          </ToggleButton>
        ))}
        <ToggleButton value={CUSTOM} sx={{ gridColumn: { xs: 'span 2', sm: 'auto' } }}>
          Custom Amount
        </ToggleButton>
      </ToggleButtonGroup>

      {customOpen && (
        // NOTE: TextField's parts rather than TextField itself: TextField imports Select (with Menu,
        // Popover, Modal), which /donate never shows (issue #5: bundle budget). Same markup and ARIA.
        <FormControl fullWidth error={customError !== undefined}>
          <InputLabel htmlFor={CUSTOM_FIELD_ID}>Enter Custom Amount</InputLabel>
          <OutlinedInput
            id={CUSTOM_FIELD_ID}
            label="Enter Custom Amount"
            placeholder="Enter amount"
            type="number"
            value={customText}
            autoFocus={focusCustomField}
            startAdornment={<InputAdornment position="start">$</InputAdornment>}
            inputProps={{
              min: getMinAmountDollars(),
              step: 0.01,
              inputMode: 'decimal',
              // NOTE: onInput, not onChange: React fires onChange only when the value changes, and a number
              // input's value stays '' while it holds text it cannot read ('-', '1e', '--5'); validity.badInput
              // tells that text from an empty field (issue #2: the field says why nothing is selected).
              onInput: (event) =>
                choices.setCustomText(event.currentTarget.value, event.currentTarget.validity.badInput),
              'aria-describedby': customError === undefined ? undefined : CUSTOM_HELPER_ID,
            }}
            sx={customIsSelected ? { '& .MuiOutlinedInput-notchedOutline': { borderColor: 'primary.main', borderWidth: 2 } } : undefined}
          />
          {customError !== undefined && <FormHelperText id={CUSTOM_HELPER_ID}>{customError}</FormHelperText>}
        </FormControl>
      )}
    </Stack>
  );
}
