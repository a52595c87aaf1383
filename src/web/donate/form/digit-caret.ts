/** Number of digits in `text` before index `end`. */
export function countDigitsBefore(text: string, end: number): number {
  return text.slice(0, end).replace(/\D/g, '').length;
}

/**
 * The caret index in `formatted` just after its `digitCount`-th digit (0 → start), so that
 * re-formatting a digit field (card number grouping, CVV stripping) keeps the caret beside the
 * digit the donor just typed or deleted.
 */
export function caretAfterDigits(formatted: string, digitCount: number): number {
  if (digitCount <= 0) return 0;
  let seen = 0;
  for (let i = 0; i < formatted.length; i += 1) {
    if (/\d/.test(formatted.charAt(i))) seen += 1;
    if (seen === digitCount) return i + 1;
  }
  return formatted.length;
}
