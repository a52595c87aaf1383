import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DonationResultSchema, DonationSelectionSchema } from '../../shared/donation';
import { readSessionItem, removeSessionItem, SESSION_KEYS, writeSessionItem } from './session-store';

/** A Map-backed stand-in for window.sessionStorage. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

describe('session store', () => {
  let storage: Storage;
  beforeEach(() => {
    storage = memoryStorage();
    vi.stubGlobal('window', { sessionStorage: storage });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('round-trips a valid selection', () => {
    const selection = { amount: 12.5, frequency: 'monthly', cause: 'education-outreach' } as const;
    writeSessionItem(SESSION_KEYS.selection, DonationSelectionSchema, selection);
    expect(readSessionItem(SESSION_KEYS.selection, DonationSelectionSchema)).toEqual(selection);
    removeSessionItem(SESSION_KEYS.selection);
    expect(storage.getItem(SESSION_KEYS.selection)).toBeNull();
  });

  it('drops stored values the schema rejects, and non-JSON', () => {
    storage.setItem(SESSION_KEYS.selection, JSON.stringify({ amount: 0, frequency: 'weekly', cause: 'x' }));
    expect(readSessionItem(SESSION_KEYS.selection, DonationSelectionSchema)).toBeNull();
    expect(storage.getItem(SESSION_KEYS.selection)).toBeNull();
    storage.setItem(SESSION_KEYS.result, '{not json');
    expect(readSessionItem(SESSION_KEYS.result, DonationResultSchema)).toBeNull();
    expect(storage.getItem(SESSION_KEYS.result)).toBeNull();
  });

  it('never stores a value with extra fields such as card data', () => {
    const withCard = { amount: 25, donorName: 'Jane', transactionId: 't', isTestPayment: true, cvv: '123' };
    writeSessionItem(SESSION_KEYS.result, DonationResultSchema, withCard);
    expect(storage.getItem(SESSION_KEYS.result)).toBeNull();
  });
});
