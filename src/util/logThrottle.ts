/**
 * Logs a repeated problem at most once per interval per key, with the count of suppressed repeats.
 * The interval is measured on the monotonic clock: a wall clock stepped back (a Pi without a
 * real-time clock, then NTP) must not silence a problem for the size of the step, nor a step
 * forward let a burst of repeats through.
 */
import type { Logger } from 'pino';
import { monotonicClock, type MonotonicClock } from './clock.js';

export class LogThrottle {
  readonly #log: Logger;
  readonly #intervalMs: number;
  readonly #monotonic: MonotonicClock;
  readonly #seen = new Map<string, { lastMs: number; suppressed: number }>();

  constructor(log: Logger, intervalMs = 60_000, monotonic: MonotonicClock = monotonicClock) {
    this.#log = log;
    this.#intervalMs = intervalMs;
    this.#monotonic = monotonic;
  }

  warn(key: string, details: Record<string, unknown>, message: string): void {
    const now = this.#monotonic.now();
    const entry = this.#seen.get(key);
    if (entry && now - entry.lastMs < this.#intervalMs) {
      entry.suppressed++;
      return;
    }
    if (this.#seen.size > 1000) this.#seen.clear();
    this.#seen.set(key, { lastMs: now, suppressed: 0 });
    this.#log.warn({ ...details, suppressedSinceLast: entry?.suppressed ?? 0 }, message);
  }
}
