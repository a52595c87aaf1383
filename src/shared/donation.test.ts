import { describe, expect, it } from 'vitest';
import { PAN_MAX_DIGITS, passesLuhn } from './card';
import {
  CARD_EXPIRED_MESSAGE,
  DonationFormSchema,
  type DonationFormValues,
  DonationSubmissionSchema,
  EMPTY_DONATION_FORM,
  toDonationSubmission,
} from './donation';
import { MAX_LENGTHS, UNSUPPORTED_CHARACTERS_MESSAGE } from './field-rules';

const nextYear = String(new Date().getFullYear() + 1);
const lastYear = String(new Date().getFullYear() - 1);

const validForm: DonationFormValues = {
  ...EMPTY_DONATION_FORM,
  donorName: 'Ana Lopez',
  donorEmail: 'ana@example.org',
  cardNumber: '4242 4242 4242 4242',
  cardholderName: 'Ana Lopez',
  expiryMonth: '12',
  expiryYear: nextYear,
  cvv: '123',
};

/** The first message per dotted path, as the form and the API show them. */
function messages(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const byPath: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) byPath[issue.path.join('.')] ??= issue.message;
  return byPath;
}

describe('DonationFormSchema (spec section 5)', () => {
  it('accepts a complete form', () => {
    expect(DonationFormSchema.safeParse(validForm).success).toBe(true);
  });

  it('shows the spec message for every required field left empty', () => {
    expect(messages(DonationFormSchema.safeParse(EMPTY_DONATION_FORM))).toEqual({
      donorName: 'Name is required',
      donorEmail: 'Email is required',
      cardNumber: 'Card number is required',
      cardholderName: 'Cardholder name is required',
      expiryMonth: 'Month is required',
      expiryYear: 'Year is required',
      cvv: 'CVV is required',
    });
  });

  it('shows the spec message for every malformed field', () => {
    const form = { ...validForm, donorName: 'A', donorEmail: 'ana@', cardNumber: '4242 4242 4242 4241', cardholderName: ' B ', cvv: '12' };
    expect(messages(DonationFormSchema.safeParse(form))).toEqual({
      donorName: 'Name must be at least 2 characters',
      donorEmail: 'Please enter a valid email address',
      cardNumber: 'Please enter a valid card number',
      cardholderName: 'Name must be at least 2 characters',
      cvv: 'CVV must be 3-4 digits',
    });
  });

  it('says a card with a past expiry has expired, even while other fields are empty', () => {
    const result = DonationFormSchema.safeParse({ ...EMPTY_DONATION_FORM, expiryMonth: '12', expiryYear: lastYear });
    expect(messages(result).expiryMonth).toBe(CARD_EXPIRED_MESSAGE);
  });
});

describe('DonationSubmissionSchema (the API payload)', () => {
  const selection = { amount: 25, frequency: 'monthly', cause: 'research-science' } as const;
  const payload = toDonationSubmission(selection, validForm);

  it('is built from the selection and the form, with the card number stripped and its brand', () => {
    expect(payload.creditCard).toEqual({
      number: '4242424242424242',
      holderName: 'Ana Lopez',
      expiryMonth: '12',
      expiryYear: nextYear,
      cvv: '123',
      type: 'visa',
    });
    expect(payload.paymentMethod).toBe('credit_card');
    expect(DonationSubmissionSchema.parse(payload)).toEqual(payload);
  });

  it('accepts the minimal payload and defaults isAnonymous to false', () => {
    const { donorPhone, donorAddress, message, isAnonymous, ...minimal } = payload;
    void [donorPhone, donorAddress, message, isAnonymous];
    expect(DonationSubmissionSchema.parse(minimal).isAnonymous).toBe(false);
  });

  it('answers an empty or card-less body with messages, not an exception', () => {
    expect(messages(DonationSubmissionSchema.safeParse({}))).toMatchObject({
      amount: 'Amount must be a number',
      donorName: 'Name is required',
      creditCard: 'Card details are required',
    });
    expect(messages(DonationSubmissionSchema.safeParse({ ...payload, creditCard: null })).creditCard).toBe(
      'Card details are required',
    );
  });

  it('rejects unknown fields instead of dropping them', () => {
    const result = DonationSubmissionSchema.safeParse({ ...payload, admin: true });
    expect(result.success).toBe(false);
    const card = DonationSubmissionSchema.safeParse({ ...payload, creditCard: { ...payload.creditCard, pin: '1' } });
    expect(card.success).toBe(false);
  });

  it('coerces nothing', () => {
    for (const bad of [{ amount: '25' }, { isAnonymous: 'false' }, { creditCard: { ...payload.creditCard, cvv: 123 } }]) {
      expect(DonationSubmissionSchema.safeParse({ ...payload, ...bad }).success).toBe(false);
    }
  });

  it.each([0, 0.5, 1_000_000, 12.345, -1, Number.NaN, Number.POSITIVE_INFINITY])('rejects the amount %d', (amount) => {
    expect(messages(DonationSubmissionSchema.safeParse({ ...payload, amount })).amount).toBeDefined();
  });

  it('takes the card number without spaces only', () => {
    const spaced = { ...payload, creditCard: { ...payload.creditCard, number: '4242 4242 4242 4242' } };
    expect(messages(DonationSubmissionSchema.safeParse(spaced))['creditCard.number']).toBe(
      'Please enter a valid card number',
    );
  });

  it('rejects other causes, frequencies and payment methods', () => {
    for (const bad of [{ cause: 'whales' }, { frequency: 'weekly' }, { paymentMethod: 'paypal' }]) {
      expect(DonationSubmissionSchema.safeParse({ ...payload, ...bad }).success).toBe(false);
    }
  });

  it('limits every length-limited string field: accepted at its maximum, refused one character over', () => {
    /** A Visa-like number of `length` digits that passes Luhn, so only its length can be wrong. */
    const luhnNumber = (length: number) => {
      const body = `4${'0'.repeat(length - 2)}`;
      return `${body}${[...'0123456789'].find((digit) => passesLuhn(body + digit))}`;
    };
    const text = (length: number) => 'x'.repeat(length);
    const email = (length: number) => `${'a'.repeat(length - '@example.org'.length)}@example.org`;
    // Each field: its path in the payload, its longest accepted length, and a valid value of a given length. The other
    // strings are enums or fixed formats (frequency, cause, paymentMethod, creditCard.type, expiryMonth, expiryYear).
    const fields: Array<[path: [string] | [string, string], maxLength: number, valueOfLength: (length: number) => string]> = [
      [['donorName'], MAX_LENGTHS.name, text],
      [['donorEmail'], MAX_LENGTHS.email, email],
      [['donorPhone'], MAX_LENGTHS.phone, text],
      [['donorAddress', 'street'], MAX_LENGTHS.street, text],
      [['donorAddress', 'city'], MAX_LENGTHS.city, text],
      [['donorAddress', 'state'], MAX_LENGTHS.state, text],
      [['donorAddress', 'zipCode'], MAX_LENGTHS.zipCode, text],
      [['donorAddress', 'country'], MAX_LENGTHS.country, text],
      [['message'], MAX_LENGTHS.message, text],
      [['creditCard', 'holderName'], MAX_LENGTHS.name, text],
      [['creditCard', 'number'], PAN_MAX_DIGITS, luhnNumber],
      [['creditCard', 'cvv'], 4, (length) => '7'.repeat(length)], // 3 or 4 digits (spec section 5)
    ];
    const withValue = ([field, nested]: [string] | [string, string], value: string): unknown =>
      nested === undefined
        ? { ...payload, [field]: value }
        : { ...payload, [field]: { ...(payload[field as keyof typeof payload] as object), [nested]: value } };

    for (const [path, maxLength, valueOfLength] of fields) {
      const name = path.join('.');
      const longest = valueOfLength(maxLength);
      expect(longest, name).toHaveLength(maxLength);
      expect(messages(DonationSubmissionSchema.safeParse(withValue(path, longest))), `${name} at ${maxLength}`).toEqual({});
      const tooLong = valueOfLength(maxLength + 1);
      expect(Object.keys(messages(DonationSubmissionSchema.safeParse(withValue(path, tooLong)))), `${name} at ${maxLength + 1}`).toEqual([name]);
    }
  });
});

describe('text fields refuse characters no donor types (issue #10, part 2)', () => {
  const payload = toDonationSubmission({ amount: 25, frequency: 'one-time', cause: 'research-science' }, validForm);
  // Every free-text field of the payload, and how to put a value in it.
  const TEXT_FIELDS: Record<string, (value: string) => unknown> = {
    donorName: (value) => ({ ...payload, donorName: value }),
    donorEmail: (value) => ({ ...payload, donorEmail: value }),
    donorPhone: (value) => ({ ...payload, donorPhone: value }),
    'donorAddress.street': (value) => ({ ...payload, donorAddress: { street: value } }),
    'donorAddress.city': (value) => ({ ...payload, donorAddress: { city: value } }),
    'donorAddress.state': (value) => ({ ...payload, donorAddress: { state: value } }),
    'donorAddress.zipCode': (value) => ({ ...payload, donorAddress: { zipCode: value } }),
    'donorAddress.country': (value) => ({ ...payload, donorAddress: { country: value } }),
    message: (value) => ({ ...payload, message: value }),
    'creditCard.holderName': (value) => ({ ...payload, creditCard: { ...payload.creditCard, holderName: value } }),
  };
  // A value each field accepts, into which a bad character is put.
  const base = (field: string) => (field === 'donorEmail' ? 'ana@example.org' : 'Ana Reef');
  const inside = (field: string, character: string) => {
    const value = base(field);
    return field === 'donorEmail' ? `an${character}a@example.org` : `${value.slice(0, 2)}${character}${value.slice(2)}`;
  };

  it('NUL, the other C0 controls, DEL, C1 controls and lone surrogates: 400 with one message, in every text field', () => {
    const bad = ['\u0000', '\u0001', '\u0008', '\u000b', '\u000c', '\u001b', '\u001f', '\u007f', '\u0085', '\u009f', '\ud800', '\udfff', '\udc00\ud800'];
    for (const [field, withValue] of Object.entries(TEXT_FIELDS)) {
      for (const character of bad) {
        const result = DonationSubmissionSchema.safeParse(withValue(inside(field, character)));
        expect(messages(result), `${field} with U+${character.charCodeAt(0).toString(16)}`).toEqual({
          [field]: UNSUPPORTED_CHARACTERS_MESSAGE,
        });
      }
    }
  });

  it('the bidirectional embedding, override and isolate controls (issue #32, part 4): 400 with the same message, in every text field', () => {
    const bidi = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];
    for (const [field, withValue] of Object.entries(TEXT_FIELDS)) {
      for (const character of bidi) {
        const result = DonationSubmissionSchema.safeParse(withValue(inside(field, character)));
        expect(messages(result), `${field} with U+${character.charCodeAt(0).toString(16)}`).toEqual({
          [field]: UNSUPPORTED_CHARACTERS_MESSAGE,
        });
      }
    }
    // "Rtl \u202Egnp.exe" would read "Rtl exe.png" to staff.
    expect(messages(DonationSubmissionSchema.safeParse({ ...payload, donorName: 'Rtl \u202egnp.exe' }))).toEqual({ donorName: UNSUPPORTED_CHARACTERS_MESSAGE });
  });

  it('a name in Arabic or Hebrew, with the implicit direction marks, is text: accepted as it is', () => {
    for (const name of ['\u0644\u064a\u0644\u0649 \u062d\u0633\u0646', '\u05e9\u05e8\u05d4 \u05dc\u05d5\u05d9', 'Dana \u200f\u05dc\u05d5\u05d9\u200e']) {
      expect(DonationSubmissionSchema.parse({ ...payload, donorName: name, message: name }).donorName).toBe(name);
    }
  });

  it('tab and newline only in the message, where CRLF and CR become LF', () => {
    for (const [field, withValue] of Object.entries(TEXT_FIELDS)) {
      for (const character of ['\t', '\n', '\r']) {
        const result = DonationSubmissionSchema.safeParse(withValue(inside(field, character)));
        expect(result.success, `${field} with U+${character.charCodeAt(0).toString(16)}`).toBe(field === 'message');
      }
    }
    const parsed = DonationSubmissionSchema.parse({ ...payload, message: 'Line 1\r\nLine 2\rLine 3\n\tSigned' });
    expect(parsed.message).toBe('Line 1\nLine 2\nLine 3\n\tSigned');
  });

  it('accepts any other Unicode text, paired surrogates (emoji) included, and stores it in NFC', () => {
    const decomposed = 'Jose\u0301 Nun\u0303ez \u{1F420}'; // e + combining acute, n + combining tilde, a fish
    const parsed = DonationSubmissionSchema.parse({ ...payload, donorName: decomposed, message: decomposed });
    expect(parsed.donorName).toBe('Jos\u00e9 Nu\u00f1ez \u{1F420}');
    expect(parsed.message).toBe(parsed.donorName);
  });

  it('the form shows the same message on the field (one schema for both)', () => {
    const form = { ...validForm, donorPhone: '555\u00000100', message: 'Hi\u0007', zipCode: '\ud83d' };
    expect(messages(DonationFormSchema.safeParse(form))).toEqual({
      donorPhone: UNSUPPORTED_CHARACTERS_MESSAGE,
      message: UNSUPPORTED_CHARACTERS_MESSAGE,
      zipCode: UNSUPPORTED_CHARACTERS_MESSAGE,
    });
  });
});
