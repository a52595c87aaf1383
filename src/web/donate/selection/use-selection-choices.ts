import { startTransition, useLayoutEffect, useRef, useState } from 'react';
import { DEFAULT_AMOUNT_DOLLARS, NOT_AN_AMOUNT_MESSAGE, parseCustomAmount, PRESET_AMOUNTS_DOLLARS } from '../../../shared/amounts';
import type { Cause } from '../../../shared/causes';
import { getMinAmountDollars } from '../../config/min-amount';
import type { DonationSelection } from '../../../shared/donation';
import { DEFAULT_FREQUENCY, type Frequency } from '../../../shared/frequencies';
import { CUSTOM_AMOUNT_VALUE, type EarlyChoices, takeEarlyChoices } from './early-choices';

/**
 * What the amount controls hold: the pressed preset, and whether/what the custom field holds.
 * `customBadInput`: the field holds text its number input cannot read (its value is then '').
 */
interface AmountState {
  preset: number | null;
  customOpen: boolean;
  customText: string;
  customBadInput: boolean;
}

/** The selection screen's choices and what changes them (spec section 4, "Selection screen"). */
export interface SelectionChoices {
  /** The pressed preset amount, or null when Custom Amount is pressed. */
  preset: number | null;
  /** Whether the custom amount field is shown. */
  customOpen: boolean;
  /** What the donor typed in the custom amount field. */
  customText: string;
  /** Why the custom text is not an amount (issue #2), or undefined. */
  customError: string | undefined;
  /** The selected amount in dollars, or null when none is selected. */
  amount: number | null;
  frequency: Frequency;
  cause: Cause | null;
  /** The complete selection, or null until amount, frequency and cause are all set (spec section 5). */
  selection: DonationSelection | null;
  /**
   * Whether the screen took choices the donor made before the app was live (issue #10, decision 0023), and
   * whether they pressed Continue to Donation then (the screen continues as soon as it can).
   */
  early: { taken: boolean; continued: boolean };
  selectPreset: (amountDollars: number) => void;
  /** Shows the custom field, or hides and clears it. */
  setCustomOpen: (open: boolean) => void;
  /**
   * Takes what the custom field holds: its value, and whether the browser reports text it cannot read as a
   * number (`validity.badInput`, e.g. '-' or '1e', whose value is ''), which selects no amount and says why.
   */
  setCustomText: (text: string, badInput?: boolean) => void;
  setFrequency: (frequency: Frequency) => void;
  setCause: (cause: Cause) => void;
}

function isPreset(amountDollars: number): boolean {
  return (PRESET_AMOUNTS_DOLLARS as readonly number[]).includes(amountDollars);
}

/** The amount controls for an amount: its preset, or the custom field holding it. */
function amountStateFor(amountDollars: number): AmountState {
  return isPreset(amountDollars)
    ? { preset: amountDollars, customOpen: false, customText: '', customBadInput: false }
    : { preset: null, customOpen: true, customText: String(amountDollars), customBadInput: false };
}

/** The amount controls the donor left on the pre-rendered screen (see {@link EarlyChoices}). */
function amountStateOfEarlyChoices({ amount, customText, customBadInput }: EarlyChoices): AmountState {
  return amount === CUSTOM_AMOUNT_VALUE
    ? { preset: null, customOpen: true, customText, customBadInput }
    : { preset: amount, customOpen: false, customText: '', customBadInput: false };
}

/**
 * State of the selection screen. It starts at $25, One-time Gift, no cause, custom field hidden
 * (spec section 4), or at the donor's earlier selection when they come back to change it.
 * Picking a preset clears and hides the custom field; hiding the custom field clears it; the
 * custom text becomes the amount only when `parseCustomAmount` accepts it, and text the browser cannot
 * read as a number selects none and says so (issue #2).
 * `mountedByHydration` true (the screen hydrates the pre-rendered page, see useMountedByHydration)
 * starts at the defaults whatever `initial` is, so the first render matches the build's. Right after
 * mounting it takes the choices the donor made on the pre-rendered markup before the app was live, if
 * any (issue #10, decision 0023): at once, before the browser paints or handles another tap, since the
 * markup already shows them. Otherwise it takes `initial`, in a transition: React renders it in slices
 * that never block the main thread for long, and skips it when nothing was stored (issue #5, decision 0021).
 */
export function useSelectionChoices(initial: DonationSelection | null, mountedByHydration = false): SelectionChoices {
  const start = mountedByHydration ? null : initial;
  const [amountState, setAmountState] = useState<AmountState>(() => amountStateFor(start?.amount ?? DEFAULT_AMOUNT_DOLLARS));
  const [frequency, setFrequency] = useState<Frequency>(start?.frequency ?? DEFAULT_FREQUENCY);
  const [cause, setCause] = useState<Cause | null>(start?.cause ?? null);

  const [early, setEarly] = useState({ taken: false, continued: false });

  const pendingRestore = useRef(mountedByHydration ? initial : null);
  // NOTE: a layout effect: the early choices are taken in the commit of the hydration itself, before the early
  // script could handle another tap or React could re-render the controls the script changed.
  useLayoutEffect(() => {
    const stored = pendingRestore.current;
    pendingRestore.current = null;
    const earlyChoices = mountedByHydration ? takeEarlyChoices(document.getElementById('root')) : null;
    if (earlyChoices) {
      // eslint-disable-next-line react-hooks/set-state-in-effect -- on purpose: a synchronous re-render with what the markup already shows
      setAmountState(amountStateOfEarlyChoices(earlyChoices));
      setFrequency(earlyChoices.frequency);
      setCause(earlyChoices.cause);
      setEarly({ taken: true, continued: earlyChoices.continued });
    } else if (stored) {
      startTransition(() => {
        setAmountState(amountStateFor(stored.amount));
        setFrequency(stored.frequency);
        setCause(stored.cause);
      });
    }
  }, [mountedByHydration]);

  const { preset, customOpen, customText, customBadInput } = amountState;
  // The deployment's minimum (MIN_DONATION_AMOUNT, issue #4), as the server also enforces it.
  const parsed = !customOpen
    ? {}
    : customBadInput
      ? { error: NOT_AN_AMOUNT_MESSAGE }
      : parseCustomAmount(customText, getMinAmountDollars());
  const amount = customOpen ? (parsed.amountDollars ?? null) : preset;
  const selection = amount !== null && cause !== null ? { amount, frequency, cause } : null;

  return {
    preset,
    customOpen,
    customText,
    customError: parsed.error,
    amount,
    frequency,
    cause,
    selection,
    early,
    selectPreset: (amountDollars) => setAmountState({ preset: amountDollars, customOpen: false, customText: '', customBadInput: false }),
    setCustomOpen: (open) => setAmountState({ preset: null, customOpen: open, customText: '', customBadInput: false }),
    setCustomText: (text, badInput = false) => setAmountState((state) => ({ ...state, customText: text, customBadInput: badInput })),
    setFrequency,
    setCause,
  };
}
