/**
 * Loads the donation form screen's code (react-hook-form, the card rules, zod). The router's lazy
 * route and the selection screen's prefetch share it, so a prefetched chunk is the one the route uses.
 */
export function loadDonationFormPage() {
  return import('./donation-form-page');
}

/**
 * Starts loading the form's code without waiting for it (issue #5: prefetch it once a cause is
 * picked, so 'Continue to Donation' opens the form without a spinner). A failed prefetch is
 * ignored: the route loads the code again and shows its own error if that fails too.
 */
export function prefetchDonationFormPage(): void {
  loadDonationFormPage().catch(() => undefined);
}
