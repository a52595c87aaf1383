import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Typography from '@mui/material/Typography';
import { formatDollars } from '../../../shared/money';
import { useTranslation } from '../../i18n/use-translation';

/** Props of {@link FeeCoverageCheckbox}: the fee offered (dollars), the gift it is added to, and the donor's choice. */
export interface FeeCoverageCheckboxProps {
  feeDollars: number;
  giftDollars: number;
  checked: boolean;
  onChange: (checked: boolean) => void;
}

/**
 * The fee coverage checkbox under the form's summary (issue #23, section 2): 'Add $1.75 to cover the card processing
 * fee', unchecked until the donor ticks it (donors dislike pre-ticked fee boxes: Open Collective #4268), with a plain
 * line of what it means. The total it makes shows on the submit button.
 */
export function FeeCoverageCheckbox({ feeDollars, giftDollars, checked, onChange }: FeeCoverageCheckboxProps) {
  const { i18n, locale } = useTranslation();
  return (
    <div>
      <FormControlLabel
        label={i18n._('fee.coverLabel', { fee: formatDollars(feeDollars, locale) })}
        control={
          <Checkbox
            name="coverFee"
            checked={checked}
            onChange={(event) => onChange(event.target.checked)}
            slotProps={{ input: { id: 'donation-coverFee', 'aria-describedby': 'donation-coverFee-help' } }}
          />
        }
      />
      <Typography id="donation-coverFee-help" variant="body2" color="text.secondary" sx={{ ml: 4 }}>
        {i18n._('fee.coverHelp', { amount: formatDollars(giftDollars, locale) })}
      </Typography>
    </div>
  );
}
