import { describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import es from '../../locales/es.json';
import { i18nWithCatalogue } from '../../shared/i18n/compile-catalogue';
import { VALIDATION_MESSAGE_IDS } from '../../shared/validation-message-ids';
import { CARD_EXPIRED_MESSAGE } from '../../shared/donation';
import { apiErrorMessage } from './api-error-message';

const english = i18nWithCatalogue('en', en);
const spanish = i18nWithCatalogue('es', es);

describe('apiErrorMessage (issue #24)', () => {
  it("shows the server's own English sentence on English pages", () => {
    expect(apiErrorMessage(english, { message: 'Your card has insufficient funds.', code: 'insufficient_funds' })).toBe('Your card has insufficient funds.');
    expect(apiErrorMessage(english, { message: 'Failed to process donation' })).toBe('Failed to process donation');
  });

  it('translates a known code on Spanish pages, and falls back to error.generic, never the English sentence', () => {
    expect(apiErrorMessage(spanish, { message: 'Your card has insufficient funds.', code: 'insufficient_funds' })).toBe('Tu tarjeta no tiene fondos suficientes.');
    expect(apiErrorMessage(spanish, { message: 'Your card was declined.', code: 'card_declined' })).toBe('Tu tarjeta fue rechazada.');
    expect(apiErrorMessage(spanish, { message: 'Something odd', code: 'no_such_code' })).toBe('Algo salió mal. Inténtalo de nuevo.');
    expect(apiErrorMessage(spanish, { message: 'Failed to process donation' })).toBe('Algo salió mal. Inténtalo de nuevo.');
  });
});

describe('validation messages through the catalogue (issue #24, decision 0093)', () => {
  it("gives every shared schema message's English verbatim in the English catalogue", () => {
    for (const [message, id] of Object.entries(VALIDATION_MESSAGE_IDS)) expect(english._(id)).toBe(message);
  });

  it('has a Spanish text for every one of them', () => {
    for (const id of Object.values(VALIDATION_MESSAGE_IDS)) expect(spanish._(id)).not.toBe(english._(id));
    expect(spanish._(VALIDATION_MESSAGE_IDS[CARD_EXPIRED_MESSAGE] ?? '')).toBe('La tarjeta está vencida');
  });
});
