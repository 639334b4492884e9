/**
 * Per-key debouncing: however often a key is asked for within `delayMs`, its
 * task runs once, at the end of the first request's delay. A delay of 0 runs
 * the task at once. A task that throws is reported, never uncaught.
 */
import { guarded, type ErrorReport } from '../util/guarded.js';

export class KeyedDebounce {
  readonly #timers = new Map<string, NodeJS.Timeout>();
  readonly #delayMs: number;
  readonly #report: (key: string) => ErrorReport;

  constructor(delayMs: number, report: (key: string) => ErrorReport) {
    this.#delayMs = delayMs;
    this.#report = report;
  }

  schedule(key: string, task: () => void): void {
    if (this.#delayMs === 0) return task();
    if (this.#timers.has(key)) return;
    const timer = setTimeout(
      guarded(() => {
        this.#timers.delete(key);
        task();
      }, this.#report(key)),
      this.#delayMs,
    );
    // A pending recompute must not keep the process alive on shutdown.
    timer.unref();
    this.#timers.set(key, timer);
  }

  /** Drops every pending task without running it. */
  cancelAll(): void {
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
  }

  get pending(): number {
    return this.#timers.size;
  }
}
