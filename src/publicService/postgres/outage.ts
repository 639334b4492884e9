/**
 * Whether a shared server (PostgreSQL, Redis) is reachable, as the daemon saw
 * it on its last attempts: logged once when it is lost (warn) and once when it
 * is back (info), never once per failing query; /health reads `since` and
 * whether the last failure was a server that did not answer in time (stalled:
 * connected, but silent) rather than one that refused or dropped the connection.
 */
import type { Logger } from 'pino';

export class Outage {
  readonly #log: Logger;
  readonly #what: string;
  readonly #now: () => number;
  #sinceMs: number | undefined;
  #lastError = '';
  #stalled = false;

  constructor(logger: Logger, what: string, now: () => number = Date.now) {
    this.#log = logger;
    this.#what = what;
    this.#now = now;
  }

  /** Epoch ms of the first failure of the current outage; undefined while reachable. */
  get sinceMs(): number | undefined {
    return this.#sinceMs;
  }

  get lastError(): string {
    return this.#lastError;
  }

  /** True while the current outage's last failure was a timeout: the server is connected but does not answer. */
  get stalled(): boolean {
    return this.#sinceMs !== undefined && this.#stalled;
  }

  failed(err: unknown, stalled = false): void {
    this.#lastError = err instanceof Error ? err.message : String(err);
    this.#stalled = stalled;
    if (this.#sinceMs !== undefined) return;
    this.#sinceMs = this.#now();
    this.#log.warn({ err }, `${this.#what} unreachable; retrying with backoff (logged again when it is back)`);
  }

  succeeded(): void {
    if (this.#sinceMs === undefined) return;
    const seconds = Math.round((this.#now() - this.#sinceMs) / 1000);
    this.#sinceMs = undefined;
    this.#log.info({ outageSeconds: seconds }, `${this.#what} reachable again after ${seconds} s`);
  }
}

/** Exponential backoff with a cap: 250 ms, 500 ms, 1 s, ... 10 s. */
export function backoffMs(attempt: number, firstMs = 250, maxMs = 10_000): number {
  return Math.min(maxMs, firstMs * 2 ** Math.max(0, attempt));
}
