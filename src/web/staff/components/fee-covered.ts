import { formatCents } from './format';

/** A gift whose donor covered the card fee, as staff pages word it (issue #23): 'incl. $1.81 fee covered'. */
export function feeCoveredLine(feeCoveredCents: number): string {
  return `incl. ${formatCents(feeCoveredCents)} fee covered`;
}

/**
 * The amount lines of a donation on its staff page (issue #23: "the staff pages show the gift, the fee covered and the
 * total"): `[term, value]` pairs, 'Gift' / 'Fee covered' / 'Total charged' when the donor covered the fee, else none
 * (the page's 'Amount' says it all).
 */
export function feeCoveredFields(amountCents: number, feeCoveredCents: number): [string, string][] {
  if (feeCoveredCents <= 0) return [];
  return [
    ['Gift', formatCents(amountCents - feeCoveredCents)],
    ['Fee covered', formatCents(feeCoveredCents)],
    ['Total charged', formatCents(amountCents)],
  ];
}
