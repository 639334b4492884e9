/**
 * A station's retained `<base>/<station>/availability`: `online` while its
 * last reading is fresher than its freshness limit, `offline` otherwise.
 * Published when it changes, and on every (re)connect (`force`).
 */
import { MINUTE_MS } from '../history/windows.js';
import type { StationConfig } from '../ingest/types.js';
import type { PublisherRef } from './publisher.js';

export type Availability = 'online' | 'offline';

export interface AvailabilityOptions {
  connection: PublisherRef;
  lastReadingAtMs(stationId: string): number | null;
  /** `history.freshnessMinutes`: the limit of stations without their own `freshness.maxAgeMinutes`. */
  freshnessMinutes: number;
}

export class AvailabilityPublisher {
  readonly #options: AvailabilityOptions;
  readonly #published = new Map<string, Availability>();

  constructor(options: AvailabilityOptions) {
    this.#options = options;
  }

  availability(station: StationConfig, nowMs: number): Availability {
    const last = this.#options.lastReadingAtMs(station.id);
    const maxAgeMs = (station.freshness?.maxAgeMinutes ?? this.#options.freshnessMinutes) * MINUTE_MS;
    return last !== null && nowMs - last <= maxAgeMs ? 'online' : 'offline';
  }

  publish(station: StationConfig, nowMs: number, force: boolean): void {
    const state = this.availability(station, nowMs);
    if (!force && this.#published.get(station.id) === state) return;
    this.#published.set(station.id, state);
    this.#options.connection()?.publish(`${station.id}/availability`, state, { retain: true, qos: 1 });
  }
}
