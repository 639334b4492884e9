/**
 * The extension point of the station pipeline. Everything that knows more
 * about a station than its current reading — an irrigation source, lawn
 * memory, a forecast, quiet hours — arrives as one StationUnit, built in the
 * composition root and handed to the pipeline, never as more code inside it.
 *
 * Every hook is optional and synchronous on the hot path (recompute runs at
 * most once per debounce per station): a unit that fetches or persists does
 * so in its own start()/timers and answers hooks from memory.
 */
import type { CalculationInput } from '../core/index.js';
import type { ExtensionInput } from '../core/irrigation.js';
import type { StationConfig } from '../ingest/types.js';
import type { EntitySpec } from '../mqtt/stationEntities.js';

/** The calculation input as the pipeline passes it from unit to unit. */
export type StationInput = CalculationInput & ExtensionInput;

/** What a unit may subscribe on the bridge connection (mqtt.js-style handler). */
export interface UnitSubscriber {
  subscribe(filter: string, handler: (topic: string, payload: Buffer, retained: boolean) => void): void;
}

/** Why `mowable` is held off although the index would allow it. */
export interface MowableHold {
  /** Stable machine word, e.g. `quiet_hours`, `rain_expected`. */
  code: string;
  /** One sentence for people: the state's `mowable_reason` and the log. */
  reason: string;
}

export interface StationUnit {
  /** For logs and errors. */
  readonly name: string;
  /** Started after the history is restored, before the bridge connects; stopped in reverse order. */
  start?(): Promise<void>;
  stop?(): Promise<void>;
  /**
   * Called once per bridge start: subscribe what the unit listens to. `recompute(stationId)`
   * asks for a (debounced) recomputation when what the unit knows about a station changed.
   */
  subscribe?(connection: UnitSubscriber, recompute: (stationId: string) => void): void;
  /**
   * Adds the inputs the unit derives (e.g. `minutes_since_irrigation`) before the core calculates.
   * Must return the input unchanged (the same object is fine) when it knows nothing.
   */
  extendInput?(stationId: string, input: StationInput, nowMs: number): StationInput;
  /** Top-level keys merged into the station's retained state (e.g. `{ irrigation: {...} }`). */
  stateFragment?(stationId: string, nowMs: number): Record<string, unknown> | undefined;
  /** A reason to hold `mowable` off regardless of the index (quiet hours, rain expected soon). */
  mowableHold?(stationId: string, nowMs: number): MowableHold | undefined;
  /** More Home Assistant entities for the station; they read the station's state topic. */
  entities?(station: StationConfig): EntitySpec[];
  /** Counters merged into the bridge stats and metrics; names must not collide with other units'. */
  stats?(): Readonly<Record<string, number>>;
}
