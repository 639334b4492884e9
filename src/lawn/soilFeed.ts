/**
 * Feeds the soil water bucket to the core as an estimated `soil_moisture` (docs/model.md, "Soil
 * moisture from the bucket") — only for a station without a soil-moisture sensor, and only once the
 * bucket has run long enough to have forgotten its assumed start (field capacity).
 *
 * Scale: the bucket's θ is volumetric water content of the root zone, %, the same quantity as the
 * core's `soil_moisture`, with the same field capacity (FIELD_CAPACITY_PCT or the lawn's
 * fieldCapacityPercent). The core rates w = θ/θ_FC, so the estimate keeps w: θ·θ_FC(core)/θ_FC(bucket),
 * which is θ itself unless a configured field capacity above saturation was clamped in the bucket.
 */
import type { LawnMemoryState } from '../core/lawn/memory.js';
import type { SoilProfile } from '../core/lawn/soilBucket.js';
import { roundTo } from '../core/format.js';
import { clamp } from '../core/piecewise.js';
import { fieldCapacityPct } from '../core/soil.js';
import type { LawnProfile } from '../core/types.js';
import type { TimedReading } from '../history/stationHistory.js';
import type { StationHistoryView, StationInput } from '../station/unit.js';

const HOUR_MS = 3_600_000;
/**
 * A sensor that reported within this time still counts as present when its value is stale: a sensor
 * dropping out for a while must not flip the index to an estimate on another scale.
 */
export const SENSOR_GRACE_MS = 24 * HOUR_MS;
/**
 * The bucket starts at field capacity, an assumption; a lawn that was drier loses the difference only
 * through ET, about 12 days for loam (10 % of a 0.5 m root zone at 4 mm/d). Until the memory has run
 * this long the core keeps its rain-sum rules (D1, the API estimate), which also need 14 days of history.
 */
export const SPIN_UP_MS = 14 * 24 * HOUR_MS;

export type SoilMoistureSource = 'sensor' | 'estimated' | null;

interface StationFeed {
  /** θ_FC(core) / θ_FC(bucket). */
  scale: number;
  sensorAtMs: number | null;
}

export class SoilMoistureFeed {
  readonly #stations = new Map<string, StationFeed>();

  register(stationId: string, lawn: LawnProfile, profile: SoilProfile): void {
    this.#stations.set(stationId, { scale: fieldCapacityPct(lawn) / profile.fieldCapacityPct, sensorAtMs: null });
  }

  /** The station has (had) a soil-moisture sensor at `atMs`. */
  noteSensor(stationId: string, atMs: number): void {
    const feed = this.#stations.get(stationId);
    if (feed && (feed.sensorAtMs === null || atMs > feed.sensorAtMs)) feed.sensorAtMs = atMs;
  }

  onReading(stationId: string, reading: TimedReading): void {
    if (reading.values.soil_moisture !== undefined) this.noteSensor(stationId, reading.timeMs);
  }

  #hasSensor(stationId: string, input: StationInput, nowMs: number): boolean {
    const atMs = this.#stations.get(stationId)?.sensorAtMs ?? null;
    return input.soil_moisture !== undefined || (atMs !== null && nowMs - atMs <= SENSOR_GRACE_MS);
  }

  /** The estimate on the core's scale; undefined while the bucket is spinning up. */
  estimate(stationId: string, memory: LawnMemoryState, nowMs: number): number | undefined {
    const feed = this.#stations.get(stationId);
    // The oldest degree-day checkpoint tells how long the memory has run (kept for 15 days > SPIN_UP_MS).
    const startedMs = memory.gddCheckpoints[0]?.[0];
    if (!feed || memory.soilPct === null || startedMs === undefined || nowMs - startedMs < SPIN_UP_MS) return undefined;
    return clamp(roundTo(memory.soilPct * feed.scale, 1), 0, 100);
  }

  /** The input with the estimate added, unless a sensor reports (a real reading always wins). */
  extend(stationId: string, input: StationInput, memory: LawnMemoryState, nowMs: number): StationInput {
    if (this.#hasSensor(stationId, input, nowMs)) return input;
    const estimate = this.estimate(stationId, memory, nowMs);
    return estimate === undefined ? input : { ...input, soil_moisture: estimate };
  }

  /** What the state's `lawn.soil_moisture_source` says. */
  source(stationId: string, memory: LawnMemoryState, nowMs: number): SoilMoistureSource {
    const atMs = this.#stations.get(stationId)?.sensorAtMs ?? null;
    if (atMs !== null && nowMs - atMs <= SENSOR_GRACE_MS) return 'sensor';
    return this.estimate(stationId, memory, nowMs) === undefined ? null : 'estimated';
  }
}

/** After a restart: a soil moisture the history holds (fresh or stale) means the station has a sensor. */
export function seedSensor(feed: SoilMoistureFeed, history: StationHistoryView, stationId: string, nowMs: number): void {
  const assembly = history.assemble(stationId, nowMs);
  if (assembly.input.soil_moisture === undefined && assembly.withheld.soil_moisture === undefined) return;
  feed.noteSensor(stationId, history.lastReadingAtMs(stationId) ?? nowMs);
}

/** The state's `lawn` with where the calculation's soil moisture came from; an estimate is listed as a derived input. */
export function withSoilSource<T extends { derived_inputs: string[] }>(
  status: T,
  source: SoilMoistureSource,
): T & { soil_moisture_source: SoilMoistureSource } {
  const derived = source === 'estimated' ? [...status.derived_inputs, 'soil_moisture'] : status.derived_inputs;
  return { ...status, derived_inputs: derived, soil_moisture_source: source };
}
