import { useCallback, useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { StaffApiError } from '../api/staff-fetch';
import { signInPathFor } from '../identity/layout/sign-in-redirect';
import { describeError } from './describe-error';

/** What {@link useStaffData} gives a page. */
export interface StaffData<T> {
  /** The answer of the last load that succeeded (kept while the next one runs, so the page does not flicker). */
  data: T | undefined;
  /** Why the last load failed, in words; undefined once a load succeeds. */
  error: string | undefined;
  /** What the last failed load rejected with (a StaffApiError: its status tells 401 from the rest). */
  failure: unknown;
  /** True while the answer shown is not the one for the current `key`. */
  loading: boolean;
  /** Loads again (after an action changed the data). */
  reload: () => void;
}

/**
 * Loads a staff page's data with `load(key)` (a module-level API call, such as fetchDonations) whenever `key` (the
 * page's query or the record's id) changes or {@link StaffData.reload} is called; an answer that arrives after a newer
 * request started is dropped, so the page always shows the data of its current URL. A 401 (no session, or one that
 * timed out: idle 30 minutes, 12 hours at most) goes to the sign-in page, which comes back to this view afterwards.
 */
export function useStaffData<T>(load: (key: string) => Promise<T>, key: string): StaffData<T> {
  const [state, setState] = useState<{ key?: string; data?: T; failure?: unknown }>({});
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let current = true;
    load(key).then(
      (data) => current && setState({ key, data }),
      (caught: unknown) => current && setState((previous) => ({ ...previous, key, failure: caught ?? new Error('Failed') })),
    );
    return () => {
      current = false;
    };
  }, [load, key, version]);
  const reload = useCallback(() => setVersion((value) => value + 1), []);
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const signedOut = state.failure instanceof StaffApiError && state.failure.status === 401;
  useEffect(() => {
    if (signedOut) void navigate(signInPathFor(pathname + search), { replace: true });
  }, [signedOut, navigate, pathname, search]);
  return {
    data: state.data,
    error: state.failure === undefined ? undefined : describeError(state.failure),
    failure: state.failure,
    loading: state.key !== key,
    reload,
  };
}
