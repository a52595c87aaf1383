import { EARLY_CHOICES_MARKUP, type EarlyChoicesMarkup } from './early-choices';

/**
 * Runs in the pre-rendered page's `<head>`, before the app's JavaScript (issue #10, decision 0023): from the
 * first paint until the app takes over, it makes the selection screen's markup answer the donor as the live
 * screen would, and keeps each choice in that markup for the app to read back (`takeEarlyChoices`).
 * - A toggle button pressed: pressed (`aria-pressed`, MUI's selected class), the others of its group not;
 *   Custom Amount toggles, and shows or hides, empties and focuses the custom field as the screen does.
 * - Typing in the custom field: the browser keeps the text; the script only notes that a choice was made.
 * - Continue to Donation is enabled once an amount (a preset, or a non-empty custom field) and a cause are
 *   pressed; pressing it is noted, and the app opens the form as soon as it is live.
 * The script handles only these clicks and inputs, and stops them there: until the app has read the choices,
 * it alone answers them, so the app, even while hydrating, never sees a choice twice.
 * NOTE: the page inlines this function's source (`String(captureEarlyChoices)`): it must use only its
 * parameter and the browser's globals, nothing of this module, and stay small.
 */
export function captureEarlyChoices(markup: EarlyChoicesMarkup): void {
  const pressedIn = (root: Element, group: string) =>
    root.querySelector(`[${markup.group}="${group}"] [aria-pressed="true"]`) as HTMLButtonElement | null;

  const handle = (event: Event) => {
    const root = document.getElementById('root');
    const target = event.target;
    if (!root?.hasAttribute(markup.state) || !(target instanceof Element) || !root.contains(target)) return;
    const field = root.querySelector(`[${markup.customField}]`);
    const input = field?.querySelector('input');
    const button = target.closest('button');
    const group = button?.closest(`[${markup.group}]`);

    if (event.type === 'input') {
      if (target !== input) return;
    } else if (button?.hasAttribute(markup.continueButton)) {
      event.stopPropagation();
      root.setAttribute(markup.state, 'continued');
      return;
    } else if (button && group) {
      const isAmount = group.getAttribute(markup.group) === 'amount';
      const isCustom = isAmount && button.value === markup.customValue;
      const press = !(isCustom && button.getAttribute('aria-pressed') === 'true');
      for (const other of group.querySelectorAll('button')) {
        const pressed = press && other === button;
        other.setAttribute('aria-pressed', String(pressed));
        other.classList.toggle(markup.selectedClass, pressed);
      }
      if (isAmount && field && input) {
        input.value = '';
        field.toggleAttribute('hidden', !(isCustom && press));
        // A campaign link's script clicks Custom Amount for the donor (issue #23): no focus, which would scroll the page.
        if (isCustom && press && event.isTrusted) input.focus();
      }
    } else {
      return;
    }

    event.stopPropagation();
    root.setAttribute(markup.state, 'chosen');
    const continueButton = root.querySelector(`[${markup.continueButton}]`) as HTMLButtonElement | null;
    const amount = pressedIn(root, 'amount');
    const ready = !!amount && !!pressedIn(root, 'cause') && (amount.value !== markup.customValue || !!input?.value);
    if (continueButton) {
      continueButton.disabled = !ready;
      continueButton.tabIndex = ready ? 0 : -1;
      continueButton.classList.toggle(markup.disabledClass, !ready);
    }
  };

  document.addEventListener('click', handle, true);
  document.addEventListener('input', handle, true);
}

/** The inline `<script>` of the pre-rendered page that runs {@link captureEarlyChoices} with the screen's markup names. */
export function earlyChoicesScriptTag(): string {
  return `<script>(${String(captureEarlyChoices)})(${JSON.stringify(EARLY_CHOICES_MARKUP)})</script>`;
}
