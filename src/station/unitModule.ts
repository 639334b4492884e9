/**
 * The station unit module contract: a unit with its configuration, as the composition root lists it once
 * in stationUnits() (src/daemon.ts) and ./unitBuilder.ts builds it. What the built unit implements is
 * ./unit.ts; this is what it is built with (its settings, stations, logger, clock) and what it hands on.
 */
import type { Logger } from 'pino';
import type { CalculationContext } from '../core/index.js';
import type { StationFormat, StationLocation } from '../ingest/types.js';
import type { UnitConfigSpec } from '../config/unitSettings.js';
import type { Clock } from '../util/clock.js';
import type { LogThrottle } from '../util/logThrottle.js';
import type { StationUnit } from './unit.js';

/** One station that configured the unit: its id, name and the value of the unit's own key, validated at load. */
export interface UnitStation<P> {
  readonly id: string;
  readonly name: string;
  /** The value of the unit's key; undefined on a station without it (only for an `everyStation` module). */
  readonly settings: P;
  readonly location?: StationLocation;
  /** How its readings arrive: a modelled station's (`open-meteo`) come from a unit. */
  readonly format?: StationFormat;
}

/** What a module is built with: its own slices of the configuration, a logger, the clock. Frozen. */
export interface UnitBuildContext<G = unknown, P = unknown> {
  /** The unit's global settings (its `config.settings.key`), as loaded; undefined without them. */
  readonly settings: G;
  /** The stations that have the unit's key (every station for an `everyStation` module), in configuration order. */
  readonly stations: readonly UnitStation<P>[];
  /** The unit's child logger (`unit: name`) and a once-a-minute throttle on it. */
  readonly log: Logger;
  readonly throttle: LogThrottle;
  readonly clock: Clock;
  /** The daemon's topic root (`mqtt.baseTopic`), for command topics under `<base>/<station>/`. */
  readonly baseTopic: string;
  /** The core's context for a station at `nowMs` (time zone, hemisphere, its lawn profile); without a station, the configured one. */
  readonly calculationContext: (nowMs: number, stationId?: string) => CalculationContext;
}

/** The units one module builds: one, or several that work together (a source feeding a memory), in the order the pipeline asks them. */
export type BuiltUnits = StationUnit | readonly StationUnit[];

/**
 * A station unit with its configuration: one module, one line in stationUnits() (src/daemon.ts).
 * `N`: what it needs from the station side or an earlier module, wired there by name (`wire(module, ...)`);
 * `S`: what it offers later modules, returned by `provides`.
 */
export interface StationUnitModule<G = never, P = never, U extends BuiltUnits = BuiltUnits, N = undefined, S = undefined> {
  readonly name: string;
  /** Its global settings (convict fragment) and its key in the station objects with the key's validation. */
  readonly config?: UnitConfigSpec;
  /** Serve every station: `stations` lists all, `settings` undefined where the key is absent. */
  readonly everyStation?: boolean;
  /** The unit(s); none when off. `needs`: what the composition root wired in (undefined for a module that needs nothing). */
  create(context: UnitBuildContext<G, P>, needs: N): U;
  /** What it offers the modules wired after it (src/daemon.ts), from what create() built and was wired with; each object value is frozen. */
  provides?(built: U, context: UnitBuildContext<G, P>, needs: N): S;
}

/** Types a module's settings from its create() (an identity: `export const snowCoverUnit = defineStationUnit({...})`). */
export function defineStationUnit<G = undefined, P = undefined, U extends BuiltUnits = StationUnit, N = undefined, S = undefined>(
  module: StationUnitModule<G, P, U, N, S>,
): StationUnitModule<G, P, U, N, S> {
  return module;
}
