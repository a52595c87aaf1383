import { useCallback, useRef, useState } from 'react';

/** An error to show in the snackbar; `key` is new for each error so a new snackbar replaces the last. */
export interface SnackbarError {
  key: number;
  message: string;
}

/**
 * State of the error snackbar (spec sections 4 and 8): `showError` puts up a new one (replacing
 * any shown), `dismissError(key)` removes it once it has closed, unless a newer one took its place.
 */
export function useErrorSnackbar() {
  const [error, setError] = useState<SnackbarError | null>(null);
  const nextKey = useRef(0);
  const showError = useCallback((message: string) => {
    nextKey.current += 1;
    setError({ key: nextKey.current, message });
  }, []);
  const dismissError = useCallback((key: number) => {
    setError((current) => (current?.key === key ? null : current));
  }, []);
  return { error, showError, dismissError };
}
