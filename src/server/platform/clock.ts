/**
 * The one clock every runner (reconciler, mail relay, year-end statements) reads "now" from (DESIGN.md, "Time"),
 * so tests can move time without sleeping.
 */
export interface Clock {
  /** The current instant. */
  now(): Date;
}

/** The machine's clock. */
export const systemClock: Clock = { now: () => new Date() };

/** A clock tests set and move by hand; starts at `start` (default: the machine's now). */
export interface ManualClock extends Clock {
  /** Moves the clock forward by `ms` milliseconds. */
  advance(ms: number): void;
  /** Sets the clock to `instant`. */
  set(instant: Date): void;
}

/** A {@link ManualClock} starting at `start`. */
export function manualClock(start: Date = new Date()): ManualClock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance(ms) {
      current += ms;
    },
    set(instant) {
      current = instant.getTime();
    },
  };
}
