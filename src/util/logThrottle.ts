/** Logs a repeated problem at most once per interval per key, with the count of suppressed repeats. */
import type { Logger } from 'pino';

export class LogThrottle {
  readonly #log: Logger;
  readonly #intervalMs: number;
  readonly #now: () => number;
  readonly #seen = new Map<string, { lastMs: number; suppressed: number }>();

  constructor(log: Logger, intervalMs = 60_000, now: () => number = Date.now) {
    this.#log = log;
    this.#intervalMs = intervalMs;
    this.#now = now;
  }

  warn(key: string, details: Record<string, unknown>, message: string): void {
    const now = this.#now();
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
