/**
 * Where the tools find Chromium: `CHROMIUM_PATH`, or Debian's `chromium` package at /usr/bin/chromium (Lighthouse's
 * browser in `npm run bench:web`, and the stand-ins' own test of Stripe.js).
 * NOTE: build tooling, not the product, so it reads the environment itself rather than through the server's config.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * The browser of the end-to-end tests: `CHROMIUM_PATH` when set, else Debian's `chromium-headless-shell` package, the
 * same Chromium (same version, same Blink) built as the headless shell, which is what Playwright itself runs for
 * headless tests by default. The whole browser suite took 3.6 min with it against 4.8-5.0 min with the full browser
 * on this 2-core machine (decision 0066, fourth round).
 */
export const E2E_CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/lib/chromium/chromium-headless-shell';

/**
 * Debian's full Chromium binary (the `chromium` package; /usr/bin/chromium is its launcher script): the embedding e2e
 * (tests/e2e/embed.spec.ts, issue #35) needs a browser that reads a profile's third-party cookie setting, which the
 * headless shell has not (decision 0104).
 */
export const FULL_CHROMIUM_PATH = '/usr/lib/chromium/chromium';

/**
 * Debian's Firefox ESR (the `firefox-esr` package): the embedding's form-mode story in Firefox with third-party cookies
 * blocked (tests/e2e/embed-firefox.spec.ts, issue #35), driven through WebDriver BiDi by Puppeteer (decision 0104).
 */
export const FIREFOX_ESR_PATH = '/usr/bin/firefox-esr';

/** The Debian package of each browser path this project uses, for scripts/ensure-chromium.ts. */
export const CHROMIUM_PACKAGES: Record<string, string> = {
  '/usr/bin/chromium': 'chromium',
  [FULL_CHROMIUM_PATH]: 'chromium',
  '/usr/lib/chromium/chromium-headless-shell': 'chromium-headless-shell',
  [FIREFOX_ESR_PATH]: 'firefox-esr',
};

/** Flags for Chromium on this machine: root, no GPU, and no calls to a network it cannot reach. */
export const CHROMIUM_ARGS: string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
