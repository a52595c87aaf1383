import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { memo } from 'react';
import { FREQUENCIES, frequencyLabel, type Frequency } from '../../../shared/frequencies';
import { useTranslation } from '../../i18n/use-translation';
import { choiceGroupProps } from './early-choices';
import { toggleGridSx } from './toggle-grid-sx';

/** Props of {@link FrequencyPicker}: the chosen frequency, its setter, and the id of the labelling heading. */
export interface FrequencyPickerProps {
  value: Frequency;
  onChange: (frequency: Frequency) => void;
  labelledBy: string;
}

/**
 * The 'Choose Frequency' toggle group (spec section 2): One-time Gift, Monthly, Yearly (in the page's language: frequencyLabel). Exactly
 * one is always pressed; pressing the pressed one again keeps it. Memoised: a tap on an amount or a cause does not
 * render it again (issue #20: Interaction to Next Paint).
 */
export const FrequencyPicker = memo(function FrequencyPicker({ value, onChange, labelledBy }: FrequencyPickerProps) {
  const { i18n } = useTranslation();
  return (
    <ToggleButtonGroup
      exclusive
      value={value}
      onChange={(_event, next: Frequency | null) => {
        if (next !== null) onChange(next);
      }}
      aria-labelledby={labelledBy}
      sx={toggleGridSx({ xs: 3 })}
      {...choiceGroupProps('frequency')}
    >
      {FREQUENCIES.map((frequency) => (
        // NOTE: suppressHydrationWarning: the early script may have pressed it before hydration (decision 0023).
        // disableRipple: see toggle-grid-sx.ts.
        <ToggleButton key={frequency} value={frequency} sx={{ px: 1 }} suppressHydrationWarning disableRipple>
          {frequencyLabel(i18n, frequency)}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
});
