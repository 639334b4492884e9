/**
 * After a restart: the memory stepped over the readings the history holds after its stored snapshot
 * (the daemon stopped or crashed after the last save while the history had later minutes written).
 * Pure. The history keeps, per minute, the rain and the lowest temperature, not humidity, wind or sun:
 * those are carried from the snapshot's weather (the last reading before it). The result equals an
 * uninterrupted run when they did not change and the readings fell on whole minutes (docs/model.md, "Gaps").
 */
import type { EtWeather } from './evaporation.js';
import { stepLawnMemory, type LawnMemoryState } from './memory.js';
import type { SoilProfile } from './soilBucket.js';

const MINUTE_MS = 60_000;

/** A minute of the station history (src/history/types.ts BucketRow, structurally). */
export interface HistoryMinute {
  minute: number;
  rainMm: number;
  rainObserved: boolean;
  tempMinC: number | null;
}

/** The weather of a replayed minute: its temperature with the snapshot's other values. */
function minuteWeather(carried: EtWeather | null, temperatureC: number | null): EtWeather | null {
  if (temperatureC === null) return carried;
  return { ...carried, temperatureC };
}

/**
 * `buckets` oldest first; minutes after the snapshot's own minute with a reading (rain observed or a
 * temperature) are replayed as readings at the minute's start. Earlier minutes are skipped.
 */
export function catchUpMemory(state: LawnMemoryState, buckets: readonly HistoryMinute[], profile: SoilProfile): LawnMemoryState {
  if (state.atMs === null) return state;
  const fromMinute = Math.floor(state.atMs / MINUTE_MS);
  let memory = state;
  for (const bucket of buckets) {
    if (bucket.minute <= fromMinute || (!bucket.rainObserved && bucket.tempMinC === null)) continue;
    const weather = minuteWeather(memory.weather, bucket.tempMinC);
    memory = stepLawnMemory(memory, { toMs: bucket.minute * MINUTE_MS, rainMm: bucket.rainMm, weather }, profile);
  }
  return memory;
}
