import { type ReactNode, useCallback, useMemo, useState } from 'react';
import type { DonationResult, DonationSelection } from '../../shared/donation';
import { type DonationStore, DonationStoreContext } from './donation-store-context';
import { readSessionItem, removeSessionItem, SESSION_KEYS, writeSessionItem } from './session-store';
import { StoredResult, StoredSelection } from './stored-values';

/**
 * Holds the donation selection and result for the whole app (spec section 3) and mirrors both in
 * sessionStorage, validated on read and write (issue #2) with the shared schemas' rules, so a reload on
 * /donate/form or /donate/thank-you keeps the donor there.
 */
export function DonationStoreProvider({ children }: { children: ReactNode }) {
  const [selection, setSelectionState] = useState<DonationSelection | null>(() =>
    readSessionItem(SESSION_KEYS.selection, StoredSelection),
  );
  const [result, setResultState] = useState<DonationResult | null>(() =>
    readSessionItem(SESSION_KEYS.result, StoredResult),
  );

  const setSelection = useCallback((next: DonationSelection) => {
    writeSessionItem(SESSION_KEYS.selection, StoredSelection, next);
    setSelectionState(next);
  }, []);
  const clearSelection = useCallback(() => {
    removeSessionItem(SESSION_KEYS.selection);
    setSelectionState(null);
  }, []);
  const setResult = useCallback((next: DonationResult) => {
    writeSessionItem(SESSION_KEYS.result, StoredResult, next);
    setResultState(next);
  }, []);
  const clearResult = useCallback(() => {
    removeSessionItem(SESSION_KEYS.result);
    setResultState(null);
  }, []);
  const clearAll = useCallback(() => {
    clearSelection();
    clearResult();
  }, [clearSelection, clearResult]);

  const store = useMemo<DonationStore>(
    () => ({ selection, result, setSelection, clearSelection, setResult, clearResult, clearAll }),
    [selection, result, setSelection, clearSelection, setResult, clearResult, clearAll],
  );
  return <DonationStoreContext.Provider value={store}>{children}</DonationStoreContext.Provider>;
}
