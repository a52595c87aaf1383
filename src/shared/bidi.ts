/**
 * Text direction isolation of a text someone else wrote (issue #32, part 4; decision 0096), for where it is shown
 * inside other text as a plain string (a sentence, a page title, an aria-label): FIRST STRONG ISOLATE (U+2068) before
 * it and POP DIRECTIONAL ISOLATE (U+2069) after it (Unicode UAX #9, section 2.7; the plain-text equivalent of HTML's
 * `<bdi>`, which JSX uses instead). An Arabic or Hebrew name then reads right to left and cannot reorder the words
 * around it. Takes and returns a string; the empty string is returned as it is.
 */
export function isolated(text: string): string {
  return text === '' ? text : `\u2068${text}\u2069`;
}
