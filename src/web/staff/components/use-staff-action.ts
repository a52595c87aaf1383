import { useState } from 'react';
import { describeError } from './describe-error';

/** What {@link useStaffAction} gives a page. */
export interface StaffAction {
  /** True while an action runs (the page disables its buttons, so one click is one request). */
  busy: boolean;
  /** Why the last action failed, in words (the API's message); undefined while none failed. */
  actionError: string | undefined;
  /** What the last action did, for the page's `role="status"` line; undefined while none succeeded. */
  status: string | undefined;
  /** Runs `action`; on success shows `done` and calls the hook's `afterDone` (say, reload the page's data). */
  act: (action: () => Promise<void>, done: string) => Promise<void>;
  /** Forgets the last outcome (a dialog opened afresh shows no earlier error). */
  clear: () => void;
}

/**
 * One staff action at a time on a page (team, passkeys): clears the last outcome, runs the API call, then announces what
 * it did or why it failed (issue #21: errors and outcomes are announced, a role="status" / role="alert" line).
 */
export function useStaffAction(afterDone: () => void): StaffAction {
  const [actionError, setError] = useState<string>();
  const [status, setStatus] = useState<string>();
  const [busy, setBusy] = useState(false);
  const act = async (action: () => Promise<void>, done: string) => {
    setBusy(true);
    setError(undefined);
    setStatus(undefined);
    try {
      await action();
      setStatus(done);
      afterDone();
    } catch (caught) {
      setError(describeError(caught));
    }
    setBusy(false);
  };
  const clear = () => {
    setError(undefined);
    setStatus(undefined);
  };
  return { busy, actionError, status, act, clear };
}
