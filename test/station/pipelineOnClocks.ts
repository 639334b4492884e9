/**
 * The real station pipeline on a real SQLite file with two fake clocks (the wall clock and the
 * monotonic one) and no MQTT, collecting every state it produces: the set-up of the tests that step
 * or restart the clocks under it. Callers stop it (or, for a power cut, only close the database).
 */
import { StationPipeline, type PipelineOptions } from '../../src/station/pipeline.js';
import type { StationStatePayload } from '../../src/station/statePayload.js';
import { Database } from '../../src/store/database.js';
import { ClockWatch } from '../../src/util/clockWatch.js';
import { LogThrottle } from '../../src/util/logThrottle.js';
import { FakeClock, silentLogger } from '../helpers/mqttHarness.js';

export interface PipelineOnClocks {
  pipeline: StationPipeline;
  database: Database;
  wall: FakeClock;
  /** Starts at 0. */
  monotonic: FakeClock;
  /** Compares the two clocks; the pipeline hears its steps only when `watchSteps` was asked for. */
  watch: ClockWatch;
  /** Every state the pipeline produced, the newest last. */
  states: StationStatePayload[];
}

export async function startPipelineOnClocks(options: {
  config: PipelineOptions['config'];
  dbPath: string;
  wallMs: number;
  /** Hand the pipeline the clock watch (clock steps reach its units); default true. */
  watchSteps?: boolean;
  units?: PipelineOptions['units'];
}): Promise<PipelineOnClocks> {
  const database = await Database.open(options.dbPath);
  const wall = new FakeClock(options.wallMs);
  const monotonic = new FakeClock(0);
  const watch = new ClockWatch({ wall, monotonic });
  const pipeline = new StationPipeline({
    config: options.config,
    database,
    logger: silentLogger,
    log: silentLogger,
    throttle: new LogThrottle(silentLogger),
    clock: wall,
    monotonic,
    units: options.units ?? [],
    ...(options.watchSteps === false ? {} : { clockSteps: watch }),
  });
  const states: StationStatePayload[] = [];
  pipeline.onState((_station, state) => states.push(state));
  await pipeline.start();
  return { pipeline, database, wall, monotonic, watch, states };
}
