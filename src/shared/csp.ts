/**
 * How the server hands the page its Content-Security-Policy nonce (issue #4, "Headers"; ASVS 5.0 section 3.4).
 * NOTE: Vite's convention (`<meta property="csp-nonce" nonce="...">`): the value sits in a `nonce` attribute,
 * which browsers hide from `getAttribute` and CSS selectors once a CSP applies, so injected CSS cannot read it
 * back; scripts read it through the element's `nonce` property. Vite's own preload helper reads the same tag.
 */

/** `property` of the `<meta>` tag that carries the per-response nonce. */
export const CSP_NONCE_META_PROPERTY = 'csp-nonce';
