/**
 * Building the station unit modules (./unitModule.ts; ./unit.ts is the units' contract): each from a frozen context of its own
 * slices of the configuration, in the order of stationUnits() (src/daemon.ts), with what the composition
 * root wires into it (`wire`): the station side's readings, or what a module listed before it provides.
 * The pipeline's start context for the units (unitContext) and their metrics list live here too.
 */
import type { Logger } from 'pino';
import { calculationContext, type CalculationSettings } from '../config/calculationContext.js';
import { settingsDefaults, settingsEnvironment, type UnitConfigSpec } from '../config/unitSettings.js';
import { unitSliceOf, type StationConfig } from '../ingest/types.js';
import type { Clock } from '../util/clock.js';
import type { LogThrottle } from '../util/logThrottle.js';
import type { AcceptReading } from './facade.js';
import type { StationOverrides } from './recompute.js';
import type { StationHistoryView, StationUnit, UnitContext, UnitMetric } from './unit.js';
import type { BuiltUnits, StationUnitModule, UnitBuildContext, UnitStation } from './unitModule.js';

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

/** Any module, whatever its settings, units, needs and offer (a list of them). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the list holds modules of every type; each is typed where it is defined and wired
export type AnyStationUnitModule = StationUnitModule<any, any, BuiltUnits, any, any>;

/** What the composition root wires from: the station side's readings, and what the modules built before offer. */
export interface UnitWiring {
  /** The station side's acceptReading (readings into the pipeline like an upload); undefined when built without a station side. */
  readonly readings: AcceptReading | undefined;
  /** What `module` provides (its `provides`); throws unless it is listed, and listed before the one being wired. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- only the offer's type matters here
  readonly from: <S>(module: StationUnitModule<any, any, any, any, S>) => S;
}

/** A module with what it needs, wired by the composition root; its name and configuration as the module's (for the loader and the docs). */
export interface WiredModule<N = unknown> {
  readonly name: string;
  readonly config?: UnitConfigSpec;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see AnyStationUnitModule
  readonly module: StationUnitModule<any, any, BuiltUnits, N, any>;
  readonly needs: (wiring: UnitWiring) => N;
}

/** One line of stationUnits(): a module that needs nothing, or one wired with what it needs. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see AnyStationUnitModule
export type StationUnitEntry = StationUnitModule<any, any, BuiltUnits, undefined, any> | WiredModule<any>;

/** `module` with what it needs, named in the composition root: `wire(forecastModule, ({ from }) => ({ carrier: from(modelledModule).carrier }))`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see AnyStationUnitModule
export function wire<N>(module: StationUnitModule<any, any, BuiltUnits, N, any>, needs: (wiring: UnitWiring) => N): WiredModule<N> {
  return Object.freeze({ name: module.name, ...(module.config && { config: module.config }), module, needs });
}

/** The module of a stationUnits() line. */
export function moduleOf(entry: StationUnitEntry): AnyStationUnitModule {
  return 'module' in entry ? entry.module : entry;
}

/** What building a module needs from the composition root. */
export interface UnitBuildDeps {
  readonly config: CalculationSettings & { readonly stations: readonly StationConfig[]; readonly mqtt: { readonly baseTopic: string } };
  readonly logger: Logger;
  readonly clock: Clock;
  readonly throttle: (log: Logger) => LogThrottle;
  /** The station side's acceptReading, for the modules wired with `readings`. */
  readonly readings?: AcceptReading;
  /** Run-time values over the configuration's (Home Assistant's mower class): the units' calculation context has them too. */
  readonly overrides?: Pick<StationOverrides, 'lawnOf'>;
  /** The variables the configuration's loader read no setting for (LoadedConfig.unreadEnvironment); none: a configuration made by hand. */
  readonly unreadEnvironment?: readonly string[];
}

/**
 * A module's global settings in a loaded configuration (its `config.settings.key`), or their defaults
 * when the configuration was loaded without the unit (a test's hand-made one); undefined without
 * settings. When the loader, without the unit, was given the unit's environment variables (`unreadEnvironment`,
 * LoadedConfig's), it throws: they were never read, and the defaults (the real Open-Meteo) would silently replace them.
 */
export function unitSettingsOf<G>(
  module: { readonly config?: UnitConfigSpec },
  config: object,
  unreadEnvironment: readonly string[] = [],
): G {
  const settings = module.config?.settings;
  if (settings === undefined) return undefined as G;
  const loaded = (config as Readonly<Record<string, unknown>>)[settings.key];
  if (loaded !== undefined) return loaded as G;
  const unread = unreadEnvironment.filter((name) => settingsEnvironment(settings.schema).includes(name));
  if (unread.length > 0) {
    throw new Error(
      `the configuration was loaded without the station units' settings, so ${unread.join(', ')} went unread ("${settings.key}.*" would be its defaults): pass units: stationUnitConfigs() (src/daemon.ts) to loadConfig`,
    );
  }
  return settingsDefaults(settings.schema) as G;
}

function unitStations<P>(module: Pick<StationUnitModule, 'config' | 'everyStation'>, stations: readonly StationConfig[]): UnitStation<P>[] {
  const stationKey = module.config?.station?.key;
  if (stationKey === undefined && !module.everyStation) return [];
  return stations.flatMap((station) => {
    const settings = stationKey === undefined ? undefined : unitSliceOf(station, stationKey);
    if (settings === undefined && !module.everyStation) return [];
    return [
      Object.freeze({
        id: station.id,
        name: station.name,
        format: station.format,
        settings: settings as P,
        ...(station.location && { location: station.location }),
      }),
    ];
  });
}

/** Builds one module that needs nothing (`needs` for one that does) from its slices of the configuration. */
export function buildUnit<G, P, U extends BuiltUnits, N = undefined, S = undefined>(
  module: StationUnitModule<G, P, U, N, S>,
  deps: UnitBuildDeps,
  needs?: N,
): U {
  return buildModule(module, deps, needs as N).built;
}

/**
 * Builds the lines of stationUnits() in their order: a wired module gets what its line names (the
 * station side's readings, what a module before it provides); their units in the same order.
 */
export function buildUnits(entries: readonly StationUnitEntry[], deps: UnitBuildDeps): StationUnit[] {
  const offers = new Map<AnyStationUnitModule, unknown>();
  const order = entries.map((entry) => moduleOf(entry).name);
  return entries.flatMap((entry) => {
    const module = moduleOf(entry);
    const wiring: UnitWiring = {
      readings: deps.readings,
      from: <S>(provider: AnyStationUnitModule): S => {
        if (offers.has(provider)) return offers.get(provider) as S;
        const listed = order.includes(provider.name)
          ? `, which comes after it in stationUnits() (${order.join(', ')})`
          : ', which stationUnits() does not list';
        throw new Error(
          `station unit "${module.name}" is wired with what "${provider.name}" provides${listed}: a module is wired only with what the modules before it provide (src/daemon.ts)`,
        );
      },
    };
    const { built, offer } = buildModule<unknown, unknown, BuiltUnits, unknown, unknown>(
      module,
      deps,
      'module' in entry ? entry.needs(wiring) : undefined,
    );
    offers.set(module, offer);
    return built;
  });
}

function buildModule<G, P, U extends BuiltUnits, N, S>(
  module: StationUnitModule<G, P, U, N, S>,
  deps: UnitBuildDeps,
  needs: N,
): { built: U; offer: S | undefined } {
  const log = deps.logger.child({ unit: module.name });
  const { config } = deps;
  const configuredLawn = (stationId: string | undefined) => config.stations.find((station) => station.id === stationId)?.lawn;
  const lawnOf = (stationId: string | undefined) =>
    stationId === undefined || !deps.overrides ? configuredLawn(stationId) : deps.overrides.lawnOf(stationId, configuredLawn(stationId));
  const context: UnitBuildContext<G, P> = Object.freeze({
    settings: unitSettingsOf<G>(module, config, deps.unreadEnvironment),
    stations: Object.freeze(unitStations<P>(module, config.stations)),
    log,
    throttle: deps.throttle(log),
    clock: deps.clock,
    baseTopic: config.mqtt.baseTopic,
    calculationContext: (nowMs: number, stationId?: string) => calculationContext(config, nowMs, { lawn: lawnOf(stationId) }),
  });
  const built = module.create(context, needs);
  const offer = module.provides?.(built, context, needs);
  // The offer and each object in it frozen: a module cannot replace what another is wired with.
  if (typeof offer === 'object' && offer !== null)
    for (const value of Object.values(offer) as unknown[]) if (typeof value === 'object' && value !== null) Object.freeze(value);
  return { built, offer: typeof offer === 'object' && offer !== null ? Object.freeze(offer) : offer };
}

/** Every counter the units export on /metrics, with its unit (for createMetrics' `unitMetrics`). */
export function unitMetricsOf(units: readonly StationUnit[]): Array<{ unit: string; counter: string; metric: UnitMetric }> {
  return units.flatMap((unit) => Object.entries(unit.metrics ?? {}).map(([counter, metric]) => ({ unit: unit.name, counter, metric })));
}
