/**
 * The composition of the station side: the station pipeline (history,
 * units, recompute) always, and when MQTT is on the embedded broker (or
 * none, with mqtt.url), the bridge connection and its publishers (state,
 * availability, discovery, stats); then the scheduled jobs. Each part is its
 * own unit; this function only builds and orders them. The composition root
 * (src/daemon.ts) and the test harness both start them with startInOrder.
 */
import type { Logger } from 'pino';
import { MFI_VERSION } from '../core/index.js';
import { calculationContext, type CalculationSettings } from '../config/calculationContext.js';
import type { Reading } from '../ingest/types.js';
import { StationPipeline } from '../station/pipeline.js';
import { ScheduledJobs } from '../station/scheduledJobs.js';
import type { StationUnit } from '../station/unit.js';
import type { Database } from '../store/database.js';
import { SpaceReclaimer } from '../store/spaceReclaimer.js';
import { systemClock, type Clock, type MonotonicClock } from '../util/clock.js';
import type { ClockWatch } from '../util/clockWatch.js';
import type { LifecycleComponent } from '../util/lifecycle.js';
import { LogThrottle } from '../util/logThrottle.js';
import { AvailabilityPublisher } from './availability.js';
import { MqttBridge } from './bridge.js';
import { bridgeStats, publishBridgeStats, type MqttStats, type StatsSources } from './bridgeStats.js';
import { brokerFromConfig, usesEmbeddedBroker } from './brokerFromConfig.js';
import { allDiscoveryMessages } from '../homeassistant/discovery.js';
import { DiscoveryPublisher } from './discoveryPublisher.js';
import type { MqttHealth } from './health.js';
import { crossKeyProblems } from '../config/crossKeyRules.js';
import { mqttEnabled, type MqttSideConfig } from './settings.js';
import type { StationSideConfig } from '../config/schema.js';
import type { StationStatePayload } from '../station/statePayload.js';
import { publishStates } from './statePublisher.js';
import type { AcceptOutcome, IngestCounters } from '../station/stationIngest.js';

export type { MqttStats } from './bridgeStats.js';

export interface MqttServiceOptions {
  /** The service-schema keys the calculation context needs are optional: sensible defaults. */
  config: MqttSideConfig & StationSideConfig & CalculationSettings;
  database: Database;
  logger: Logger;
  clock?: Clock;
  softwareVersion?: string;
  /** Sent as the discovery origin's support_url when not empty. */
  supportUrl?: string;
  /** Station units built by the composition root (src/station/unit.ts), after the built-in irrigation source. */
  units?: readonly StationUnit[];
  /** Clock-step detection (src/util/clockWatch.ts), started by the composition root: history and jobs follow its steps. */
  clockWatch?: ClockWatch;
  /** The clock "the last hour" of rain is measured on (src/station/recentRain.ts); default: `clock`. */
  monotonic?: MonotonicClock;
}

export interface MqttService {
  /** In start order: station pipeline, [embedded broker, bridge,] scheduled jobs. */
  components: LifecycleComponent[];
  stats(): MqttStats;
  /** Port of the embedded broker once started (undefined without one). */
  brokerPort(): number | undefined;
  /** For /health's `checks.mqtt`. */
  health(): MqttHealth;
  /** The last state computed for a station. */
  stationState(stationId: string): StationStatePayload | undefined;
  /** Per-station message and reading counts (for /metrics). */
  stationCounts(): ReadonlyMap<string, Readonly<IngestCounters>>;
  /** Writes pending history now (tests, benchmarks). */
  flush(): Promise<void>;
  /**
   * A reading parsed outside MQTT (direct HTTP uploads) enters the same pipeline as an MQTT
   * message: history, first-reading log, recompute. `origin` names it in logs.
   */
  acceptReading(stationId: string, reading: Reading, origin: string): AcceptOutcome | 'unknown_station' | 'not_running';
  /** A (debounced) recompute of one station, e.g. after a refused upload changed what its state says. */
  recompute(stationId: string): void;
}

const MQTT_OFF: MqttHealth = { status: 'error', message: 'MQTT is off' };

export function createMqttService(options: MqttServiceOptions): MqttService {
  const { config, database } = options;
  const problems = crossKeyProblems(config);
  if (problems.length > 0) throw new Error(`Invalid MQTT configuration: ${problems.join('; ')}`);
  const clock = options.clock ?? systemClock;
  const log = options.logger.child({ module: 'mqtt' });
  const throttle = new LogThrottle(log, 60_000, options.monotonic);
  const version = options.softwareVersion ?? MFI_VERSION;
  const pipeline = new StationPipeline({ config, database, logger: options.logger, log, throttle, clock, units: options.units ?? [], clockSteps: options.clockWatch, monotonic: options.monotonic });
  const extraEntities = (stationId: string) => pipeline.entities(stationId);
  const enabled = mqttEnabled(config);
  const broker = enabled && usesEmbeddedBroker(config) ? brokerFromConfig(config, { database, extraEntities, logger: options.logger, clock }) : undefined;

  let bridge: MqttBridge | undefined;
  const connection = () => bridge?.connection;
  const statsSources: StatsSources = { pipeline, connection, broker, clock: options.clockWatch };
  const publishStats = () => publishBridgeStats(statsSources, version, clock.now());
  if (enabled) {
    const availability = new AvailabilityPublisher({
      connection,
      lastReadingAtMs: (stationId) => pipeline.history.lastReadingAtMs(stationId),
      freshnessMinutes: config.history.freshnessMinutes,
    });
    publishStates(pipeline, connection, availability);
    const baseTopic = config.mqtt.baseTopic;
    const discovery = new DiscoveryPublisher({
      settings: config.homeassistant,
      baseTopic,
      messages: () =>
        allDiscoveryMessages({ prefix: config.homeassistant.prefix, baseTopic, softwareVersion: version, supportUrl: options.supportUrl, configurationUrl: config.homeassistant.configurationUrl, stations: config.stations, extraEntities }),
      log,
    });
    bridge = new MqttBridge({ config, logger: options.logger, log, clock, pipeline, broker, availability, discovery, publishStats });
  } else {
    log.info('MQTT is off: mqtt.url is empty and the embedded broker is disabled');
  }
  const jobs = new ScheduledJobs({
    logger: options.logger,
    clock,
    timeZone: calculationContext(config, 0).timeZone,
    pruneSchedule: config.history.pruneSchedule,
    recomputeIntervalMs: config.station.recomputeIntervalSeconds * 1000,
    clockSteps: options.clockWatch,
    pipeline,
    reclaimer: new SpaceReclaimer(database, options.logger),
    ...(bridge ? { afterRecompute: publishStats } : {}),
  });
  const brokerComponent: LifecycleComponent | undefined = broker && { name: 'mqtt-broker', start: () => broker.start(), stop: () => broker.stop() };

  return {
    components: [pipeline, ...(brokerComponent ? [brokerComponent] : []), ...(bridge ? [bridge] : []), jobs],
    stats: () => bridgeStats(statsSources),
    brokerPort: () => (broker && broker.port > 0 ? broker.port : undefined),
    health: () => bridge?.health() ?? MQTT_OFF,
    stationState: (stationId) => pipeline.stationState(stationId),
    stationCounts: () => pipeline.stationCounts(),
    flush: () => pipeline.history.flush(),
    acceptReading: (stationId, reading, origin) => pipeline.acceptReading(stationId, reading, origin),
    recompute: (stationId) => pipeline.scheduleRecompute(stationId),
  };
}
