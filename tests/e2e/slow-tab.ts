import type { Browser, Page } from '@playwright/test';
import { recordPageErrors } from './fixtures';

/** A phone's tab a test opened: the page, the errors it logs (recordPageErrors), and how to close it. */
export interface SlowTab {
  page: Page;
  errors: string[];
  close: () => Promise<void>;
}

/** Network conditions for CDP's Network.emulateNetworkConditions (latency in ms, throughputs in bytes per second). */
export interface NetworkConditions {
  offline: boolean;
  latency: number;
  downloadThroughput: number;
  uploadThroughput: number;
}

/**
 * A new visitor's phone tab (a fresh context: empty cache and storage; touch; 390 x 844 unless `viewport`), its CPU
 * slowed down `cpuSlowdown` times (1: not at all) and its network throttled to `network` when given, through the
 * Chrome DevTools Protocol. The slowdown ends before the tab closes: Chromium throttles by spinning the page's main
 * thread in a busy loop, idle or not, so a slowed tab costs a core until it is gone (decision 0066, third round).
 */
export async function openSlowTab(
  browser: Browser,
  { cpuSlowdown, network, viewport = { width: 390, height: 844 } }: { cpuSlowdown: number; network?: NetworkConditions; viewport?: { width: number; height: number } },
): Promise<SlowTab> {
  const context = await browser.newContext({ viewport, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const errors = recordPageErrors(page);
  if (cpuSlowdown === 1 && !network) return { page, errors, close: () => context.close() };
  const cdp = await context.newCDPSession(page);
  if (cpuSlowdown !== 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
  if (network) {
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', network);
  }
  const close = async (): Promise<void> => {
    try {
      if (cpuSlowdown !== 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    } finally {
      await context.close();
    }
  };
  return { page, errors, close };
}
