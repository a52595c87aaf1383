import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import Button, { buttonClasses } from '@mui/material/Button';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useEffectEvent, useId, useLayoutEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import type { Cause } from '../../../shared/causes';
import { useMountedByHydration } from '../../components/hydration';
import { usePageTitle } from '../../components/use-page-title';
import { prefetchDonationFormPage } from '../form/load-donation-form-page';
import { PATHS } from '../../../shared/site-paths';
import { useDonationStore } from '../../state/use-donation-store';
import { useLocalizedPath, useTranslation } from '../../i18n/use-translation';
import { AmountPicker } from './amount-picker';
import { EARLY_CHOICES_MARKUP, markerProps } from './early-choices';
import { CausePicker } from './cause-picker';
import { FrequencyPicker } from './frequency-picker';
import { ImpactBanner } from './impact-banner';
import { LandingHero } from './landing-hero';
import { useSelectionChoices } from './use-selection-choices';

/**
 * The selection screen, /donate (spec sections 1, 2 and 4): the landing hero, then the amount,
 * frequency and cause, the impact banner, and 'Continue to Donation', which stores the selection
 * and opens the form once all three are chosen. It makes no API calls (spec section 7); picking a
 * cause prefetches the form's code. A complete selection is kept in the donation store as soon as it is made, so
 * the other language's screen (the language switcher, issue #24) shows it too. Choices made on the pre-rendered screen before the app was live,
 * and a press of Continue then, count (issue #10, decision 0023).
 */
export function SelectionPage() {
  const { selection: stored, setSelection } = useDonationStore();
  // The build pre-renders this screen in its default state; a stored selection shows once hydrated.
  const choices = useSelectionChoices(stored, useMountedByHydration());
  const navigate = useNavigate();
  const ids = { amount: useId(), frequency: useId(), cause: useId() };
  usePageTitle();
  const { i18n } = useTranslation();
  const to = useLocalizedPath();

  // Once a cause is picked the donor is one click from the form: fetch its code now.
  const { setCause } = choices;
  const pickCause = useCallback(
    (cause: Cause) => {
      setCause(cause);
      prefetchDonationFormPage();
    },
    [setCause],
  );

  const confirm = () => {
    if (!choices.selection) return;
    setSelection(choices.selection);
    void navigate(to(PATHS.donationForm));
  };

  // NOTE: the early script may have enabled Continue in the markup (decision 0023), which hydration keeps, and React
  // writes `disabled` only when its own value changes: once the early choices are in, the button shows what the app
  // decided. The same button element throughout, never re-created: a tap whose press began on it must end on it
  // (issue #20, decision 0071).
  const continueRef = useRef<HTMLButtonElement>(null);
  const continueDisabled = choices.selection === null;
  const { taken: tookEarlyChoices } = choices.early;
  useLayoutEffect(() => {
    const button = continueRef.current;
    if (!tookEarlyChoices || !button) return;
    button.disabled = continueDisabled;
    button.tabIndex = continueDisabled ? -1 : 0;
    button.classList.toggle(buttonClasses.disabled, continueDisabled);
  }, [tookEarlyChoices, continueDisabled]);

  // The store (sessionStorage) follows every complete selection, not only a confirmed one: the language switcher's
  // page, a reload or the back button then show the donor's choices (issue #24: the switcher keeps the selection).
  const current = choices.selection;
  useEffect(() => {
    if (current && !(stored && stored.amount === current.amount && stored.frequency === current.frequency && stored.cause === current.cause)) {
      setSelection(current);
    }
  }, [current, stored, setSelection]);

  // A press of Continue before the app was live (issue #10, decision 0023) counts once the choices are in.
  const confirmEarlyPress = useEffectEvent(confirm);
  const { continued: continuedEarly } = choices.early;
  useEffect(() => {
    if (continuedEarly) confirmEarlyPress();
  }, [continuedEarly]);

  return (
    <>
      <LandingHero />
      <Container maxWidth="md" sx={{ mt: { xs: -7, sm: -8 } }}>
        <Paper elevation={2} component="section" aria-labelledby={ids.amount} sx={{ p: { xs: 2, sm: 4 } }}>
          <Stack spacing={3}>
            <div>
              <Typography variant="h2" id={ids.amount}>
                {i18n._('selection.amount.heading')}
              </Typography>
              <Typography color="text.secondary" sx={{ mt: 0.5 }}>
                {i18n._('selection.amount.intro')}
              </Typography>
            </div>

            <AmountPicker choices={choices} labelledBy={ids.amount} />

            <Stack spacing={1.5}>
              <Typography variant="h3" component="h3" id={ids.frequency}>
                {i18n._('selection.frequency.heading')}
              </Typography>
              <FrequencyPicker value={choices.frequency} onChange={choices.setFrequency} labelledBy={ids.frequency} />
            </Stack>

            <Stack spacing={1.5}>
              <Typography variant="h3" component="h3" id={ids.cause}>
                {i18n._('selection.cause.heading')}
              </Typography>
              <CausePicker value={choices.cause} onChange={pickCause} labelledBy={ids.cause} />
            </Stack>

            <ImpactBanner amount={choices.amount} frequency={choices.frequency} cause={choices.cause} />

            <Button
              ref={continueRef}
              suppressHydrationWarning
              {...markerProps(EARLY_CHOICES_MARKUP.continueButton)}
              variant="contained"
              size="large"
              disabled={continueDisabled}
              onClick={confirm}
              endIcon={<ArrowForwardIcon />}
              sx={{ alignSelf: { xs: 'stretch', sm: 'flex-end' }, py: 1.5, px: 4 }}
            >
              {i18n._('selection.continue')}
            </Button>
          </Stack>
        </Paper>
      </Container>
    </>
  );
}
