/**
 * What the HTTP side may read of the station side and ask of it: the station side starts before
 * HTTP (src/daemon.ts), so HTTP gets this facade of a running station side, never a reference
 * that may still be empty. Nothing here exposes the pipeline, its units or its history.
 */
import type { Reading } from '../ingest/types.js';
import type { StationStatePayload } from './statePayload.js';
import type { AcceptOutcome, IngestCounters } from './stationIngest.js';

/** What became of a reading handed in outside MQTT (a direct upload, a modelled station's reading). */
export type AcceptReadingOutcome = AcceptOutcome | 'unknown_station' | 'not_running';

/** A reading into the pipeline like an upload; the composition root wires it into the units that hand in readings (a modelled station's, gap filling's rain). */
export type AcceptReading = (stationId: string, reading: Reading, origin: string) => AcceptReadingOutcome;

export interface StationFacade {
  /** The last state computed for a station (undefined before its first reading). */
  stationState(stationId: string): Readonly<StationStatePayload> | undefined;
  /** Per-station message and reading counts (for /metrics). */
  stationCounts(): ReadonlyMap<string, Readonly<IngestCounters>>;
  /**
   * A reading parsed outside MQTT enters the same pipeline as an MQTT message: history, units,
   * recompute. `origin` names it in logs. 'not_running' once the station side has stopped.
   */
  acceptReading: AcceptReading;
  /** A (debounced) recompute of one station, e.g. after a refused upload changed what its state says. */
  recompute(stationId: string): void;
}
