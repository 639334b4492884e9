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
import type { ClockStep } from '../util/clockWatch.js';
import type { CalculationInput } from '../core/index.js';
import type { ExtensionInput } from '../core/extensionFields.js';
import type { Assembly, BucketRow, TimedReading } from '../history/stationHistory.js';
import type { StationConfig } from '../ingest/types.js';
import type { EntitySpec } from '../homeassistant/stationEntities.js';

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
  /**
   * The reason for pages anyone may read (the open status page), when `reason` has details that
   * locate the station (the sunset and sunrise times of a night ban): the state's `mowable_reason_public`.
   */
  publicReason?: string;
  /** `reason` in German (the language of the model's reasons): the state's `mowable_reason_de`; absent: the English one. */
  reasonDe?: string;
  /** `publicReason` in German: the state's `mowable_reason_public_de`. */
  publicReasonDe?: string;
}

/** Read-only access to the station histories (14 days of minute buckets and the latest values). */
export interface StationHistoryView {
  /** The calculation input the history supports at `nowMs`, with withheld/derived fields and coverage. */
  assemble(stationId: string, nowMs: number): Assembly;
  /** Minute buckets (rain, lowest temperature) in [fromMs, toMs], oldest first. */
  buckets(stationId: string, fromMs: number, toMs: number): readonly BucketRow[];
  lastReadingAtMs(stationId: string): number | null;
}

/** What the pipeline hands a unit when it starts. */
export interface UnitContext {
  history: StationHistoryView;
}

export interface StationUnit {
  /** For logs and errors. */
  readonly name: string;
  /** Started after the history is restored, before the bridge connects; stopped in reverse order. */
  start?(context: UnitContext): Promise<void>;
  stop?(): Promise<void>;
  /**
   * Every reading accepted into a station's history (MQTT or upload), after it was stored; not
   * repeats, not refused ones. `reading.timeMs` is the reading's time, `values` in spec units.
   */
  onReading?(stationId: string, reading: TimedReading): void;
  /**
   * Called once per bridge start: subscribe what the unit listens to. `recompute(stationId)`
   * asks for a (debounced) recomputation when what the unit knows about a station changed.
   */
  subscribe?(connection: UnitSubscriber, recompute: (stationId: string) => void): void;
  /**
   * Adds the inputs the unit derives (e.g. `minutes_since_irrigation`) before the core calculates.
   * Must return the input unchanged (the same object is fine) when it knows nothing. A spec field a
   * unit adds (e.g. the lawn memory's `soil_moisture`) is an estimate: published in `derived_fields`
   * and calculated as such (src/station/unitDerivedFields.ts).
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
  /**
   * The wall clock stepped (src/util/clockWatch.ts; called before the recompute that follows):
   * a unit keeping wall-clock times re-bases them by `step.deltaMs` so ages and day boundaries
   * keep the time that really passed.
   */
  clockStepped?(step: ClockStep): void;
}
