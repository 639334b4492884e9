/**
 * The extension point of the station pipeline. Everything that knows more
 * about a station than its current reading — an irrigation source, lawn
 * memory, a forecast, quiet hours — arrives as one StationUnit, built in the
 * composition root and handed to the pipeline, never as more code inside it.
 * A StationUnitModule is a unit with its configuration: its global settings,
 * the key it owns in each station object and that key's validation; listed
 * once in stationUnits() (src/daemon.ts), it is built from its own slices of
 * the configuration and nothing else (docs/units.md walks through one).
 *
 * Every hook is optional and synchronous on the hot path (recompute runs at
 * most once per debounce per station): a unit that fetches or persists does
 * so in its own start()/timers and answers hooks from memory.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Logger } from 'pino';
import { settingsDefaults, type UnitConfigSpec } from '../config/unitSettings.js';
import type { ClockStep } from '../util/clockWatch.js';
import type { CalculationInput } from '../core/index.js';
import type { ExtensionInput } from '../core/extensionFields.js';
import type { ObservedHistory } from '../core/forecastProjection.js';
import type { Assembly, BucketRow, TimedReading } from '../history/stationHistory.js';
import { unitSliceOf, type StationConfig } from '../ingest/types.js';
import type { EntitySpec } from '../homeassistant/stationEntities.js';
import type { Clock } from '../util/clock.js';
import type { LogThrottle } from '../util/logThrottle.js';

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
  /** Rain and lowest temperature from any time on, over the minutes from `fromMs` that began before `toMs` (no copy of the buckets). */
  observed(stationId: string, fromMs: number, toMs: number): ObservedHistory;
  lastReadingAtMs(stationId: string): number | null;
}

/** What the pipeline hands a unit when it starts: frozen, and nothing of the pipeline beyond it (unitContext). */
export interface UnitContext {
  readonly history: StationHistoryView;
}

/**
 * The start context for the units: a frozen object of frozen functions bound to the history, so a
 * unit can neither reach the history service's other methods (flush, prune, its store) nor replace
 * what another unit gets.
 */
export function unitContext(history: StationHistoryView): UnitContext {
  const view: StationHistoryView = Object.freeze({
    assemble: (stationId: string, nowMs: number) => history.assemble(stationId, nowMs),
    buckets: (stationId: string, fromMs: number, toMs: number) => history.buckets(stationId, fromMs, toMs),
    observed: (stationId: string, fromMs: number, toMs: number) => history.observed(stationId, fromMs, toMs),
    lastReadingAtMs: (stationId: string) => history.lastReadingAtMs(stationId),
  });
  return Object.freeze({ history: view });
}

/** A counter of `stats()` as a Prometheus counter: the metric's name (after `mowability_`) and help. */
export type UnitMetric = readonly [name: string, help: string];

export interface StationUnit {
  /** For logs and errors. */
  readonly name: string;
  /** Started after the history is restored, before the bridge connects; stopped in reverse order. */
  start?(context: UnitContext): Promise<void>;
  stop?(): Promise<void>;
  /**
   * Every reading accepted into a station's history (MQTT or upload), after it was stored; not
   * repeats, not refused ones. `reading.timeMs` is the reading's time, `values` in the API's units (src/core/fields.ts).
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
  /** The unit's counters: the bridge stats topic shows them (names unique across units), `metrics` names them for /metrics. */
  stats?(): Readonly<Record<string, number>>;
  /** Counters of `stats()` exported on /metrics, by counter name. */
  readonly metrics?: Readonly<Record<string, UnitMetric>>;
  /**
   * HTTP routes of the unit (a fastify plugin), registered by the HTTP side under `/v1` behind the
   * API key like every `/v1` route (src/http/app.ts). They answer from the unit's memory.
   */
  readonly routes?: FastifyPluginAsync;
  /**
   * The wall clock stepped (src/util/clockWatch.ts; called before the recompute that follows):
   * a unit keeping wall-clock times re-bases them by `step.deltaMs` so ages and day boundaries
   * keep the time that really passed.
   */
  clockStepped?(step: ClockStep): void;
}

/** One station that configured the unit: its id, name and the value of the unit's own key, validated at load. */
export interface UnitStation<P> {
  readonly id: string;
  readonly name: string;
  readonly settings: P;
}

/** What a unit module is built with: its own slices of the configuration, a logger, the clock. Frozen. */
export interface UnitBuildContext<G = unknown, P = unknown> {
  /** The unit's global settings (its `config.settings.key`), as loaded; undefined without them. */
  readonly settings: G;
  /** The stations that have the unit's key (`config.station.key`), in configuration order. */
  readonly stations: readonly UnitStation<P>[];
  /** The unit's child logger (`unit: name`) and a once-a-minute throttle on it. */
  readonly log: Logger;
  readonly throttle: LogThrottle;
  readonly clock: Clock;
}

/** A station unit with its configuration: one module, one line in stationUnits() (src/daemon.ts). */
export interface StationUnitModule<G = never, P = never> {
  readonly name: string;
  /** Its global settings (convict fragment) and its key in the station objects with the key's validation. */
  readonly config?: UnitConfigSpec;
  create(context: UnitBuildContext<G, P>): StationUnit;
}

/** Types a module's settings from its create() (an identity: `export const snowUnit = defineStationUnit({...})`). */
export function defineStationUnit<G = undefined, P = undefined>(module: StationUnitModule<G, P>): StationUnitModule<G, P> {
  return module;
}

/** What building a module needs from the composition root. */
export interface UnitBuildDeps {
  readonly config: { readonly stations: readonly StationConfig[] };
  readonly logger: Logger;
  readonly clock: Clock;
  readonly throttle: (log: Logger) => LogThrottle;
}

/** Builds a module from its slices of the configuration (the loaded config holds the keys loadConfig added for it). */
export function buildUnit<G, P>(module: StationUnitModule<G, P>, deps: UnitBuildDeps): StationUnit {
  const settings = module.config?.settings;
  const stationKey = module.config?.station?.key;
  const stations = stationKey === undefined ? [] : deps.config.stations.flatMap((station) => {
    const settings = unitSliceOf(station, stationKey);
    return settings === undefined ? [] : [Object.freeze({ id: station.id, name: station.name, settings: settings as P })];
  });
  const log = deps.logger.child({ unit: module.name });
  const context: UnitBuildContext<G, P> = Object.freeze({
    // The loaded value; its defaults when the configuration was loaded without the unit (a test's hand-made one).
    settings: (settings === undefined ? undefined : ((deps.config as Readonly<Record<string, unknown>>)[settings.key] ?? settingsDefaults(settings.schema))) as G,
    stations: Object.freeze(stations),
    log,
    throttle: deps.throttle(log),
    clock: deps.clock,
  });
  return module.create(context);
}

/** Every counter the units export on /metrics, with its unit (for createMetrics' `unitMetrics`). */
export function unitMetricsOf(units: readonly StationUnit[]): Array<{ unit: string; counter: string; metric: UnitMetric }> {
  return units.flatMap((unit) => Object.entries(unit.metrics ?? {}).map(([counter, metric]) => ({ unit: unit.name, counter, metric })));
}
