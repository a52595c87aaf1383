/**
 * `value` escaped for HTML text and for double- or single-quoted attribute values (OWASP XSS Prevention Cheat Sheet,
 * rules 1 and 2): `&`, `<`, `>`, `"` and `'` as character references. One escaper for every piece of HTML the site
 * writes as text: the pages' heads (build and server), the site configuration's meta tag, a campaign's hero.
 */
export function escapeHtml(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');
}
