import { useLayoutEffect } from 'react';
import { useLocation } from 'react-router';
import { FIRST_LOCATION_KEY } from './first-location';

/**
 * Scrolls the window to the top after each navigation (spec section 2). The jump is instant, never
 * smooth, which also honours prefers-reduced-motion. The first page load is left to the browser,
 * which starts at the top (or where a reload left off): scrolling then would only force a layout of
 * the whole page while it hydrates (issue #5). Renders nothing.
 */
export function ScrollToTop() {
  const { pathname, key } = useLocation();
  const firstLoad = key === FIRST_LOCATION_KEY;
  useLayoutEffect(() => {
    if (!firstLoad) window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
  }, [pathname, firstLoad]);
  return null;
}
