/** Adapters read time through a Clock so tests can drive it; the core gets time passed in. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * Elapsed milliseconds from an arbitrary origin that never steps (NTP setting the wall clock
 * leaves it alone): what periodic work and "how long ago" measure against. Not epoch time.
 */
export interface MonotonicClock {
  now(): number;
}

export const monotonicClock: MonotonicClock = { now: () => performance.now() };
