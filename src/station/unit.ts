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
import { calculationContext, type CalculationSettings } from '../config/calculationContext.js';
import { unreadEnvironment } from '../config/load.js';
import { settingsDefaults, settingsEnvironment, type UnitConfigSpec } from '../config/unitSettings.js';
import type { ClockStep } from '../util/clockWatch.js';
import type { CalculationContext, CalculationInput } from '../core/index.js';
import type { ExtensionInput } from '../core/extensionFields.js';
import type { QuietHoursSettings } from '../core/lawn/quietHours.js';
import type { ObservedHistory } from '../core/forecastProjection.js';
import type { Assembly, BucketRow, TimedReading } from '../history/stationHistory.js';
import { unitSliceOf, type StationConfig, type StationFormat, type StationLocation } from '../ingest/types.js';
import type { RunResult, SqlParams } from '../store/database.js';
import type { CachedForecast } from '../store/forecastStore.js';
import type { EntitySpec } from '../homeassistant/stationEntities.js';
import type { Clock } from '../util/clock.js';
import type { LogThrottle } from '../util/logThrottle.js';

/** The calculation input as the pipeline passes it from unit to unit. */
export type StationInput = CalculationInput & ExtensionInput;

/** What a unit may subscribe on the bridge connection (mqtt.js-style handler). */
export interface UnitSubscriber {
  subscribe(filter: string, handler: (topic: string, payload: Buffer, retained: boolean) => void): void;
  /**
   * Publishes to a topic now, or returns false while the connection is down: nothing is queued, so a
   * command (a mower's start) never goes out later than it was meant. Absent where nothing may be published.
   */
  publishNow?(topic: string, payload: string, options?: { retain?: boolean }): boolean;
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
  /** The value of the unit's key; undefined on a station without it (only for an `everyStation` module). */
  readonly settings: P;
  /** Where the station stands, when configured (sunrise and sunset, forecasts). */
  readonly location?: StationLocation;
  /** How its readings arrive (`format`): a modelled station's (`open-meteo`) come from a unit. */
  readonly format?: StationFormat;
}

/**
 * The SQLite database for a unit that keeps its own tables (created by a migration in
 * src/store/migrations/): statements, one transaction at a time, and the change counter that
 * shows another process (the CLI) wrote.
 */
export interface UnitStore {
  all<T>(sql: string, params?: SqlParams): Promise<T[]>;
  run(sql: string, params?: SqlParams): Promise<RunResult>;
  transaction<T>(work: (db: UnitStore) => Promise<T>): Promise<T>;
  dataVersion(): Promise<number>;
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
  /** The daemon's own topic root (`mqtt.baseTopic`), for command topics under `<base>/<station>/`. */
  readonly baseTopic: string;
  /** The context the core calculates a station with at `nowMs` (time zone, hemisphere, its lawn profile); without a station, the configured one. */
  readonly calculationContext: (nowMs: number, stationId?: string) => CalculationContext;
  /** The database, for a unit that keeps its own tables; absent when units are built without one (a test's pipeline in memory). */
  readonly store?: UnitStore;
  /**
   * A service the station side or a module listed before this one in stationUnits() provides (see
   * UnitService); throws, naming the service and the module, when none does or only a later one.
   */
  readonly use: <T>(service: UnitService<T>) => T;
}

/**
 * A named service between the station side and the units, or from one unit module to those listed
 * after it (docs/units.md, "Services"): a token whose type is the service's. The station side provides
 * `readingsService` (./facade.ts); a module lists what it provides in `provides`; a module's create() asks with
 * `use(token)`. The token is compared by identity: a look-alike with the same name finds nothing.
 */
export interface UnitService<T> extends AnyUnitService {
  /** Type only: never set. */
  readonly type?: (value: T) => T;
}

/** A service token of any type (lists of them). */
export interface AnyUnitService {
  readonly name: string;
  /** What the service is, for the error that names a missing one. */
  readonly doc: string;
}

/** Declares a service (module scope: `export const quietHoursService = unitService<QuietHoursSettings | undefined>(...)`). */
export function unitService<T>(name: string, doc: string): UnitService<T> {
  return Object.freeze({ name, doc });
}

/** A service and its value, as a module's `provides` returns it (built with `provide`). */
export interface ProvidedService {
  readonly service: AnyUnitService;
  readonly value: unknown;
}

/** One entry of a module's `provides`: the service and its value, type-checked against each other. */
export function provide<T>(service: UnitService<T>, value: T): ProvidedService {
  return Object.freeze({ service, value });
}

/** The quiet hours mowing honours (the lawn memory's settings and holiday calendar); undefined while the lawn memory is off. */
export const quietHoursService = unitService<QuietHoursSettings | undefined>('quietHours', "the lawn memory's quiet hours");

/** What a unit whose Open-Meteo request can bring a station's forecast offers the forecast. */
export interface ForecastCarrier {
  /**
   * True when a request of the carrier's brings the station's Open-Meteo forecast; from then on
   * each forecast it brings goes to `deliver`. False: the forecast fetches it itself.
   */
  carry(stationId: string, deliver: (forecast: CachedForecast) => Promise<void>): boolean;
}

/** The forecast carrier service (provided by the modelled stations' module, src/modelled/modelledModule.ts; used by the forecast, src/forecast/forecastModule.ts). */
export const forecastCarrierService = unitService<ForecastCarrier>('forecastCarrier', "Open-Meteo requests that bring a station's forecast along");

/** A station unit with its configuration: one module, one line in stationUnits() (src/daemon.ts). */
export interface StationUnitModule<G = never, P = never, U extends StationUnit | readonly StationUnit[] = StationUnit | readonly StationUnit[]> {
  readonly name: string;
  /** Its global settings (convict fragment) and its key in the station objects with the key's validation. */
  readonly config?: UnitConfigSpec;
  /**
   * The unit serves every station, and its station key is an option: `stations` lists every station,
   * `settings` undefined where the key is absent. Without it `stations` holds only those with the key.
   */
  readonly everyStation?: boolean;
  /** The unit, or several that work together (a source feeding a memory), in the order the pipeline asks them; none when off. */
  create(context: UnitBuildContext<G, P>): U;
  /** The services it offers the modules listed after it in stationUnits() (docs/units.md, "Services"). */
  readonly provides?: {
    /** The tokens, known before anything is built: a module listed too early is told who provides what it asks for. */
    readonly services: readonly AnyUnitService[];
    /** Their values from what create() built, `provide(token, value)` each; called right after create(), each object value frozen. */
    values(built: U, context: UnitBuildContext<G, P>): readonly ProvidedService[];
  };
}

/** Types a module's settings from its create() (an identity: `export const snowUnit = defineStationUnit({...})`). */
export function defineStationUnit<G = undefined, P = undefined, U extends StationUnit | readonly StationUnit[] = StationUnit>(module: StationUnitModule<G, P, U>): StationUnitModule<G, P, U> {
  return module;
}

/** What building a module needs from the composition root. */
export interface UnitBuildDeps {
  readonly config: CalculationSettings & { readonly stations: readonly StationConfig[]; readonly mqtt: { readonly baseTopic: string } };
  readonly logger: Logger;
  readonly clock: Clock;
  readonly throttle: (log: Logger) => LogThrottle;
  /** The database the units' tables live in (UnitBuildContext.store). */
  readonly store?: UnitStore;
  /** What the station side provides (readingsService); buildUnits adds each module's `provides` for those after it. */
  readonly services?: readonly ProvidedService[];
}

/**
 * A module's global settings in a loaded configuration (its `config.settings.key`), or their defaults
 * when the configuration was loaded without the unit (a test's hand-made one); undefined without
 * settings. When loadConfig, without the unit, was given the unit's environment variables, it throws:
 * they were never read, and the defaults (the real Open-Meteo) would silently replace them.
 */
export function unitSettingsOf<G>(module: Pick<StationUnitModule<G, unknown, never>, 'config'>, config: object): G {
  const settings = module.config?.settings;
  if (settings === undefined) return undefined as G;
  const loaded = (config as Readonly<Record<string, unknown>>)[settings.key];
  if (loaded !== undefined) return loaded as G;
  const unread = unreadEnvironment(config).filter((name) => settingsEnvironment(settings.schema).includes(name));
  if (unread.length > 0) {
    throw new Error(`the configuration was loaded without the station units' settings, so ${unread.join(', ')} went unread ("${settings.key}.*" would be its defaults): pass units: stationUnitConfigs() (src/daemon.ts) to loadConfig`);
  }
  return settingsDefaults(settings.schema) as G;
}

function unitStations<P>(module: StationUnitModule<unknown, P, never>, stations: readonly StationConfig[]): UnitStation<P>[] {
  const stationKey = module.config?.station?.key;
  if (stationKey === undefined && !module.everyStation) return [];
  return stations.flatMap((station) => {
    const settings = stationKey === undefined ? undefined : unitSliceOf(station, stationKey);
    if (settings === undefined && !module.everyStation) return [];
    return [Object.freeze({ id: station.id, name: station.name, format: station.format, settings: settings as P, ...(station.location && { location: station.location }) })];
  });
}

/** Builds a module from its slices of the configuration (the loaded config holds the keys loadConfig added for it). */
export function buildUnit<G, P, U extends StationUnit | readonly StationUnit[]>(module: StationUnitModule<G, P, U>, deps: UnitBuildDeps): U {
  return buildWithServices(module, deps, new Map(), []).built;
}

/**
 * Builds modules in their order (stationUnits()): each may use() what the station side provides
 * (deps.services) and what the modules before it provide; their units in the same order.
 */
export function buildUnits(modules: readonly StationUnitModule[], deps: UnitBuildDeps): StationUnit[] {
  const later = new Map<AnyUnitService, string>();
  for (const module of modules) for (const service of module.provides?.services ?? []) later.set(service, module.name);
  const provided: ProvidedService[] = [...(deps.services ?? [])];
  return modules.flatMap((module) => {
    for (const service of module.provides?.services ?? []) later.delete(service);
    const { built, services } = buildWithServices(module, { ...deps, services: provided }, later, modules.map((m) => m.name));
    provided.push(...services);
    return built;
  });
}

function buildWithServices<G, P, U extends StationUnit | readonly StationUnit[]>(
  module: StationUnitModule<G, P, U>,
  deps: UnitBuildDeps,
  later: ReadonlyMap<AnyUnitService, string>,
  order: readonly string[],
): { built: U; services: ProvidedService[] } {
  const log = deps.logger.child({ unit: module.name });
  const { config } = deps;
  const available = new Map((deps.services ?? []).map(({ service, value }) => [service, value]));
  const lawnOf = (stationId: string | undefined) => config.stations.find((station) => station.id === stationId)?.lawn;
  const use = <T>(service: UnitService<T>): T => {
    if (available.has(service)) return available.get(service) as T;
    const provider = later.get(service);
    if (provider === undefined) throw new Error(`station unit "${module.name}" uses the service "${service.name}" (${service.doc}), which nothing provides: list the module that provides it in stationUnits() (src/daemon.ts)`);
    const where = provider === module.name ? 'itself' : `"${provider}", which comes after it`;
    throw new Error(`station unit "${module.name}" uses the service "${service.name}" (${service.doc}) provided by ${where} in stationUnits() (${order.join(', ')}): a module uses only what the station side and the modules before it provide`);
  };
  const context: UnitBuildContext<G, P> = Object.freeze({
    settings: unitSettingsOf<G>(module, config),
    stations: Object.freeze(unitStations<P>(module as StationUnitModule<unknown, P, never>, config.stations)),
    log,
    throttle: deps.throttle(log),
    clock: deps.clock,
    baseTopic: config.mqtt.baseTopic,
    calculationContext: (nowMs: number, stationId?: string) => calculationContext(config, nowMs, { lawn: lawnOf(stationId) }),
    ...(deps.store && { store: deps.store }),
    use,
  });
  const built = module.create(context);
  const declared = module.provides?.services ?? [];
  const services = (module.provides?.values(built, context) ?? []).map(({ service, value }) => {
    if (!declared.includes(service)) throw new Error(`station unit "${module.name}" provides the service "${service.name}" without listing it in provides.services`);
    return provide(service, typeof value === 'object' && value !== null ? Object.freeze(value) : value);
  });
  const missing = declared.filter((service) => !services.some((entry) => entry.service === service));
  if (missing.length > 0) throw new Error(`station unit "${module.name}" lists the service(s) ${missing.map((service) => `"${service.name}"`).join(', ')} in provides.services but gave no value`);
  return { built, services };
}

/** Every counter the units export on /metrics, with its unit (for createMetrics' `unitMetrics`). */
export function unitMetricsOf(units: readonly StationUnit[]): Array<{ unit: string; counter: string; metric: UnitMetric }> {
  return units.flatMap((unit) => Object.entries(unit.metrics ?? {}).map(([counter, metric]) => ({ unit: unit.name, counter, metric })));
}
