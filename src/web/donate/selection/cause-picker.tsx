import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { memo } from 'react';
import { CAUSE_ICONS, causeName, CAUSES, type Cause } from '../../../shared/causes';
import { CauseIcon } from '../../components/cause-icon';
import { useTranslation } from '../../i18n/use-translation';
import { choiceGroupProps } from './early-choices';
import { toggleGridSx } from './toggle-grid-sx';

/** Props of {@link CausePicker}: the chosen cause (or null), its setter, and the id of the labelling heading. */
export interface CausePickerProps {
  value: Cause | null;
  onChange: (cause: Cause) => void;
  labelledBy: string;
}

/**
 * The 'What cause would you like to support?' vertical toggle group (spec section 2): the five
 * causes, each with its icon and name in the page's language (causeName; the button's accessible name is the name). Memoised: a tap on
 * an amount or a frequency does not render it again (issue #20: Interaction to Next Paint).
 */
export const CausePicker = memo(function CausePicker({ value, onChange, labelledBy }: CausePickerProps) {
  const { i18n } = useTranslation();
  return (
    <ToggleButtonGroup
      exclusive
      orientation="vertical"
      value={value}
      onChange={(_event, next: Cause | null) => {
        if (next !== null) onChange(next);
      }}
      aria-labelledby={labelledBy}
      sx={toggleGridSx({ xs: 1 })}
      {...choiceGroupProps('cause')}
    >
      {CAUSES.map((cause) => {
        return (
          // NOTE: suppressHydrationWarning: the early script may have pressed it before hydration (decision 0023).
          // disableRipple: see toggle-grid-sx.ts.
          <ToggleButton
            key={cause}
            value={cause}
            suppressHydrationWarning
            disableRipple
            sx={{ justifyContent: 'flex-start', textAlign: 'left', gap: 1.5, py: 1.5, px: 2 }}
          >
            <CauseIcon name={CAUSE_ICONS[cause]} />
            {causeName(i18n, cause)}
          </ToggleButton>
        );
      })}
    </ToggleButtonGroup>
  );
});
