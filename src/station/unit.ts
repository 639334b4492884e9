/**
 * The station unit contract: the hooks a unit author implements, on one screen. Anything that knows more
 * about a station than its current reading (irrigation, lawn memory, a forecast, quiet hours) is one
 * StationUnit. How a module with its configuration builds one is ./unitModule.ts; docs/units.md walks
 * through the worked example (src/units/snowCover.ts).
 *
 * Every hook is optional and synchronous on the recompute path: a unit that fetches or persists does so
 * in its own start()/timers and answers hooks from memory. The pipeline isolates every unit
 * (./isolatedUnit.ts): a hook that throws costs that unit's part, never a station.
 */
import type { CalculationInput } from '../core/index.js';
import type { ExtensionInput } from '../core/extensionFields.js';
import type { ObservedHistory } from '../core/forecastProjection.js';
import type { EntitySpec } from '../homeassistant/stationEntities.js';
import type { Assembly, BucketRow, TimedReading } from '../history/stationHistory.js';
import type { StationConfig } from '../ingest/types.js';
import type { ClockStep } from '../util/clockWatch.js';
import type { StationStatePayload, UnitStateFragment } from './statePayload.js';
import type { UnitRoute } from './unitRoute.js';

/** The calculation input as the pipeline passes it from unit to unit. */
export type StationInput = CalculationInput & ExtensionInput;

/** One sentence for people, in English and German (the language of the model's reasons). */
export interface Reason {
  readonly en: string;
  readonly de: string;
}

/** Why `mowable` is held off although the index would allow it. */
export interface MowableHold {
  /** Stable machine word, e.g. `quiet_hours`, `rain_expected`. */
  readonly code: string;
  /** The state's `mowable_reason` / `mowable_reason_de` and the log. */
  readonly reason: Reason;
  /** For pages anyone may read, when `reason` locates the station (a night ban's sunset): `mowable_reason_public(_de)`. */
  readonly publicReason?: Reason;
  /**
   * The hold is about where the station's data comes from (a modelled station's provider outage):
   * it is said before any other unit's hold, since every other reason rests on data that does not arrive.
   */
  readonly sourceOutage?: boolean;
}

/** Topics a unit listens to (once per bridge start, MQTT on only); retained: the broker replayed it. */
export interface UnitSubscriber {
  subscribe(filter: string, handler: (topic: string, payload: Buffer, retained: boolean) => void): void;
  /**
   * Publishes to a topic now, or returns false while the connection is down: nothing is queued, so a
   * command (a mower's start) never goes out later than it was meant. Absent where nothing may be published.
   */
  publishNow?(topic: string, payload: string, options?: { retain?: boolean }): boolean;
}

/** Read-only access to the station histories (14 days of minute buckets and the latest values). */
export interface StationHistoryView {
  /** The calculation input the history supports at `nowMs`, with withheld/derived fields and coverage. */
  assemble(stationId: string, nowMs: number): Assembly;
  /** Minute buckets (rain, lowest temperature) in [fromMs, toMs], oldest first. */
  buckets(stationId: string, fromMs: number, toMs: number): readonly BucketRow[];
  /** Rain and lowest temperature from any time on, over the minutes from `fromMs` that began before `toMs`. */
  observed(stationId: string, fromMs: number, toMs: number): ObservedHistory;
  lastReadingAtMs(stationId: string): number | null;
}

/** What a unit gets when it starts: frozen, and nothing of the pipeline beyond it. */
export interface UnitContext {
  readonly history: StationHistoryView;
}

/** A counter of `stats()` as a Prometheus counter: the metric's name (after `mowability_`) and help. */
export type UnitMetric = readonly [name: string, help: string];

export interface StationUnit {
  /** For logs, errors and `unit_errors`. */
  readonly name: string;
  /** Started after the history is restored, before the bridge connects; stopped in reverse order. */
  start?(context: UnitContext): Promise<void>;
  stop?(): Promise<void>;
  /** Every reading accepted into a station's history (MQTT or upload); `values` in the API's units (src/core/fields.ts). */
  onReading?(stationId: string, reading: TimedReading): void;
  /** Once per bridge start: subscribe; `recompute(stationId)` asks for a debounced recompute (./topicUnit.ts does the rest). */
  subscribe?(connection: UnitSubscriber, recompute: (stationId: string) => void): void;
  /** Adds derived inputs before the core calculates; the input unchanged when it knows nothing (a spec field it adds is an estimate). */
  extendInput?(stationId: string, input: StationInput, nowMs: number): StationInput;
  /** A reason to hold `mowable` off regardless of the index (quiet hours, rain expected soon). */
  mowableHold?(stationId: string, nowMs: number): MowableHold | undefined;
  /** Top-level keys merged into the station's state; each key typed by the module that owns it (StationStateFields). */
  stateFragment?(stationId: string, nowMs: number): UnitStateFragment | undefined;
  /** Each new state, once, in the order computed, before the state's listeners (MQTT); final: read, never change it. */
  onState?(stationId: string, state: Readonly<StationStatePayload>, nowMs: number): void;
  /** More Home Assistant entities for the station; they read the station's state topic. */
  entities?(station: StationConfig): EntitySpec[];
  /** The unit's counters (bridge stats, names unique across units); `metrics` names those exported on /metrics. */
  stats?(): Readonly<Record<string, number>>;
  readonly metrics?: Readonly<Record<string, UnitMetric>>;
  /** GET routes under `/v1` behind the API key (./unitRoute.ts; the HTTP side mounts them), answered from memory. */
  readonly routes?: readonly UnitRoute[];
  /** The wall clock stepped (src/util/clockWatch.ts): re-base kept wall-clock times by `step.deltaMs`. */
  clockStepped?(step: ClockStep): void;
}

export type { StationStateFields, UnitStateFragment } from './statePayload.js';
export type { UnitRequest, UnitRoute, UnitRouteAccess } from './unitRoute.js';
