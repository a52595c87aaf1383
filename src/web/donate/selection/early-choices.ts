import { buttonClasses } from '@mui/material/Button';
import { toggleButtonClasses } from '@mui/material/ToggleButton';
import { PRESET_AMOUNTS_DOLLARS } from '../../../shared/amounts';
import { CAUSES, type Cause } from '../../../shared/causes';
import { DEFAULT_FREQUENCY, FREQUENCIES, type Frequency } from '../../../shared/frequencies';

/** Value of the Custom Amount button in the amount group (the presets' values are their dollars). */
export const CUSTOM_AMOUNT_VALUE = 'custom';

/** The selection screen's toggle groups, as {@link EARLY_CHOICES_MARKUP}'s `group` attribute names them. */
export type ChoiceGroup = 'amount' | 'frequency' | 'cause';

/**
 * How the pre-rendered selection screen and the early script of the pre-render (early-choices-script.ts)
 * name what they share (issue #10, decision 0023): the script finds the controls by these attributes, and
 * the app reads back what the script left in them.
 */
export const EARLY_CHOICES_MARKUP = {
  /**
   * On `#root` of the pre-rendered page: '' until the donor chooses, then 'chosen', or 'continued' once they
   * press Continue to Donation. The script acts only while it is there; the app removes it when it takes the choices.
   */
  state: 'data-early-choices',
  /** On each toggle group, naming it ({@link ChoiceGroup}); its buttons carry their value in `value`. */
  group: 'data-choice-group',
  /** On the custom amount field's wrapper, which is `hidden` while Custom Amount is not pressed. */
  customField: 'data-custom-amount-field',
  /** On the Continue to Donation button. */
  continueButton: 'data-continue-donation',
  customValue: CUSTOM_AMOUNT_VALUE,
  /** MUI's class of a pressed toggle button and of a disabled button: the script keeps the look in step. */
  selectedClass: toggleButtonClasses.selected,
  disabledClass: buttonClasses.disabled,
} as const;

/** What {@link EARLY_CHOICES_MARKUP} is: the names the early script is given. */
export type EarlyChoicesMarkup = { readonly [Name in keyof typeof EARLY_CHOICES_MARKUP]: string };

/** The attribute that names a toggle group, for its props: `<ToggleButtonGroup {...choiceGroupProps('amount')}>`. */
export function choiceGroupProps(group: ChoiceGroup): Record<string, string> {
  return { [EARLY_CHOICES_MARKUP.group]: group };
}

/** A marker attribute (present, empty) for an element's props, such as {@link EARLY_CHOICES_MARKUP}'s `continueButton`. */
export function markerProps(attribute: string): Record<string, string> {
  return { [attribute]: '' };
}

/** The choices a donor made on the pre-rendered screen before the app was live. */
export interface EarlyChoices {
  /** The pressed amount button: a preset in dollars, Custom Amount, or none (Custom Amount pressed twice). */
  amount: number | typeof CUSTOM_AMOUNT_VALUE | null;
  /** What the custom amount field holds, and whether it holds text its number input cannot read. */
  customText: string;
  customBadInput: boolean;
  frequency: Frequency;
  cause: Cause | null;
  /** Whether the donor pressed Continue to Donation after their last choice. */
  continued: boolean;
}

/**
 * Takes the choices the early script kept in the pre-rendered markup of `root` (decision 0023): reads the
 * pressed buttons and the custom field, and removes the state attribute, which stops the script for good.
 * Returns null when the donor chose nothing before the app was live (or the page was not pre-rendered).
 * Call it once, when the hydrated screen commits and before anything re-renders the controls.
 */
export function takeEarlyChoices(root: Element | null): EarlyChoices | null {
  const state = root?.getAttribute(EARLY_CHOICES_MARKUP.state);
  root?.removeAttribute(EARLY_CHOICES_MARKUP.state);
  if (!root || !state) return null;

  const pressed = (group: ChoiceGroup) =>
    root.querySelector<HTMLButtonElement>(`[${EARLY_CHOICES_MARKUP.group}="${group}"] [aria-pressed="true"]`)?.value;
  const amount = pressed('amount');
  const input = root.querySelector<HTMLInputElement>(`[${EARLY_CHOICES_MARKUP.customField}] input`);
  return {
    amount: amount === CUSTOM_AMOUNT_VALUE ? amount : (PRESET_AMOUNTS_DOLLARS.find((preset) => String(preset) === amount) ?? null),
    customText: input?.value ?? '',
    customBadInput: input?.validity.badInput ?? false,
    frequency: FREQUENCIES.find((frequency) => frequency === pressed('frequency')) ?? DEFAULT_FREQUENCY,
    cause: CAUSES.find((cause) => cause === pressed('cause')) ?? null,
    continued: state === 'continued',
  };
}
