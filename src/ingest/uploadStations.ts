/**
 * Stations that upload over HTTP (ecowitt-http, wunderground) need no MQTT
 * topic. The MQTT bridge subscribes to every station's topic, so a station
 * without one gets a relay topic at load: a body or query string published
 * there is read like an upload (for relays such as Node-RED), under the
 * broker's access rules. Nothing is published there by the daemon.
 */
import { isUploadFormat, MODELLED_FORMAT, type StationConfig } from './types.js';

/** First topic level of the relay topics; not under mqtt.baseTopic, where only the daemon publishes. */
export const UPLOAD_RELAY_PREFIX = 'mowability-upload';

export function uploadRelayTopic(stationId: string): string {
  return `${UPLOAD_RELAY_PREFIX}/${stationId}`;
}

/** First topic level of modelled stations' topics: subscribed like any station's, every message there is ignored. */
export const MODELLED_TOPIC_PREFIX = 'mowability-modelled';

/**
 * The stations with relay topics filled in, and modelled stations (format "open-meteo") with their
 * topic (their forecast defaults to Open-Meteo's: src/forecast/forecastModule.ts); other stations unchanged.
 */
export function withUploadTopics(stations: readonly StationConfig[]): StationConfig[] {
  return stations.map((station) => {
    if (station.format === MODELLED_FORMAT) return { ...station, topic: `${MODELLED_TOPIC_PREFIX}/${station.id}` };
    return isUploadFormat(station.format) && (station.topic === undefined || station.topic === '')
      ? { ...station, topic: uploadRelayTopic(station.id) }
      : station;
  });
}

/** Lowercase hex SHA-256, as `mowability upload-secret` prints it. */
export const SHA256_HEX = /^[0-9a-f]{64}$/;
