import { useLayoutEffect } from 'react';
import { useLocation } from 'react-router';

/**
 * Scrolls the window to the top after each navigation (spec section 2). The jump is instant, never
 * smooth, which also honours prefers-reduced-motion. Renders nothing.
 */
export function ScrollToTop() {
  const { pathname } = useLocation();
  useLayoutEffect(() => {
    window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
  }, [pathname]);
  return null;
}
