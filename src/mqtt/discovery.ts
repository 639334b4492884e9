/**
 * Home Assistant MQTT discovery configs, one device per station. Pure: the
 * service publishes them retained (qos 1) on every connect and when HA
 * announces itself on its status topic. Units follow HA's per-device-class
 * lists (mqtt-ha.md §4).
 */
import { safeId } from './topics.js';

export interface DiscoveryInput {
  prefix: string;
  baseTopic: string;
  softwareVersion: string;
  stationId: string;
  stationName: string;
}

export interface DiscoveryMessage {
  topic: string;
  payload: Record<string, unknown>;
}

const CHECKS = ['temperature', 'soiltemp', 'rain', 'wind', 'humidity'] as const;
export const MAIN_STATUS_OPTIONS = ['OK', 'WARNING', 'BLOCK', 'NO_DATA'];
export const LIMITING_CHECK_OPTIONS = [...CHECKS, 'none'];

function inputTemplate(field: string): string {
  return `{{ value_json.input.${field} if value_json.input is defined and value_json.input.${field} is defined else None }}`;
}

/** How every unique id of this daemon's entities begins (`<base>_<station>_<key>`). */
export function discoveryUniqueIdPrefix(baseTopic: string): string {
  return `${safeId(baseTopic)}_`;
}

/** How every device identifier of this daemon begins (`mowability_<base>_<station>`). */
export function discoveryDeviceIdPrefix(baseTopic: string): string {
  return `mowability_${discoveryUniqueIdPrefix(baseTopic)}`;
}

/** Every discovery message of one station, in a stable order. */
export function discoveryMessages(input: DiscoveryInput): DiscoveryMessage[] {
  const base = input.baseTopic;
  const station = input.stationId;
  const stateTopic = `${base}/${station}/state`;
  const idPrefix = `${discoveryUniqueIdPrefix(base)}${station}`;
  const device = {
    identifiers: [`${discoveryDeviceIdPrefix(base)}${station}`],
    name: `Mowability ${input.stationName}`,
    manufacturer: 'mowability',
    model: 'Mowability Index',
    sw_version: input.softwareVersion,
  };
  const common = {
    state_topic: stateTopic,
    availability: [{ topic: `${base}/bridge/state` }, { topic: `${base}/${station}/availability` }],
    availability_mode: 'all',
    device,
    origin: { name: 'mowability', sw_version: input.softwareVersion },
  };
  const entity = (component: 'sensor' | 'binary_sensor', key: string, config: Record<string, unknown>): DiscoveryMessage => {
    const uniqueId = `${idPrefix}_${key}`;
    return {
      topic: `${input.prefix}/${component}/${uniqueId}/config`,
      payload: {
        ...config,
        unique_id: uniqueId,
        object_id: `mowability_${station}_${key}`,
        default_entity_id: `${component}.mowability_${station}_${key}`,
        ...common,
      },
    };
  };

  return [
    entity('sensor', 'index', {
      name: 'Index',
      value_template: '{{ value_json.index_score }}',
      unit_of_measurement: '%',
      state_class: 'measurement',
      suggested_display_precision: 0,
      icon: 'mdi:mower',
    }),
    entity('sensor', 'status', {
      name: 'Status',
      device_class: 'enum',
      options: MAIN_STATUS_OPTIONS,
      value_template: "{{ value_json.main_status if value_json.main_status else 'NO_DATA' }}",
      icon: 'mdi:traffic-light',
    }),
    entity('binary_sensor', 'mowable', {
      name: 'Mowable now',
      value_template: "{{ 'ON' if value_json.mowable else 'OFF' }}",
      payload_on: 'ON',
      payload_off: 'OFF',
      icon: 'mdi:robot-mower',
    }),
    entity('sensor', 'limiting_check', {
      name: 'Limiting check',
      device_class: 'enum',
      options: LIMITING_CHECK_OPTIONS,
      value_template:
        "{{ value_json.score_basis.limiting_check if value_json.score_basis is defined and value_json.score_basis.limiting_check else 'none' }}",
      icon: 'mdi:alert-circle-outline',
    }),
    ...CHECKS.map((check) =>
      entity('sensor', `${check}_score`, {
        name: `${check === 'soiltemp' ? 'Soil' : check[0]!.toUpperCase() + check.slice(1)} score`,
        value_template: `{{ value_json.checks.${check}.score if value_json.checks is defined and value_json.checks.${check} is defined else None }}`,
        unit_of_measurement: '%',
        state_class: 'measurement',
        suggested_display_precision: 0,
      }),
    ),
    entity('sensor', 'rain_last_24h', {
      name: 'Rain last 24 h',
      device_class: 'precipitation',
      unit_of_measurement: 'mm',
      state_class: 'measurement',
      value_template: inputTemplate('rain_24h'),
      suggested_display_precision: 1,
    }),
    entity('sensor', 'minutes_since_rain', {
      name: 'Time since rain',
      device_class: 'duration',
      unit_of_measurement: 'min',
      state_class: 'measurement',
      value_template: inputTemplate('minutes_since_rain'),
    }),
    entity('sensor', 'min_temp_3h', {
      name: 'Minimum temperature 3 h',
      device_class: 'temperature',
      unit_of_measurement: '°C',
      state_class: 'measurement',
      value_template: inputTemplate('min_temp_3h'),
      suggested_display_precision: 1,
    }),
    entity('sensor', 'last_reading', {
      name: 'Last reading',
      device_class: 'timestamp',
      value_template: '{{ value_json.last_reading_at if value_json.last_reading_at else None }}',
      entity_category: 'diagnostic',
      enabled_by_default: false,
    }),
  ];
}

/** True for a retained discovery config published by a daemon with this base topic. */
export function isOurDiscoveryConfig(payload: string, baseTopic: string): boolean {
  try {
    const config = JSON.parse(payload) as { origin?: { name?: unknown }; availability?: Array<{ topic?: unknown }> };
    return config.origin?.name === 'mowability' && Array.isArray(config.availability) && config.availability[0]?.topic === `${baseTopic}/bridge/state`;
  } catch {
    return false;
  }
}

/**
 * Topic filters of our discovery configs for these stations: `<prefix>/+/<object id>/#` for every
 * object id `discoveryMessages` uses (the level after the component), so the embedded broker can
 * keep other clients off them. Derived from the messages themselves, so the two never drift apart.
 */
export function discoveryTopicFilters(prefix: string, baseTopic: string, stations: ReadonlyArray<{ id: string; name: string }>): string[] {
  const filters = new Set<string>();
  for (const station of stations) {
    for (const message of discoveryMessages({ prefix, baseTopic, softwareVersion: '', stationId: station.id, stationName: station.name })) {
      const objectId = message.topic.slice(prefix.length + 1).split('/')[1];
      filters.add(`${prefix}/+/${objectId}/#`);
    }
  }
  return [...filters];
}
