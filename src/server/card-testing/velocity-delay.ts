import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A whole number of ms from `delayMinMs` to `delayMaxMs`, both included, from the CSPRNG, so the velocity
 * rule's generic decline takes about as long as a real one and its timing tells nothing (issue #4).
 * Throws a RangeError when `delayMinMs` > `delayMaxMs` (loadConfig refuses such settings first).
 */
export function randomDelayMs(delayMinMs: number, delayMaxMs: number): number {
  if (delayMinMs > delayMaxMs) throw new RangeError(`delayMinMs (${delayMinMs}) is greater than delayMaxMs (${delayMaxMs})`);
  return delayMinMs === delayMaxMs ? delayMinMs : randomInt(delayMinMs, delayMaxMs + 1);
}

/** Waits `delayMs` ms; resolves at once for 0. */
export async function waitMs(delayMs: number): Promise<void> {
  if (delayMs > 0) await sleep(delayMs);
}
