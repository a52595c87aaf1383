import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { useState } from 'react';
import { PRESET_AMOUNTS_DOLLARS } from '../../../shared/amounts';
import { formatDollars, MIN_AMOUNT_DOLLARS } from '../../../shared/money';
import type { SelectionChoices } from './use-selection-choices';
import { toggleGridSx } from './toggle-grid-sx';

const CUSTOM = 'custom';
type AmountButtonValue = number | typeof CUSTOM;

/** Props of {@link AmountPicker}: the selection screen's choices and the id of the card title labelling the group. */
export interface AmountPickerProps {
  choices: SelectionChoices;
  labelledBy: string;
}

/**
 * The amount controls of the selection screen (spec section 2; issue #2): preset buttons named
 * like '$25' and a 'Custom Amount' button in one exclusive toggle group, and, while Custom Amount is
 * pressed, the one 'Enter Custom Amount' field ($ prefix, min 1, cents allowed). The field says why
 * its text is not an amount, and is outlined in the brand colour when its amount is the selected one.
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
        <TextField
          id="custom-amount"
          label="Enter Custom Amount"
          placeholder="Enter amount"
          type="number"
          value={customText}
          onChange={(event) => choices.setCustomText(event.target.value)}
          autoFocus={focusCustomField}
          error={customError !== undefined}
          helperText={customError}
          fullWidth
          sx={
            customIsSelected
              ? { '& .MuiOutlinedInput-notchedOutline': { borderColor: 'primary.main', borderWidth: 2 } }
              : undefined
          }
          slotProps={{
            input: { startAdornment: <InputAdornment position="start">$</InputAdornment> },
            htmlInput: { min: MIN_AMOUNT_DOLLARS, step: 0.01, inputMode: 'decimal' },
          }}
        />
      )}
    </Stack>
  );
}
