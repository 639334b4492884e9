/**
 * The forecast detail of each station, kept until one of its inputs changes (bench/NOTES.md,
 * "Forecast"). Building a detail projects the forecast onto 48 hours and rates each with the core,
 * so the forecast unit asks this cache on every station recompute and builds only when the key
 * moved on: a new forecast (object identity), the next minute (every count in the detail is in
 * minutes: age, mowable_for, rain_expected_in, minutes since rain or irrigation), a different set
 * of station fields, or the station's rain state (current rate, last hour's rain). A reading
 * that changes none of these, e.g. a new temperature within the minute, reuses the detail.
 * Memory is bounded: one entry per station, at most `maxStations` entries.
 */
import type { StationInput } from '../station/unit.js';

/** What a detail was built from; equal keys give the same detail. */
export interface DetailKey {
  /** The forecast held for the station (identity: a new forecast is a new object); undefined before one arrived. */
  forecast: object | undefined;
  nowMs: number;
  /** The station's input now; undefined while it has sent nothing. */
  input: StationInput | undefined;
}

const MINUTE_MS = 60_000;

/** The parts of a key that decide the detail, as one string (the forecast is compared by identity). */
export function keyText(key: DetailKey): string {
  const input = key.input;
  const fields = input ? Object.keys(input).sort().join(',') : '-';
  const rain = input ? `${input.precipitation_rate ?? '-'}/${input.rain_1h ?? '-'}` : '-';
  return `${Math.floor(key.nowMs / MINUTE_MS)}|${fields}|${rain}`;
}

interface Entry<T> {
  forecast: object | undefined;
  text: string;
  detail: T;
}

export class DetailCache<T> {
  readonly #entries = new Map<string, Entry<T>>();
  readonly #maxStations: number;
  #builds = 0;

  constructor(maxStations: number) {
    this.#maxStations = Math.max(1, maxStations);
  }

  /** The station's detail for `key`: the kept one when the key is unchanged, else `build()`'s (then kept). */
  get(stationId: string, key: DetailKey, build: () => T): T {
    const text = keyText(key);
    const kept = this.#entries.get(stationId);
    if (kept !== undefined && kept.forecast === key.forecast && kept.text === text) return kept.detail;
    const detail = build();
    this.#builds++;
    if (kept === undefined && this.#entries.size >= this.#maxStations) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(stationId, { forecast: key.forecast, text, detail });
    return detail;
  }

  /** Forgets a station's detail (its forecast was replaced). */
  invalidate(stationId: string): void {
    this.#entries.delete(stationId);
  }

  /** Details built so far (tests, stats). */
  get builds(): number {
    return this.#builds;
  }

  get size(): number {
    return this.#entries.size;
  }
}
