/**
 * The few station events worth an info line, so a user can follow in the log what the daemon
 * sees without debug output: the first reading of each station after start, and every change of
 * `mowable` with its reason. Everything else per reading stays at debug or in the counters.
 */
import type { Logger } from 'pino';

export class StationEventLog {
  readonly #log: Logger;
  readonly #heard = new Set<string>();

  constructor(logger: Logger) {
    this.#log = logger.child({ module: 'stations' });
  }

  /** An accepted reading; logs only the station's first since start. */
  reading(stationId: string, topic: string): void {
    if (this.#heard.has(stationId)) return;
    this.#heard.add(stationId);
    this.#log.info({ station: stationId, topic }, `first reading from station "${stationId}"`);
  }

  /** After each recompute; logs when the published flag changed, with the state's `mowable_reason`. */
  mowable(stationId: string, before: boolean, after: boolean, score: number | null, status: string | null, reason: string): void {
    if (before === after) return;
    this.#log.info(
      { station: stationId, mowable: after, index: score, status, reason },
      `station "${stationId}" is ${after ? 'now' : 'no longer'} mowable: ${reason}`,
    );
  }
}
