import { useSyncExternalStore } from 'react';

const subscribe = () => () => undefined;

/**
 * False while React renders on the server or hydrates server-rendered HTML, true in every other
 * render (issue #5, decision 0021). A screen that shows browser-only state (sessionStorage) renders
 * the server's default state while this is false, so hydration matches the pre-rendered markup, and
 * React renders again with true right after hydrating. Screens rendered without hydration (other
 * routes, in-app navigation) see true from their first render. useSyncExternalStore's server
 * snapshot is React's own mechanism for exactly this.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
