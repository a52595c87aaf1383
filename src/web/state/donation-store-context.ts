import { createContext } from 'react';
import type { DonationResult, DonationSelection } from '../../shared/donation';

/**
 * The shared donation state (spec section 3): the donor's selection and the donation result,
 * each settable, readable and clearable, plus `clearAll` for 'Make Another Donation'.
 */
export interface DonationStore {
  /** The selection confirmed on /donate, or null before one is made. */
  selection: DonationSelection | null;
  /** The result of a successful donation, or null before one is made. */
  result: DonationResult | null;
  setSelection: (selection: DonationSelection) => void;
  clearSelection: () => void;
  setResult: (result: DonationResult) => void;
  clearResult: () => void;
  /** Clears the selection and the result (spec section 2: 'Make Another Donation'). */
  clearAll: () => void;
}

/** React context of the {@link DonationStore}; null outside `DonationStoreProvider`. */
export const DonationStoreContext = createContext<DonationStore | null>(null);
