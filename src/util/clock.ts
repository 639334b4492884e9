/** Adapters read time through a Clock so tests can drive it; the core gets time passed in. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
