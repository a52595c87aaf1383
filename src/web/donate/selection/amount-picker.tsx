import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputAdornment from '@mui/material/InputAdornment';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { useEffect, useRef, useState } from 'react';
import { PRESET_AMOUNTS_DOLLARS } from '../../../shared/amounts';
import { SOURCE_LOCALE } from '../../../shared/i18n/locales';
import { formatDollars } from '../../../shared/money';
import { getMinAmountDollars } from '../../config/min-amount';
import { loadCatalogue } from '../../i18n/catalogues';
import { useTranslation } from '../../i18n/use-translation';
import { choiceGroupProps, CUSTOM_AMOUNT_VALUE, EARLY_CHOICES_MARKUP, markerProps } from './early-choices';
import type { SelectionChoices } from './use-selection-choices';
import { toggleGridSx } from './toggle-grid-sx';

const CUSTOM_FIELD_ID = 'custom-amount';
const CUSTOM_HELPER_ID = 'custom-amount-helper-text';
type AmountButtonValue = number | typeof CUSTOM_AMOUNT_VALUE;

/** Props of {@link AmountPicker}: the selection screen's choices and the id of the card title labelling the group. */
export interface AmountPickerProps {
  choices: SelectionChoices;
  labelledBy: string;
}

/**
 * The amount controls of the selection screen (spec section 2; issue #2): preset buttons named
 * like '$25' ('25 US$' in Spanish: the page's language, issue #24) and a 'Custom Amount' button in one exclusive toggle group, and, while Custom Amount is
 * pressed, the one 'Enter Custom Amount' field ($ prefix, min the deployment's minimum, default 1, cents
 * allowed), focused when the donor opens it. The field says why its text is not an amount, even text the browser
 * cannot read as a number (`validity.badInput`), and is outlined in the brand colour when its
 * amount is the selected one.
 * The field is always in the markup, `hidden` while closed: the pre-rendered page has it too, so a donor can
 * open it and type before the app is live (issue #10, decision 0023).
 */
export function AmountPicker({ choices, labelledBy }: AmountPickerProps) {
  const { preset, customOpen, customText, customError, amount } = choices;
  const inputRef = useRef<HTMLInputElement>(null);
  const focusWhenOpen = useRef(false);
  const minAmountDollars = getMinAmountDollars();
  const { i18n, locale } = useTranslation();
  const [errorText, setErrorText] = useState<typeof import('./amount-error-text')>();

  // When the field opens: it takes the focus if the donor opened it (not when it is open from the start), and, on a
  // page not in the source language, its messages' texts start loading (issue #24): the `screens` part of the
  // catalogue (which the next screen needs anyway) and the small chunk that picks them, so they are usually there
  // before the first message. Until both are, a message shows in English (never an id); whichever comes last re-renders
  // the field (the chunk through this state, the catalogue through Lingui's provider, which re-renders on a load).
  useEffect(() => {
    if (!customOpen) return;
    if (locale !== SOURCE_LOCALE) {
      // NOTE: when either fails to load (offline), the message stays English; nothing is left unhandled.
      loadCatalogue(locale, 'screens').catch(() => undefined);
      import('./amount-error-text').then(setErrorText, () => undefined);
    }
    if (!focusWhenOpen.current) return;
    focusWhenOpen.current = false;
    inputRef.current?.focus();
  }, [customOpen, locale]);

  // NOTE: hydration keeps the attributes of the pre-rendered field, whose `min` is the build's $1; the
  // deployment's minimum (MIN_DONATION_AMOUNT, issue #4) is only known in the browser.
  useEffect(() => {
    if (inputRef.current) inputRef.current.min = String(minAmountDollars);
  }, [minAmountDollars]);

  const handleChange = (_event: unknown, value: AmountButtonValue | null) => {
    if (value === null) {
      // The pressed button was pressed again: Custom Amount toggles off; a preset stays selected.
      if (customOpen) choices.setCustomOpen(false);
      return;
    }
    if (value === CUSTOM_AMOUNT_VALUE) {
      focusWhenOpen.current = true;
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
        value={customOpen ? CUSTOM_AMOUNT_VALUE : preset}
        onChange={handleChange}
        aria-labelledby={labelledBy}
        sx={toggleGridSx({ xs: 3, sm: 4 })}
        {...choiceGroupProps('amount')}
      >
        {PRESET_AMOUNTS_DOLLARS.map((preset) => (
          // NOTE: suppressHydrationWarning: the early script may have pressed it before hydration (decision 0023).
          // disableRipple: see toggle-grid-sx.ts.
          <ToggleButton key={preset} value={preset} suppressHydrationWarning disableRipple>
            {formatDollars(preset, locale)}
          </ToggleButton>
        ))}
        <ToggleButton value={CUSTOM_AMOUNT_VALUE} sx={{ gridColumn: { xs: 'span 2', sm: 'auto' } }} suppressHydrationWarning disableRipple>
          {i18n._('selection.custom.button')}
        </ToggleButton>
      </ToggleButtonGroup>

      {/* NOTE: TextField's parts rather than TextField itself: TextField imports Select (with Menu,
          Popover, Modal), which /donate never shows (issue #5: bundle budget). Same markup and ARIA. */}
      <FormControl
        fullWidth
        error={customError !== undefined}
        hidden={!customOpen}
        suppressHydrationWarning
        sx={{ '&[hidden]': { display: 'none' } }}
        {...markerProps(EARLY_CHOICES_MARKUP.customField)}
      >
        <InputLabel htmlFor={CUSTOM_FIELD_ID}>{i18n._('selection.custom.label')}</InputLabel>
        <OutlinedInput
          id={CUSTOM_FIELD_ID}
          label={i18n._('selection.custom.label')}
          placeholder={i18n._('selection.custom.placeholder')}
          type="number"
          value={customText}
          inputRef={inputRef}
          startAdornment={<InputAdornment position="start">$</InputAdornment>}
          inputProps={{
            min: minAmountDollars,
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
        {customError !== undefined && <FormHelperText id={CUSTOM_HELPER_ID}>{errorText ? errorText.amountErrorText(i18n, customError, minAmountDollars) : customError}</FormHelperText>}
      </FormControl>
    </Stack>
  );
}
