/**
 * The bridge: the daemon's one MQTT connection. It feeds station messages to
 * the station pipeline, lets units subscribe, and on every (re)connect
 * publishes everything retained: bridge state, discovery, stats, each
 * station's state and availability. Its start returns once the broker has
 * acknowledged the stations' and units' subscriptions (bounded), so a reading
 * published right after the daemon started reaches its station.
 */
import { uploadRelayTopic } from '../ingest/uploadStations.js';
import type { Logger } from 'pino';
import { MODELLED_FORMAT, type StationConfig } from '../ingest/types.js';
import type { StationPipeline } from '../station/pipeline.js';
import type { Clock } from '../util/clock.js';
import type { LifecycleComponent } from '../util/lifecycle.js';
import type { AvailabilityPublisher } from './availability.js';
import { openBridgeConnection, type EmbeddedEndpoint } from './bridgeConnection.js';
import type { DiscoveryPublisher } from './discoveryPublisher.js';
import { mqttHealth, type MqttHealth } from './health.js';
import type { BridgeConnection } from './publisher.js';
import type { MqttSideConfig } from './settings.js';
import { BRIDGE_STATE_TOPIC } from '../homeassistant/bridgeEntities.js';
import { AccessProbe, describeFindings } from './accessProbe.js';

export interface BridgeOptions {
  config: MqttSideConfig;
  /** The root logger (the connection logs as `mqtt-client`). */
  logger: Logger;
  /** The MQTT side's logger (`module: "mqtt"`). */
  log: Logger;
  clock: Clock;
  pipeline: StationPipeline;
  /** The embedded broker, started before the bridge; undefined with an external broker. */
  broker: EmbeddedEndpoint | undefined;
  availability: AvailabilityPublisher;
  discovery: DiscoveryPublisher;
  publishStats(): void;
}

/**
 * How long the start waits for the broker to acknowledge the subscriptions. The embedded broker's take
 * well under a millisecond, an external broker's one round trip; an unreachable broker ends the wait
 * at its first failed attempt, one that never answers at this bound (then /health says so).
 */
export const SUBSCRIBE_PATIENCE_MS = 5000;

/** Whether a station's readings come over its MQTT topic (a modelled station's come from Open-Meteo, an upload station's over HTTP). */
const publishesOverMqtt = (station: StationConfig): boolean =>
  station.format !== MODELLED_FORMAT && station.topic !== uploadRelayTopic(station.id);

export class MqttBridge implements LifecycleComponent {
  readonly name = 'mqtt-bridge';
  readonly #options: BridgeOptions;
  #connection: BridgeConnection | undefined;
  #running = false;
  #connectedOnce = false;
  /** The start's wait for the subscriptions' acknowledgements is over (they came, or the patience ran out). */
  #subscribeWaitOver = false;
  /** The ACL check by round trip, on an external broker only (the embedded one is used in process). */
  #probe: AccessProbe | undefined;

  constructor(options: BridgeOptions) {
    this.#options = options;
  }

  /** The live connection; undefined before start and after stop. */
  get connection(): BridgeConnection | undefined {
    return this.#connection;
  }

  async start(): Promise<void> {
    const { config, pipeline, broker, discovery } = this.#options;
    const connection = openBridgeConnection(config, broker, this.#options.logger);
    this.#connection = connection;
    // One handler per topic filter: a shared topic (rtl_433's events) is decoded once for all its stations.
    const byTopic = new Map<string, StationConfig[]>();
    for (const station of pipeline.stations) {
      // The relay topic skips the upload PASSKEY: read only when mqtt.uploadRelay says so.
      if (station.topic === uploadRelayTopic(station.id) && !config.mqtt.uploadRelay) continue;
      const stations = byTopic.get(station.topic);
      if (stations) stations.push(station);
      else byTopic.set(station.topic, [station]);
    }
    const probe = broker ? undefined : new AccessProbe({ clock: this.#options.clock, ownTopic: connection.topic(BRIDGE_STATE_TOPIC) });
    this.#probe = probe;
    if (probe) {
      // Before the handler below publishes "online": every connect starts the round trip anew.
      connection.onConnect(() => probe.connected());
      connection.subscribe(probe.ownTopic, (_topic, payload, retained) => probe.ownMessage(payload, retained));
      probe.start(this.#options.log, this.#accountName(false), () => connection.connected);
    }
    for (const [filter, stations] of byTopic) {
      // Only topics a station publishes to over MQTT: not a modelled station's (mowability-modelled/<id>,
      // where nothing is published), not an upload relay's.
      if (filter && stations.some(publishesOverMqtt)) probe?.watch(filter);
      connection.subscribe(filter, (topic, payload, retained) => {
        probe?.delivered(filter);
        return pipeline.handleSharedMessage(stations, topic, payload, retained);
      });
    }
    // Units publish only while connected (publishNow): a command is never queued for a later reconnect.
    const unitConnection = {
      subscribe: connection.subscribe.bind(connection),
      publishNow: (topic: string, payload: string, options?: { retain?: boolean }): boolean => {
        if (!connection.connected) return false;
        connection.publishAbsolute(topic, payload, { qos: 1, retain: options?.retain ?? false });
        return true;
      },
    };
    for (const unit of pipeline.units) unit.subscribe?.(unitConnection, (stationId) => pipeline.scheduleRecompute(stationId));
    discovery.onBirth(connection, () => {
      if (this.#running) this.publishEverything();
    });
    connection.onConnect(() => {
      this.#connectedOnce = true;
      this.publishEverything();
    });
    this.#running = true;
    connection.start();
    await this.#subscriptionsAcknowledged(connection);
    pipeline.recomputeAll();
    const stations = pipeline.stations.length;
    this.#options.log.info({ broker: broker ? 'embedded, in process' : 'external', stations }, 'MQTT bridge started');
    if (stations === 0) {
      this.#options.log.info(
        'No weather stations configured yet: add a "stations" list to the config file (see docs/mqtt.md). The HTTP API works without them.',
      );
    }
  }

  /** Waits, at most SUBSCRIBE_PATIENCE_MS, until the broker has acknowledged every subscription. */
  async #subscriptionsAcknowledged(connection: BridgeConnection): Promise<void> {
    let patience: NodeJS.Timeout | undefined;
    const timedOut = new Promise<void>((resolve) => (patience = setTimeout(resolve, SUBSCRIBE_PATIENCE_MS)));
    await Promise.race([connection.subscriptionsSettled(), timedOut]);
    clearTimeout(patience);
    this.#subscribeWaitOver = true;
    const pending = connection.unacknowledged;
    // Not connected: the connection's own lines say why; the subscriptions follow when it connects.
    if (pending.length > 0 && connection.connected)
      this.#options.log.warn(
        { filters: pending },
        `the MQTT broker has not acknowledged ${pending.length} subscription(s) (${pending.join(', ')}): messages published there do not reach the daemon until it does. ` +
          `If it refused them, let ${this.#accountName(false)} read those topics in the broker's ACL (docs/mqtt.md, "Ownership on an external broker")`,
      );
  }

  /** The broker account as the ACL lines name it: by name in the log, by setting where anyone can read it (/health). */
  #accountName(publicly: boolean): string {
    const username = this.#options.config.mqtt.username;
    if (username === '') return 'anonymous clients (mqtt.username is empty)';
    return publicly ? "this daemon's account (mqtt.username)" : `account "${username}" (mqtt.username)`;
  }

  async stop(): Promise<void> {
    this.#running = false;
    this.#probe?.stop();
    this.#options.discovery.stop();
    await this.#connection?.stop('offline');
    this.#connection = undefined;
  }

  /** Everything retained, after a (re)connect or Home Assistant's restart. */
  publishEverything(): void {
    const connection = this.#connection;
    if (!connection) return;
    const { discovery, pipeline, availability, clock } = this.#options;
    connection.publish(BRIDGE_STATE_TOPIC, 'online', { retain: true, qos: 1 });
    discovery.publish(connection);
    discovery.sweepStale(connection);
    this.#options.publishStats();
    const nowMs = clock.now();
    pipeline.recomputeAll();
    for (const station of pipeline.stations) availability.publish(station, nowMs, true);
  }

  health(): MqttHealth {
    const broker = this.#options.broker;
    const findings = this.#probe?.findings();
    return mqttHealth({
      running: this.#running,
      embedded: broker !== undefined,
      brokerListening: (broker?.port ?? 0) > 0,
      connected: this.#connection?.connected ?? false,
      connectedOnce: this.#connectedOnce,
      unacknowledged: this.#connection?.unacknowledged.length ?? 0,
      subscribeWaitOver: this.#subscribeWaitOver,
      problem: this.#connection?.problem,
      ...(findings ? { accessDenied: findings.own !== undefined, access: describeFindings(findings, this.#accountName(true)) } : {}),
    });
  }
}
