/**
 * Routes called by machines, not by the site's pages: gateway webhooks (authenticated by their signature;
 * issue #11) and operator actions (authenticated by `Authorization: Bearer <ADMIN_TOKEN>`; DESIGN.md, "Operator
 * actions"). A browser never sends those credentials on its own, so the browser CSRF checks do not apply to them
 * (OWASP CSRF Prevention Cheat Sheet), and they are not donors' payment attempts, so the card-testing limits
 * per IP do not count them (Stripe sends every webhook from a few addresses).
 */

/** Path prefixes of the machine routes. */
export const MACHINE_ROUTE_PREFIXES = ['/api/webhooks/', '/api/admin/'] as const;

/** True when `url` (path and query) is under one of {@link MACHINE_ROUTE_PREFIXES}. */
export function isMachineRoute(url: string): boolean {
  return MACHINE_ROUTE_PREFIXES.some((prefix) => url.startsWith(prefix));
}
