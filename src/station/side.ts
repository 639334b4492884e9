/**
 * The station side: the station pipeline (readings → history → units → recompute → state) and
 * its scheduled jobs. It runs whether or not MQTT is on; the MQTT side (src/mqtt/service.ts)
 * feeds it messages and publishes its states, the HTTP side reads it through its facade
 * (./facade.ts). The composition root (src/daemon.ts) builds it once the database is open.
 */
import type { Logger } from 'pino';
import { calculationContext, type CalculationSettings } from '../config/calculationContext.js';
import type { StationSideConfig } from '../config/schema.js';
import type { Database } from '../store/database.js';
import { SpaceReclaimer } from '../store/spaceReclaimer.js';
import { systemClock, type Clock, type MonotonicClock } from '../util/clock.js';
import type { ClockWatch } from '../util/clockWatch.js';
import type { LifecycleComponent } from '../util/lifecycle.js';
import { LogThrottle } from '../util/logThrottle.js';
import type { StationFacade } from './facade.js';
import { StationPipeline, type PipelineStats } from './pipeline.js';
import { ScheduledJobs } from './scheduledJobs.js';
import type { StationOverrides } from './recompute.js';
import type { StationUnit } from './unit.js';

export interface StationSideOptions {
  /** The service-schema keys the calculation context needs are optional: sensible defaults. */
  config: StationSideConfig & CalculationSettings;
  database: Database;
  logger: Logger;
  clock?: Clock;
  /** Clock-step detection (src/util/clockWatch.ts), started by the composition root: history and jobs follow its steps. */
  clockWatch?: ClockWatch | undefined;
  /** The clock "the last hour" of rain is measured on (./recentRain.ts); default: `clock`. */
  monotonic?: MonotonicClock | undefined;
}

export interface StationSide extends StationFacade {
  /** For the transports that feed the pipeline and publish its states (src/mqtt/). */
  readonly pipeline: StationPipeline;
  /** In start order: the pipeline, then the scheduled jobs (interval recompute, history prune, database reclaim). */
  readonly components: readonly LifecycleComponent[];
  /** Called after each interval's recompute of every station (the MQTT side publishes its stats). */
  afterIntervalRecompute(listener: () => void): void;
  stats(): PipelineStats;
  /** Writes pending history now (tests, benchmarks). */
  flush(): Promise<void>;
}

/** What the composition root builds on the station side: its units, and whatever else of them it hands on (views, sources). */
export interface StationFeatures {
  /** The station units (./unit.ts), asked after the built-in recent rain (./recentRain.ts). */
  readonly units: readonly StationUnit[];
  /** Per-station values set at run time over the configuration's (Home Assistant's controls, ./stationControls.ts). */
  readonly overrides?: StationOverrides | undefined;
}

/**
 * Builds the station side. `features` builds the units; it gets the side's own facade, for units
 * that hand in readings (a modelled station) or read states (the status page's recorder). The
 * facade answers once this function has returned: a feature keeps it and calls it later (from its
 * start() on), never while being built.
 */
export function createStationSide<F extends StationFeatures>(
  options: StationSideOptions,
  features: (facade: StationFacade) => F,
): StationSide & { readonly features: F } {
  const { config, database } = options;
  const clock = options.clock ?? systemClock;
  const log = options.logger.child({ module: 'station' });
  const throttle = new LogThrottle(log, 60_000, options.monotonic);
  const facade: StationFacade = {
    stationState: (stationId) => pipeline.stationState(stationId),
    stationCounts: () => pipeline.stationCounts(),
    acceptReading: (stationId, reading, origin) => pipeline.acceptReading(stationId, reading, origin),
    recompute: (stationId) => pipeline.scheduleRecompute(stationId),
  };
  const built = features(facade);
  const pipeline: StationPipeline = new StationPipeline({
    config,
    database,
    logger: options.logger,
    log,
    throttle,
    clock,
    units: built.units,
    clockSteps: options.clockWatch,
    monotonic: options.monotonic,
    overrides: built.overrides,
  });
  const afterRecompute: Array<() => void> = [];
  const jobs = new ScheduledJobs({
    logger: options.logger,
    clock,
    timeZone: calculationContext(config, 0).timeZone,
    pruneSchedule: config.history.pruneSchedule,
    recomputeIntervalMs: config.station.recomputeIntervalSeconds * 1000,
    clockSteps: options.clockWatch,
    pipeline,
    reclaimer: new SpaceReclaimer(database, options.logger),
    afterRecompute: () => {
      for (const listener of afterRecompute) listener();
    },
  });
  return {
    ...facade,
    features: built,
    pipeline,
    components: [pipeline, jobs],
    afterIntervalRecompute: (listener) => void afterRecompute.push(listener),
    stats: () => pipeline.stats(),
    flush: () => pipeline.history.flush(),
  };
}
