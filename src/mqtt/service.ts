/**
 * The MQTT side: the embedded broker (or none, with mqtt.url), the bridge connection and its
 * publishers (state, availability, discovery, stats). It feeds the station side's pipeline
 * (src/station/side.ts) the stations' messages and publishes what it computes; with MQTT off
 * it is nothing. Each part is its own unit; this function only builds and orders them. The
 * composition root (src/daemon.ts) and the test harness both start them after the station side.
 */
import type { Logger } from 'pino';
import { MFI_VERSION } from '../core/index.js';
import { crossKeyProblems } from '../config/crossKeyRules.js';
import type { StationSideConfig } from '../config/schema.js';
import { allDiscoveryMessages } from '../homeassistant/discovery.js';
import type { StationPipeline } from '../station/pipeline.js';
import type { StationSide } from '../station/side.js';
import { stateText } from '../station/stateText.js';
import type { Database } from '../store/database.js';
import { systemClock, type Clock } from '../util/clock.js';
import type { ClockWatch } from '../util/clockWatch.js';
import type { LifecycleComponent } from '../util/lifecycle.js';
import { AvailabilityPublisher } from './availability.js';
import { MqttBridge } from './bridge.js';
import { bridgeStats, publishBridgeStats, type MqttStats, type StatsSources } from './bridgeStats.js';
import { brokerFromConfig, usesEmbeddedBroker } from './brokerFromConfig.js';
import { AnnouncedDiscovery } from './announcedDiscovery.js';
import { DiscoveryPublisher } from './discoveryPublisher.js';
import type { MqttHealth } from './health.js';
import type { PublisherRef } from './publisher.js';
import { mqttEnabled, type MqttSideConfig } from './settings.js';

export type { MqttStats } from './bridgeStats.js';

export interface MqttSideOptions {
  config: MqttSideConfig & Pick<StationSideConfig, 'station'>;
  /** The station side the bridge feeds and publishes. */
  station: Pick<StationSide, 'pipeline' | 'afterIntervalRecompute'>;
  database: Database;
  logger: Logger;
  clock?: Clock;
  softwareVersion?: string;
  /** Sent as the discovery origin's support_url when not empty. */
  supportUrl?: string;
  /** Clock-step detection (src/util/clockWatch.ts): its counters go into the bridge stats. */
  clockWatch?: ClockWatch | undefined;
  /** Every other client's publish the embedded broker accepted (src/station/topicsHeard.ts). */
  onBrokerPublish?: (topic: string) => void;
}

export interface MqttSide {
  /** In start order: [embedded broker,] bridge; none with MQTT off. */
  readonly components: readonly LifecycleComponent[];
  /** The station side's counters with the connection's and the broker's. */
  stats(): MqttStats;
  /** Port of the embedded broker once started (undefined without one). */
  brokerPort(): number | undefined;
  /** For /health's `checks.mqtt`. */
  health(): MqttHealth;
}

const MQTT_OFF: MqttHealth = { status: 'error', code: 'bridge_not_running', message: 'MQTT is off' };

export function createMqttSide(options: MqttSideOptions): MqttSide {
  const { config, database } = options;
  const problems = crossKeyProblems(config);
  if (problems.length > 0) throw new Error(`Invalid MQTT configuration: ${problems.join('; ')}`);
  const clock = options.clock ?? systemClock;
  const { pipeline } = options.station;
  const log = options.logger.child({ module: 'mqtt' });
  const version = options.softwareVersion ?? MFI_VERSION;
  const extraEntities = (stationId: string) => pipeline.entities(stationId);
  const enabled = mqttEnabled(config);
  const broker =
    enabled && usesEmbeddedBroker(config)
      ? brokerFromConfig(config, {
          database,
          extraEntities,
          logger: options.logger,
          clock,
          ...(options.onBrokerPublish ? { onClientPublish: options.onBrokerPublish } : {}),
        })
      : undefined;
  let bridge: MqttBridge | undefined;
  const connection: PublisherRef = () => bridge?.connection;
  const statsSources: StatsSources = { pipeline, connection, broker, clock: options.clockWatch };
  if (enabled) {
    const publishStats = () => publishBridgeStats(statsSources, version, clock.now());
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
        allDiscoveryMessages({
          prefix: config.homeassistant.prefix,
          baseTopic,
          softwareVersion: version,
          supportUrl: options.supportUrl,
          configurationUrl: config.homeassistant.configurationUrl,
          stations: config.stations,
          extraEntities,
        }),
      log,
      announced: new AnnouncedDiscovery(database, log),
    });
    bridge = new MqttBridge({ config, logger: options.logger, log, clock, pipeline, broker, availability, discovery, publishStats });
    options.station.afterIntervalRecompute(publishStats);
  } else {
    log.info('MQTT is off: mqtt.url is empty and the embedded broker is disabled');
  }
  const brokerComponent: LifecycleComponent | undefined = broker && {
    name: 'mqtt-broker',
    start: () => broker.start(),
    stop: () => broker.stop(),
  };
  return {
    components: [...(brokerComponent ? [brokerComponent] : []), ...(bridge ? [bridge] : [])],
    stats: () => bridgeStats(statsSources),
    brokerPort: () => (broker && broker.port > 0 ? broker.port : undefined),
    health: () => bridge?.health() ?? MQTT_OFF,
  };
}

/** Every state the station pipeline computes goes out as the retained `<base>/<station>/state`, followed by the station's availability. */
function publishStates(pipeline: Pick<StationPipeline, 'onState'>, connection: PublisherRef, availability: AvailabilityPublisher): void {
  pipeline.onState((station, state, nowMs) => {
    connection()?.publish(`${station.id}/state`, stateText(state), { retain: true, qos: 1 });
    availability.publish(station, nowMs, false);
  });
}
