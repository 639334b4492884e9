/**
 * The row shapes of a station history, shared by the pure history code
 * (stationHistory.ts, assembly.ts, minuteColumns.ts) and the SQLite adapter, in
 * a module of their own so none of them imports another for a type.
 */
import type { CurrentField } from '../ingest/types.js';
import type { DuplicateFilterState } from './fingerprints.js';

export interface BucketRow {
  minute: number;
  rainMm: number;
  /** A reading in this minute told us how much it rained (coverage of rain windows). */
  rainObserved: boolean;
  /** Lowest temperature in this minute; null when no temperature arrived. */
  tempMinC: number | null;
}

export interface CounterRow {
  key: string;
  totalMm: number;
  atMs: number;
}

export interface LatestRow {
  field: CurrentField;
  value: number;
  atMs: number;
}

export interface HistoryRows {
  buckets: BucketRow[];
  counters: CounterRow[];
  latest: LatestRow[];
  /** The duplicate filter's high-water mark (null: no reading yet, or in a change set: unchanged). */
  duplicates: DuplicateFilterState | null;
}
