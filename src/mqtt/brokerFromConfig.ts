/**
 * The embedded broker as the `broker.*` keys describe it: its limits, the
 * topics only the daemon may publish (ours and our discovery configs) and
 * where its retained messages persist.
 */
import type { Logger } from 'pino';
import type { Database } from '../store/database.js';
import { RetainedStore } from '../store/retainedStore.js';
import type { Clock } from '../util/clock.js';
import { EmbeddedBroker } from './broker.js';
import { ClientTopics } from './clientTopics.js';
import { UPLOAD_RELAY_PREFIX, uploadRelayTopic } from '../ingest/uploadStations.js';
import { unitSliceOf, type StationConfig } from '../ingest/types.js';
import {
  discoveryDeviceIdPrefix,
  discoveryEntityObjectIds,
  discoveryTopicFilters,
  discoveryUniqueIdPrefix,
  type ExtraEntities,
} from '../homeassistant/discovery.js';
import type { MqttSideConfig } from './settings.js';

/** Whether the daemon runs its own broker: enabled, and no external mqtt.url given. */
const RETAINED_HANDOVER_MS = 1000;

export function usesEmbeddedBroker(config: MqttSideConfig): boolean {
  return config.broker.enabled && config.mqtt.url === '';
}

export function brokerFromConfig(
  config: MqttSideConfig,
  deps: { database: Database; extraEntities: ExtraEntities; logger: Logger; clock: Clock; onClientPublish?: (topic: string) => void },
): EmbeddedBroker {
  const { broker, mqtt, homeassistant } = config;
  const baseTopic = mqtt.baseTopic;
  return new EmbeddedBroker({
    host: broker.host,
    port: broker.port,
    users: broker.users,
    maxPayloadBytes: broker.maxPayloadBytes,
    maxTopicLevels: broker.maxTopicLevels,
    retainedLimits: {
      maxMessages: broker.maxRetainedMessages,
      maxBytes: broker.maxRetainedBytes,
      maxBytesPerClient: broker.maxRetainedBytesPerClient,
    },
    maxInflightBytesPerClient: broker.maxInflightBytesPerClient,
    slowSubscribers: { maxOutgoingBytes: broker.maxOutgoingBytesPerClient, slowClientSeconds: broker.slowClientSeconds },
    retainedStore: broker.persistRetained ? new RetainedStore(deps.database) : undefined,
    baseTopic,
    ownedTopics: [
      `${baseTopic}/#`,
      `${UPLOAD_RELAY_PREFIX}/#`,
      ...discoveryTopicFilters(homeassistant.prefix, baseTopic, config.stations, deps.extraEntities),
    ],
    discovery: {
      prefix: homeassistant.prefix,
      uniqueIdPrefix: discoveryUniqueIdPrefix(baseTopic),
      deviceIdPrefix: discoveryDeviceIdPrefix(baseTopic),
      entityObjectIds: discoveryEntityObjectIds(homeassistant.prefix, baseTopic, config.stations, deps.extraEntities),
    },
    clientTopics: new ClientTopics({
      baseTopic,
      stationIds: config.stations.flatMap(commandTopicIds),
      relayStationIds: config.stations.filter((station) => station.topic === uploadRelayTopic(station.id)).map((station) => station.id),
      uploadRelay: mqtt.uploadRelay,
      commandAccount: homeassistant.commandAccount,
    }),
    sessionLimits: {
      maxFiltersPerSubscribe: broker.maxFiltersPerSubscribe,
      maxSubscriptionsPerClient: broker.maxSubscriptionsPerClient,
      maxSubscriptionsPerSession: broker.maxSubscriptionsPerClient,
      maxSessions: broker.maxPersistentSessions,
      maxQueuedMessages: broker.maxQueuedMessagesPerSession,
      maxQueuedBytes: broker.maxQueuedBytesPerSession,
      maxInflightBytes: broker.maxInflightBytes,
    },
    birthLimit: homeassistant.discovery
      ? { topic: homeassistant.statusTopic, windowMs: homeassistant.birthResendSeconds * 1000 }
      : undefined,
    maxClients: broker.maxClients,
    sysTopics: broker.sysTopics,
    // Retained changes only queue into the history's next commit (src/store/sharedCommit.ts), so hand them over
    // every second: a power cut then loses at most one history flush interval of them, not two.
    flushIntervalMs: RETAINED_HANDOVER_MS,
    logger: deps.logger,
    clock: deps.clock,
    ...(deps.onClientPublish ? { onClientPublish: deps.onClientPublish } : {}),
  });
}

/**
 * The ids a station's command topics (`<base>/<id>/mowed`) go under: the station's own and its lawns' (the
 * station key `lawns`, src/lawn/lawnsConfig.ts; validated at load: ids unique, never another station's).
 */
function commandTopicIds(station: StationConfig): string[] {
  const lawns = unitSliceOf(station, 'lawns');
  const lawnIds = Array.isArray(lawns) ? lawns.flatMap((lawn: { id?: unknown }) => (typeof lawn.id === 'string' ? [lawn.id] : [])) : [];
  return [...new Set([station.id, ...lawnIds])];
}
