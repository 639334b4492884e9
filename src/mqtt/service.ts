/**
 * The MQTT daemon: embedded broker (optional), station ingest into the
 * histories, recomputation and publishing of the index with Home Assistant
 * discovery. `createMqttService` returns lifecycle components for the
 * composition root (start in order, stop in reverse) plus read accessors for
 * diagnostics and benchmarks.
 */
import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import { calculate, MFI_VERSION, type CalculationOutcome } from '../core/index.js';
import type { StationConfig } from '../ingest/types.js';
import { MINUTE_MS } from '../history/windows.js';
import type { Database } from '../store/database.js';
import { HistoryStore } from '../store/historyStore.js';
import { RetainedStore } from '../store/retainedStore.js';
import { RECLAIM_SCHEDULE, SpaceReclaimer } from '../store/spaceReclaimer.js';
import { systemClock, type Clock } from '../util/clock.js';
import { guarded, logFailure } from '../util/guarded.js';
import { createScheduler, type Scheduler } from '../util/scheduler.js';
import { EmbeddedBroker } from './broker.js';
import { MqttConnection } from './client.js';
import { allDiscoveryMessages as discoveryFor, discoveryDeviceIdPrefix, discoveryTopicFilters, discoveryUniqueIdPrefix, isOurDiscoveryConfig } from './discovery.js';
import { mqttHealth, type MqttHealth } from './health.js';
import { HistoryService } from './historyService.js';
import { LogThrottle } from '../util/logThrottle.js';
import { INITIAL_MOWABLE, mowableReason, nextMowable, type MowableSettings } from './mowable.js';
import type { Reading } from '../ingest/types.js';
import type { MowableHold, StationInput, StationUnit } from '../station/unit.js';
import { StationEventLog } from './stationEvents.js';
import { clientIdFor, historyOptionsFor, mqttConfigProblems, mqttEnabled, type MqttSideConfig } from './settings.js';
import { IrrigationSources, type IrrigationCounters } from './irrigationSource.js';
import { buildStatePayload, type StationStatePayload } from './statePayload.js';
import { StationIngest, type AcceptOutcome, type IngestCounters } from './stationIngest.js';
import { calculationContext, type CalculationSettings } from '../config/calculationContext.js';
import { BRIDGE_STATE_TOPIC, BRIDGE_STATS_TOPIC } from './topics.js';

export interface LifecycleComponent {
  name: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** The service-schema keys the calculation context needs (optional: sensible defaults). */
export interface MqttServiceOptions {
  config: MqttSideConfig & CalculationSettings;
  database: Database;
  logger: Logger;
  clock?: Clock;
  softwareVersion?: string;
  /** Sent as the discovery origin's support_url when not empty. */
  supportUrl?: string;
  /** Station units built by the composition root (src/station/unit.ts), after the built-in irrigation source. */
  units?: readonly StationUnit[];
}

export interface MqttStats extends IngestCounters, IrrigationCounters {
  statesPublished: number;
  historyCommits: number;
  connected: boolean;
  brokerRejectedPublishes: number;
  /** Connections the embedded broker closed because broker.maxClients were open. */
  brokerRefusedConnections: number;
  /** Retained publishes of other clients refused by the broker.maxRetained* limits. */
  brokerRetainedRefused: number;
  /** Retained messages of other clients held by the embedded broker, and their payload bytes. */
  brokerRetainedMessages: number;
  brokerRetainedBytes: number;
}

export interface MqttService {
  components: LifecycleComponent[];
  stats(): MqttStats;
  /** Port of the embedded broker once started (undefined without one). */
  brokerPort(): number | undefined;
  /** For /health's `checks.mqtt`. */
  health(): MqttHealth;
  /** The last state payload published for a station. */
  stationState(stationId: string): StationStatePayload | undefined;
  /** Writes pending history now (tests, benchmarks). */
  flush(): Promise<void>;
  /**
   * A reading parsed outside MQTT (direct HTTP uploads) enters the same pipeline as an MQTT
   * message: history, first-reading log, recompute. `origin` names it in logs.
   */
  acceptReading(stationId: string, reading: Reading, origin: string): AcceptOutcome | 'unknown_station' | 'not_running';
}

const BIRTH_DELAY_MS = 1000;
/** How long we listen for retained discovery configs before deleting stale ones. */
const DISCOVERY_SWEEP_MS = 3000;

export function createMqttService(options: MqttServiceOptions): MqttService {
  const { config, database } = options;
  const problems = mqttConfigProblems(config);
  if (problems.length > 0) throw new Error(`Invalid MQTT configuration: ${problems.join('; ')}`);
  const clock = options.clock ?? systemClock;
  const log = options.logger.child({ module: 'mqtt' });
  const throttle = new LogThrottle(log, 60_000, () => clock.now());
  const version = options.softwareVersion ?? MFI_VERSION;
  const timeZone = calculationContext(config, 0).timeZone;
  const stations = config.stations;
  const baseTopic = config.mqtt.baseTopic;
  const useEmbedded = config.broker.enabled && config.mqtt.url === '';
  const mowableSettings: MowableSettings = {
    onThreshold: config.mqtt.mowableOnThreshold,
    offThreshold: config.mqtt.mowableOffThreshold,
    onDelayMs: config.mqtt.mowableOnDelayMinutes * MINUTE_MS,
  };
  const flushIntervalMs = config.history.flushIntervalSeconds * 1000;

  const history = new HistoryService({
    store: new HistoryStore(database),
    stations,
    optionsFor: (station) => historyOptionsFor(config, station),
    flushIntervalMs,
    logger: options.logger,
    now: () => clock.now(),
  });
  const irrigation = new IrrigationSources(stations, throttle, () => clock.now());
  const units: readonly StationUnit[] = [irrigation, ...(options.units ?? [])];
  const stationsById = new Map(stations.map((station) => [station.id, station]));
  const extraEntities = (stationId: string) => {
    const station = stationsById.get(stationId);
    return station ? units.flatMap((unit) => unit.entities?.(station) ?? []) : [];
  };
  /** The flag as last published per station (the hysteresis state is the history's). */
  const publishedMowable = new Map<string, boolean>();
  const broker = useEmbedded
    ? new EmbeddedBroker({
        host: config.broker.host,
        port: config.broker.port,
        users: config.broker.users,
        maxPayloadBytes: config.broker.maxPayloadBytes,
        maxTopicLevels: config.broker.maxTopicLevels,
        retainedLimits: {
          maxMessages: config.broker.maxRetainedMessages,
          maxBytes: config.broker.maxRetainedBytes,
          maxBytesPerClient: config.broker.maxRetainedBytesPerClient,
        },
        maxInflightBytesPerClient: config.broker.maxInflightBytesPerClient,
        retainedStore: config.broker.persistRetained ? new RetainedStore(database) : undefined,
        baseTopic,
        ownedTopics: [`${baseTopic}/#`, ...discoveryTopicFilters(config.homeassistant.prefix, baseTopic, stations, extraEntities)],
        discovery: { prefix: config.homeassistant.prefix, uniqueIdPrefix: discoveryUniqueIdPrefix(baseTopic), deviceIdPrefix: discoveryDeviceIdPrefix(baseTopic) },
        maxClients: config.broker.maxClients,
        sysTopics: config.broker.sysTopics,
        flushIntervalMs,
        logger: options.logger,
        clock,
      })
    : undefined;
  // The embedded broker knows its own internal identity; an external broker keeps our stable id.
  const clientId = broker ? broker.internalClientId : clientIdFor(config);

  const reclaimer = new SpaceReclaimer(database, options.logger);
  const events = new StationEventLog(options.logger);
  const ingest = new StationIngest({
    history, clock, throttle, timeZone, maxPayloadBytes: config.broker.maxPayloadBytes,
    onAccepted: (stationId, reading) => {
      for (const unit of units) {
        try {
          unit.onReading?.(stationId, reading);
        } catch (err) {
          throttle.warn(`unit:${unit.name}:${stationId}`, { err, unit: unit.name, station: stationId }, 'station unit failed on a reading');
        }
      }
    },
  });
  let statesPublished = 0;
  const lastStates = new Map<string, StationStatePayload>();
  const availability = new Map<string, 'online' | 'offline'>();
  const debounceTimers = new Map<string, NodeJS.Timeout>();
  let connection: MqttConnection | undefined;
  let scheduler: Scheduler | undefined;
  let birthTimer: NodeJS.Timeout | undefined;
  let sweepTimer: NodeJS.Timeout | undefined;
  let discoverySwept = false;
  let running = false;

  function freshnessMs(station: StationConfig): number {
    return (station.freshness?.maxAgeMinutes ?? config.history.freshnessMinutes) * MINUTE_MS;
  }

  function publishAvailability(station: StationConfig, nowMs: number, force: boolean): void {
    const last = history.lastReadingAtMs(station.id);
    const state = last !== null && nowMs - last <= freshnessMs(station) ? 'online' : 'offline';
    if (!force && availability.get(station.id) === state) return;
    availability.set(station.id, state);
    connection?.publish(`${station.id}/availability`, state, { retain: true, qos: 1 });
  }

  function recompute(station: StationConfig): void {
    const nowMs = clock.now();
    const assembly = history.assemble(station.id, nowMs);
    const input = units.reduce<StationInput>((current, unit) => unit.extendInput?.(station.id, current, nowMs) ?? current, assembly.input);
    let outcome: CalculationOutcome;
    try {
      outcome = calculate(input, calculationContext(config, nowMs, { lawn: station.lawn }));
    } catch (err) {
      throttle.warn(`calculate:${station.id}`, { err, station: station.id }, 'calculation failed');
      return;
    }
    const previous = history.stationState(station.id) ?? { station: station.id, ...INITIAL_MOWABLE };
    const score = outcome.ok ? outcome.result.index_score : null;
    const status = outcome.ok ? outcome.result.main_status : null;
    const mowable = nextMowable(previous, score, status, nowMs, mowableSettings);
    history.setStationState({ station: station.id, ...mowable });
    // A unit's hold (quiet hours, rain expected) keeps the flag off without resetting the index's hysteresis.
    const hold = firstHold(station.id, nowMs);
    const flag = mowable.mowable && hold === undefined;
    const reason = hold?.reason ?? mowableReason(mowable, score, status, mowableSettings);
    events.mowable(station.id, publishedMowable.get(station.id) ?? previous.mowable, flag, score, status, reason);
    publishedMowable.set(station.id, flag);
    const fragments = Object.assign({}, ...units.map((unit) => unit.stateFragment?.(station.id, nowMs))) as Record<string, unknown>;
    const payload = buildStatePayload({
      stationId: station.id, stationName: station.name, outcome, assembly, mowable: flag, mowableReason: reason, input, fragments,
    });
    lastStates.set(station.id, payload);
    statesPublished++;
    connection?.publish(`${station.id}/state`, JSON.stringify(payload), { retain: true, qos: 1 });
    publishAvailability(station, nowMs, false);
  }

  function firstHold(stationId: string, nowMs: number): MowableHold | undefined {
    for (const unit of units) {
      const hold = unit.mowableHold?.(stationId, nowMs);
      if (hold) return hold;
    }
    return undefined;
  }

  function recomputeAll(): void {
    for (const station of stations) recompute(station);
  }

  function scheduleRecompute(station: StationConfig): void {
    if (!running) return;
    if (config.mqtt.recomputeDebounceMs === 0) return recompute(station);
    if (debounceTimers.has(station.id)) return;
    const timer = setTimeout(
      guarded(() => {
        debounceTimers.delete(station.id);
        if (running) recompute(station);
      }, logFailure(log, 'recompute', { station: station.id })),
      config.mqtt.recomputeDebounceMs,
    );
    timer.unref();
    debounceTimers.set(station.id, timer);
  }

  function allDiscoveryMessages() {
    return discoveryFor({ prefix: config.homeassistant.prefix, baseTopic, softwareVersion: version, supportUrl: options.supportUrl, stations, extraEntities });
  }

  function publishDiscovery(): void {
    if (!connection || !config.homeassistant.discovery) return;
    for (const message of allDiscoveryMessages()) {
      connection.publishAbsolute(message.topic, JSON.stringify(message.payload), { retain: true, qos: 1 });
    }
  }

  /**
   * Once per start: learn which of our discovery configs the broker still
   * retains and delete those of stations or entities we no longer have, so
   * Home Assistant does not keep ghost entities.
   */
  function sweepStaleDiscovery(): void {
    const active = connection;
    if (!active || !config.homeassistant.discovery || discoverySwept) return;
    discoverySwept = true;
    const filter = `${config.homeassistant.prefix}/+/+/config`;
    const current = new Set(allDiscoveryMessages().map((message) => message.topic));
    const stale = new Set<string>();
    active.subscribe(filter, (topic, payload, retained) => {
      if (!retained || current.has(topic) || payload.length === 0) return;
      if (isOurDiscoveryConfig(payload.toString('utf8'), baseTopic)) stale.add(topic);
    });
    sweepTimer = setTimeout(
      guarded(() => {
        sweepTimer = undefined;
        active.unsubscribe(filter);
        for (const topic of stale) active.publishAbsolute(topic, '', { retain: true, qos: 1 });
        if (stale.size > 0) log.info({ removed: [...stale] }, 'removed discovery configs of stations no longer configured');
      }, logFailure(log, 'discovery sweep')),
      DISCOVERY_SWEEP_MS,
    );
    sweepTimer.unref();
  }

  function publishStats(): void {
    connection?.publish(BRIDGE_STATS_TOPIC, JSON.stringify({ ...stats(), version, at: new Date(clock.now()).toISOString() }), { retain: true, qos: 0 });
  }

  function publishEverything(): void {
    if (!connection) return;
    connection.publish(BRIDGE_STATE_TOPIC, 'online', { retain: true, qos: 1 });
    publishDiscovery();
    sweepStaleDiscovery();
    publishStats();
    const nowMs = clock.now();
    recomputeAll();
    for (const station of stations) publishAvailability(station, nowMs, true);
  }

  function readFile(key: 'ca' | 'cert' | 'key'): Buffer | undefined {
    const path = config.mqtt[key];
    if (path === '') return undefined;
    try {
      return readFileSync(path);
    } catch (err) {
      throw new Error(`"mqtt.${key}": cannot read "${path}": ${(err as Error).message}`);
    }
  }

  const historyComponent: LifecycleComponent = {
    name: 'mqtt-history',
    async start() {
      await history.start();
      for (const unit of units) await unit.start?.({ history });
    },
    async stop() {
      for (const unit of [...units].reverse()) {
        await unit.stop?.().catch((err: unknown) => log.error({ err, unit: unit.name }, 'station unit failed to stop'));
      }
      await history.stop();
    },
  };

  const brokerComponent: LifecycleComponent | undefined = broker && {
    name: 'mqtt-broker',
    start: () => broker.start(),
    stop: () => broker.stop(),
  };

  const bridgeComponent: LifecycleComponent = {
    name: 'mqtt-bridge',
    async start() {
      const embeddedHost = config.broker.host === '0.0.0.0' || config.broker.host === '::' ? '127.0.0.1' : config.broker.host;
      const url = broker ? `mqtt://${embeddedHost.includes(':') ? `[${embeddedHost}]` : embeddedHost}:${broker.port}` : config.mqtt.url;
      // Always log in to the embedded broker, also when it is anonymous: the login is what makes this connection the owner of our topics.
      const credentials = broker
        ? { username: broker.internalUser.username, password: broker.internalUser.password }
        : {
            ...(config.mqtt.username ? { username: config.mqtt.username } : {}),
            ...(config.mqtt.password ? { password: config.mqtt.password } : {}),
          };
      const tls = { ca: readFile('ca'), cert: readFile('cert'), key: readFile('key') };
      connection = new MqttConnection(
        {
          url,
          clientId,
          baseTopic,
          ...credentials,
          ...(tls.ca ? { ca: tls.ca } : {}),
          ...(tls.cert ? { cert: tls.cert } : {}),
          ...(tls.key ? { key: tls.key } : {}),
          rejectUnauthorized: config.mqtt.rejectUnauthorized,
          keepaliveSeconds: config.mqtt.keepaliveSeconds,
          persistentSession: !broker,
          reconnectMaxSeconds: config.mqtt.reconnectMaxSeconds,
          willTopic: BRIDGE_STATE_TOPIC,
          willPayload: 'offline',
        },
        options.logger,
      );
      for (const station of stations) {
        connection.subscribe(station.topic, (topic, payload, retained) => {
          if (!ingest.handle(station, topic, payload, retained)) return;
          events.reading(station.id, topic);
          scheduleRecompute(station);
        });
      }
      const recomputeById = (stationId: string) => {
        const station = stationsById.get(stationId);
        if (station) scheduleRecompute(station);
      };
      for (const unit of units) unit.subscribe?.(connection, recomputeById);
      if (config.homeassistant.discovery) {
        connection.subscribe(config.homeassistant.statusTopic, (_topic, payload) => {
          if (payload.toString('utf8').trim() !== 'online' || birthTimer) return;
          birthTimer = setTimeout(
            guarded(() => {
              birthTimer = undefined;
              if (running) publishEverything();
            }, logFailure(log, 'republish after Home Assistant restart')),
            BIRTH_DELAY_MS,
          );
          birthTimer.unref();
        });
      }
      connection.onConnect(() => publishEverything());
      running = true;
      scheduler = createScheduler(options.logger, { timeZone });
      scheduler.add('mqtt-recompute', '* * * * *', () => {
        recomputeAll();
        publishStats();
      });
      scheduler.add('history-prune', config.history.pruneSchedule, () => history.prune(clock.now()));
      scheduler.add('database-reclaim', RECLAIM_SCHEDULE, () => reclaimer.reclaim());
      scheduler.start();
      connection.start();
      recomputeAll();
      log.info({ url: broker ? url : '(external)', clientId, stations: stations.length }, 'MQTT bridge started');
      if (stations.length === 0) {
        log.info('No weather stations configured yet: add a "stations" list to the config file (see docs/mqtt.md). The HTTP API works without them.');
      }
    },
    async stop() {
      running = false;
      for (const timer of debounceTimers.values()) clearTimeout(timer);
      debounceTimers.clear();
      if (birthTimer) clearTimeout(birthTimer);
      birthTimer = undefined;
      if (sweepTimer) clearTimeout(sweepTimer);
      sweepTimer = undefined;
      await scheduler?.stop();
      scheduler = undefined;
      await connection?.stop('offline');
      connection = undefined;
    },
  };

  function stats(): MqttStats {
    return {
      ...Object.assign({}, ...units.map((unit) => unit.stats?.())),
      ...ingest.counters,
      ...irrigation.counters,
      statesPublished,
      historyCommits: history.commits,
      connected: connection?.connected ?? false,
      brokerRejectedPublishes: broker?.rejectedPublishes ?? 0,
      brokerRefusedConnections: broker?.refusedConnections ?? 0,
      brokerRetainedRefused: broker?.retainedRefused ?? 0,
      brokerRetainedMessages: broker?.retained.messages ?? 0,
      brokerRetainedBytes: broker?.retained.bytes ?? 0,
    };
  }

  const enabled = mqttEnabled(config);
  if (!enabled) log.info('MQTT is off: mqtt.url is empty and the embedded broker is disabled');
  return {
    components: enabled ? [historyComponent, ...(brokerComponent ? [brokerComponent] : []), bridgeComponent] : [],
    stats,
    brokerPort: () => (broker && broker.port > 0 ? broker.port : undefined),
    health: () => mqttHealth({ running, embedded: broker !== undefined, brokerListening: (broker?.port ?? 0) > 0, connected: connection?.connected ?? false }),
    stationState: (stationId) => lastStates.get(stationId),
    flush: () => history.flush(),
    acceptReading(stationId, reading, origin) {
      const station = stationsById.get(stationId);
      if (!station) return 'unknown_station';
      if (!running) return 'not_running';
      const outcome = ingest.accept(station, reading, origin);
      if (outcome === 'accepted') {
        events.reading(station.id, origin);
        scheduleRecompute(station);
      }
      return outcome;
    },
  };
}

const COMPONENT_NAMES = ['mqtt-history', 'mqtt-broker', 'mqtt-bridge'] as const;

/**
 * The same components for a composition root whose database opens later:
 * the service is created when the first of them starts. `service()` is
 * undefined until then.
 */
export function deferredMqttComponents(resolveOptions: () => MqttServiceOptions): {
  components: LifecycleComponent[];
  service(): MqttService | undefined;
} {
  let service: MqttService | undefined;
  const find = (name: string) => service?.components.find((component) => component.name === name);
  return {
    components: COMPONENT_NAMES.map((name) => ({
      name,
      async start() {
        service ??= createMqttService(resolveOptions());
        await find(name)?.start();
      },
      async stop() {
        await find(name)?.stop();
      },
    })),
    service: () => service,
  };
}
