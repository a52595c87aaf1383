import { useEffect, useState } from 'react';
import { PRERENDERED_PATH_ATTRIBUTE } from '../../shared/prerendered-pages';

// NOTE: module state, not React state: it is only true between main.tsx's call of hydrateRoot and
// the commit of that hydration, and a screen reads it once, when it mounts (issue #5, decision 0021).
let hydrating = false;

/** Called by main.tsx just before it hydrates pre-rendered markup (not when it renders from scratch). */
export function beginHydration(): void {
  hydrating = true;
}

/**
 * Placed last in the routed screen's Suspense boundary (whose content React hydrates after the rest
 * of the page): its effect runs after the screen's own effects, which ends the hydration, so screens mounted later (in-app navigation) see {@link useMountedByHydration} false.
 * It also drops the root's pre-rendered route attribute: from then on the markup is the live app,
 * which is how the end-to-end tests know a click will be handled.
 */
export function HydrationEnd(): null {
  useEffect(() => {
    if (!hydrating) return;
    hydrating = false;
    document.querySelector(`[${PRERENDERED_PATH_ATTRIBUTE}]`)?.removeAttribute(PRERENDERED_PATH_ATTRIBUTE);
  }, []);
  return null;
}

/**
 * True when this component's first render hydrated pre-rendered HTML, false when it rendered in the
 * browser from the start (issue #5, decision 0021). Such a screen must render the build's default
 * state first (browser-only state such as sessionStorage would not match the markup) and may apply
 * browser state after mounting. Unlike useSyncExternalStore's server snapshot, reading it forces no
 * synchronous re-render of the screen after hydration (a long task on a phone).
 */
export function useMountedByHydration(): boolean {
  const [mountedByHydration] = useState(() => hydrating);
  return mountedByHydration;
}
