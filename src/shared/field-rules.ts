import { z } from 'zod';
import { amountError } from './amounts';
import { CAUSES } from './causes';
import { FREQUENCIES } from './frequencies';
import { isValidCvv, passesLuhn, PAN_MAX_DIGITS, PAN_MIN_DIGITS, stripCardNumber } from './card';

/** A check on a trimmed, normalised string and the message shown when it fails. */
type Rule = readonly [test: (value: string) => boolean, message: string];

/** Message of a text field holding a character no donor types (issue #10, part 2). */
export const UNSUPPORTED_CHARACTERS_MESSAGE = 'Please remove unsupported characters';

// NOTE: C0 controls (U+0000-U+001F: NUL, which PostgreSQL refuses in text, and the rest, which no keyboard
// types), DEL and the C1 controls (U+007F-U+009F), the bidirectional embedding, override and isolate controls
// (U+202A-U+202E, U+2066-U+2069: "Rtl \u202Egnp.exe" reads "Rtl exe.png"; issue #32, part 4; Unicode's UAX #9 and
// Trojan Source, CVE-2021-42574), and UTF-16 surrogates not in a pair (which are not Unicode text and cannot be
// encoded as UTF-8). Multi-line text keeps tab and line feed. Letters of right-to-left scripts and the implicit
// marks (U+200E, U+200F) stay allowed: an Arabic or Hebrew name is text, not a control.
const LONE_SURROGATE = '[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]';
const BIDI_CONTROLS = '\\u202A-\\u202E\\u2066-\\u2069';
const SINGLE_LINE_UNSUPPORTED = new RegExp(`[\\u0000-\\u001F\\u007F-\\u009F${BIDI_CONTROLS}]|${LONE_SURROGATE}`);
const MULTI_LINE_UNSUPPORTED = new RegExp(`[\\u0000-\\u0008\\u000B-\\u001F\\u007F-\\u009F${BIDI_CONTROLS}]|${LONE_SURROGATE}`);

/** How a text field treats line breaks: `single` refuses every control character, `multi` keeps tab and newline. */
type TextLines = 'single' | 'multi';

/**
 * True when `value` holds a character a text field refuses (see {@link UNSUPPORTED_CHARACTERS_MESSAGE}):
 * a C0 or C1 control character or DEL (tab and line feed allowed when `lines` is `multi`), a bidirectional
 * embedding, override or isolate control, or a lone surrogate. The one definition of the rule: the donor form,
 * every text schema ({@link textField}) and the server's guard of every input (server/http/input-guard.ts) use it.
 */
export function hasUnsupportedCharacters(value: string, lines: TextLines = 'single'): boolean {
  return (lines === 'multi' ? MULTI_LINE_UNSUPPORTED : SINGLE_LINE_UNSUPPORTED).test(value);
}

/** `value` with its CRLF and CR line breaks as LF: how a multi-line text is read before its characters are checked. */
export function withLineFeeds(value: string): string {
  return value.replace(/\r\n?/g, '\n');
}

/**
 * A string schema that trims its input, turns CRLF and CR line breaks into LF (`multi` only), normalises it
 * to NFC (so the same text is stored the same way however it was typed), refuses unsupported characters
 * (issue #10), then reports only the first failing rule, so a donor sees one message per field in the order
 * the spec lists them (spec section 5). No coercion: a non-string input fails with the first rule's message.
 */
export function textField(rules: readonly [Rule, ...Rule[]], lines: TextLines = 'single') {
  const text = z.string({ error: rules[0][1] }).trim();
  return (lines === 'multi' ? text.overwrite(withLineFeeds) : text)
    .normalize('NFC')
    .superRefine((value, ctx) => {
      if (hasUnsupportedCharacters(value, lines)) {
        ctx.addIssue({ code: 'custom', message: UNSUPPORTED_CHARACTERS_MESSAGE });
        return;
      }
      const failed = rules.find(([test]) => !test(value));
      if (failed) ctx.addIssue({ code: 'custom', message: failed[1] });
    });
}

/** Rules of {@link textField}: not empty, at least `n` characters, at most `n` characters. */
export const present: Rule[0] = (value) => value.length > 0;
export const atLeast = (n: number): Rule[0] => (value) => value.length >= n;
export const atMost = (n: number): Rule[0] => (value) => value.length <= n;

/**
 * A donation amount in dollars (spec section 5, issue #2): the rule of {@link amountError}, one message
 * at a time. No coercion: a string is rejected.
 */
export const AmountDollarsSchema = z.number({ error: 'Amount must be a number' }).superRefine((value, ctx) => {
  const message = amountError(value);
  if (message) ctx.addIssue({ code: 'custom', message });
});

/** One of the five causes (spec section 3). */
export const CauseSchema = z.enum(CAUSES, { error: 'Please choose a cause' });
/** One of the three frequencies (spec section 3). */
export const FrequencySchema = z.enum(FREQUENCIES, { error: 'Please choose a frequency' });

/** Longest accepted text per field, in characters (issue #3: "Strings are length-limited at the schema"). */
export const MAX_LENGTHS = {
  name: 100,
  email: 254,
  phone: 40,
  street: 200,
  city: 100,
  state: 100,
  zipCode: 20,
  country: 100,
  message: 1000,
} as const;

/** Minimum characters of a donor or cardholder name (spec section 9). */
export const NAME_MIN_LENGTH = 2;

// NOTE: a pragmatic e-mail check (one @, a dot in the domain, no spaces), as browsers' type=email does;
// the receipt e-mail is the real proof that an address works.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Donor name: required, at least 2 characters (spec section 5). */
export const DonorNameSchema = textField([
  [present, 'Name is required'],
  [atLeast(NAME_MIN_LENGTH), 'Name must be at least 2 characters'],
  [atMost(MAX_LENGTHS.name), `Name must be at most ${MAX_LENGTHS.name} characters`],
]);

/** Donor e-mail: required and valid (spec section 5). */
export const DonorEmailSchema = textField([
  [present, 'Email is required'],
  [(v) => EMAIL_PATTERN.test(v), 'Please enter a valid email address'],
  [atMost(MAX_LENGTHS.email), `Email must be at most ${MAX_LENGTHS.email} characters`],
]);

/**
 * An optional one-line text field (phone, address lines): may be empty, at most `maxLength` characters
 * (after NFC normalisation), no control characters.
 */
export function optionalText(label: string, maxLength: number) {
  return textField([[atMost(maxLength), `${label} must be at most ${maxLength} characters`]]);
}

/** The donor's optional message: may be empty, several lines (tab and newline allowed), at most 1,000 characters. */
export const MessageSchema = textField(
  [[atMost(MAX_LENGTHS.message), `Message must be at most ${MAX_LENGTHS.message} characters`]],
  'multi',
);

/** Cardholder name: required, at least 2 characters (spec section 5). */
export const CardholderNameSchema = textField([
  [present, 'Cardholder name is required'],
  [atLeast(NAME_MIN_LENGTH), 'Name must be at least 2 characters'],
  [atMost(MAX_LENGTHS.name), `Name must be at most ${MAX_LENGTHS.name} characters`],
]);

const isValidPan = (digits: string) =>
  /^\d+$/.test(digits) && digits.length >= PAN_MIN_DIGITS && digits.length <= PAN_MAX_DIGITS && passesLuhn(digits);

/** Card number as typed in the form: spaces ignored, then digits only and a valid Luhn checksum (spec section 5). */
export const CardNumberInputSchema = textField([
  [present, 'Card number is required'],
  [(v) => isValidPan(stripCardNumber(v)), 'Please enter a valid card number'],
]);

/** Card number (PAN) as the API takes it: digits only, no spaces (spec section 3), with a valid Luhn checksum. */
export const PanSchema = textField([
  [present, 'Card number is required'],
  [isValidPan, 'Please enter a valid card number'],
]);

/** CVV: required, 3 or 4 digits whatever the brand (spec section 5). */
export const CvvSchema = textField([
  [present, 'CVV is required'],
  [isValidCvv, 'CVV must be 3-4 digits'],
]);

/** Expiry month: required, '01'..'12' (spec section 5). */
export const ExpiryMonthSchema = textField([
  [present, 'Month is required'],
  [(v) => /^(0[1-9]|1[0-2])$/.test(v), 'Month is required'],
]);

/** Expiry year: required, a four-digit year (spec section 5); whether it is in the offered range is checked with the month. */
export const ExpiryYearSchema = textField([
  [present, 'Year is required'],
  [(v) => /^\d{4}$/.test(v), 'Year is required'],
]);
