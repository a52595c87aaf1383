/**
 * Where the browser tests find Chromium: `CHROMIUM_PATH`, or Debian's package at /usr/bin/chromium.
 * NOTE: build tooling, not the product, so it reads the environment itself rather than through the server's config.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

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
