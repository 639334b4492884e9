/**
 * Counts the readings accepted into each station's history, whatever their
 * origin (MQTT or an upload), for /metrics. A station unit (src/station/unit.ts)
 * so that the pipeline does not know about metrics.
 */
import type { StationUnit } from '../station/unit.js';

export class StationReadingCounter implements StationUnit {
  readonly name = 'reading-counter';
  readonly #counts = new Map<string, number>();

  onReading(stationId: string): void {
    this.#counts.set(stationId, (this.#counts.get(stationId) ?? 0) + 1);
  }

  counts(): ReadonlyMap<string, number> {
    return this.#counts;
  }
}
