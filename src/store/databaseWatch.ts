/**
 * Watches the open database for problems health must report (its file
 * deleted or replaced, writes failing) and logs each change once, not once
 * per health request: an error when a problem appears or changes, an info
 * line when it clears.
 */
import type { Logger } from 'pino';
import { CLOCK_CHECK_INTERVAL_MS, type TickSource } from '../util/clockWatch.js';
import type { Database } from './database.js';

/** How often the file is stat()ed between health requests. */
export const DATABASE_WATCH_INTERVAL_MS = 10_000;

export class DatabaseWatch {
  readonly #database: Pick<Database, 'path' | 'problem'>;
  readonly #log: Logger;
  readonly #intervalMs: number;
  #timer: NodeJS.Timeout | undefined;
  #untick: (() => void) | undefined;
  #reported: string | null = null;

  constructor(options: { database: Pick<Database, 'path' | 'problem'>; logger: Logger; intervalMs?: number }) {
    this.#database = options.database;
    this.#log = options.logger.child({ module: 'database' });
    this.#intervalMs = options.intervalMs ?? DATABASE_WATCH_INTERVAL_MS;
  }

  /**
   * Checks every interval: on every (interval / 1 s)-th beat of the daemon's heartbeat when given (no wake-up
   * of its own), else on an own timer.
   */
  start(ticks?: TickSource): void {
    if (ticks) {
      const every = Math.max(1, Math.round(this.#intervalMs / CLOCK_CHECK_INTERVAL_MS));
      let beats = 0;
      this.#untick = ticks(() => {
        if (++beats % every === 0) this.check();
      });
      return;
    }
    this.#timer = setInterval(() => this.check(), this.#intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#untick?.();
    this.#untick = undefined;
  }

  /** The current problem (or null), logged when it differs from the last one reported. */
  check(): string | null {
    let problem: string | null;
    try {
      problem = this.#database.problem();
    } catch (err) {
      problem = `database check failed: ${err instanceof Error ? err.message : String(err)}`;
    }
    if (problem !== this.#reported) {
      if (problem) this.#log.error({ path: this.#database.path, problem }, problem);
      else this.#log.info({ path: this.#database.path }, 'database problem cleared');
      this.#reported = problem;
    }
    return problem;
  }
}
