/**
 * Watches the open database for problems health must report (its file
 * deleted or replaced, writes failing) and logs each change once, not once
 * per health request: an error when a problem appears or changes, an info
 * line when it clears.
 */
import type { Logger } from 'pino';
import type { Database } from './database.js';

/** How often the file is stat()ed between health requests. */
export const DATABASE_WATCH_INTERVAL_MS = 10_000;

export class DatabaseWatch {
  readonly #database: Pick<Database, 'path' | 'problem'>;
  readonly #log: Logger;
  readonly #intervalMs: number;
  #timer: NodeJS.Timeout | undefined;
  #reported: string | null = null;

  constructor(options: { database: Pick<Database, 'path' | 'problem'>; logger: Logger; intervalMs?: number }) {
    this.#database = options.database;
    this.#log = options.logger.child({ module: 'database' });
    this.#intervalMs = options.intervalMs ?? DATABASE_WATCH_INTERVAL_MS;
  }

  start(): void {
    this.#timer = setInterval(() => this.check(), this.#intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
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
