/**
 * The bridge's counters: the station pipeline's, the connection's state and
 * the embedded broker's refusals and retained store. The same object feeds
 * /metrics and the retained `<base>/bridge/stats` topic.
 */
import type { PipelineStats } from '../station/pipeline.js';
import type { ClockWatchStats } from '../util/clockWatch.js';
import type { EmbeddedBroker } from './broker.js';
import type { PublisherRef } from './publisher.js';
import { BRIDGE_STATS_TOPIC } from '../homeassistant/bridgeEntities.js';

export interface MqttStats extends PipelineStats {
  connected: boolean;
  brokerRejectedPublishes: number;
  /** Connections the embedded broker closed because broker.maxClients were open. */
  brokerRefusedConnections: number;
  /** Retained publishes of other clients refused by the broker.maxRetained* limits. */
  brokerRetainedRefused: number;
  /** Retained messages of other clients held by the embedded broker, and their payload bytes. */
  brokerRetainedMessages: number;
  brokerRetainedBytes: number;
  /** Retained publishes of other clients to command or relay topics, delivered without the retain flag. */
  brokerRetainDropped: number;
  /** SUBSCRIBE packets refused by broker.maxFiltersPerSubscribe or broker.maxSubscriptionsPerClient (connection closed). */
  brokerSubscribeRefused: number;
  /** QoS 1/2 messages not queued for an offline persistent session past broker.maxQueued*PerSession. */
  brokerQueueDropped: number;
  /** Clients disconnected for leaving too much unread (broker.maxOutgoingBytesPerClient, broker.slowClientSeconds). */
  brokerSlowClientsDropped: number;
  /** Payload bytes of inbound QoS 2 messages awaiting PUBREL (all clients), and those refused by broker.maxInflightBytes. */
  brokerInflightBytes: number;
  brokerInflightRefused: number;
  /** Offline persistent sessions dropped to make room under broker.maxPersistentSessions. */
  brokerSessionsEvicted: number;
  /** Open client connections of the embedded broker (the daemon uses it in process and holds none); 0 with an external broker. */
  brokerClients: number;
  /** Wall-clock steps seen (src/util/clockWatch.ts) and the system clock's NTP synchronisation. */
  clockSteps: number;
  clockSync: ClockWatchStats['clockSync'];
}

export interface StatsSources {
  pipeline: { stats(): PipelineStats };
  connection: PublisherRef;
  broker:
    | Pick<
        EmbeddedBroker,
        | 'rejectedPublishes'
        | 'refusedConnections'
        | 'retainedRefused'
        | 'retainDropped'
        | 'subscribeRefused'
        | 'slowClientsDropped'
        | 'inflight'
        | 'sessions'
        | 'retained'
        | 'openConnections'
      >
    | undefined;
  clock?: { stats(): ClockWatchStats } | undefined;
}

export function bridgeStats({ pipeline, connection, broker, clock }: StatsSources): MqttStats {
  const clockStats = clock?.stats();
  return {
    ...pipeline.stats(),
    connected: connection()?.connected ?? false,
    brokerRejectedPublishes: broker?.rejectedPublishes ?? 0,
    brokerRefusedConnections: broker?.refusedConnections ?? 0,
    brokerRetainedRefused: broker?.retainedRefused ?? 0,
    brokerRetainedMessages: broker?.retained.messages ?? 0,
    brokerRetainedBytes: broker?.retained.bytes ?? 0,
    brokerRetainDropped: broker?.retainDropped ?? 0,
    brokerSubscribeRefused: broker?.subscribeRefused ?? 0,
    brokerSlowClientsDropped: broker?.slowClientsDropped ?? 0,
    brokerInflightBytes: broker?.inflight.bytes ?? 0,
    brokerInflightRefused: broker?.inflight.refused ?? 0,
    brokerQueueDropped: broker?.sessions.queueDropped ?? 0,
    brokerSessionsEvicted: broker?.sessions.evicted ?? 0,
    brokerClients: broker?.openConnections ?? 0,
    clockSteps: clockStats?.clockSteps ?? 0,
    clockSync: clockStats?.clockSync ?? 'unknown',
  };
}

/** Publishes the stats (retained, QoS 0) with the software version and the time. */
export function publishBridgeStats(sources: StatsSources, version: string, nowMs: number): void {
  sources
    .connection()
    ?.publish(BRIDGE_STATS_TOPIC, JSON.stringify({ ...bridgeStats(sources), version, at: new Date(nowMs).toISOString() }), {
      retain: true,
      qos: 0,
    });
}
