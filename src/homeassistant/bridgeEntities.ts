/**
 * The bridge device: the daemon itself, like Zigbee2MQTT's "Zigbee2MQTT Bridge" device. Its
 * entities read `<base>/bridge/state` (online/offline, our Last Will) and the counters of
 * `<base>/bridge/stats`; all are diagnostic. Station devices point at it with `via_device`.
 */
import type { EntitySpec } from './stationEntities.js';

/** Our bridge's topics, relative to mqtt.baseTopic: online/offline (also the Last Will) and the counters. */
export const BRIDGE_STATE_TOPIC = 'bridge/state';
export const BRIDGE_STATS_TOPIC = 'bridge/stats';

/** Counters of `<base>/bridge/stats` shown as entities: stats key → name, icon. Counters restart at 0 with the daemon (HA's total_increasing handles that). */
const COUNTERS: ReadonlyArray<{ key: string; stat: string; name: string; icon: string }> = [
  { key: 'readings_accepted', stat: 'accepted', name: 'Readings accepted', icon: 'mdi:check-circle-outline' },
  { key: 'readings_rejected', stat: 'rejected', name: 'Readings rejected', icon: 'mdi:close-circle-outline' },
  { key: 'duplicate_readings', stat: 'duplicates', name: 'Duplicate readings', icon: 'mdi:content-duplicate' },
  { key: 'states_published', stat: 'statesPublished', name: 'States published', icon: 'mdi:publish' },
];

function statTemplate(stat: string): string {
  return `{{ value_json.${stat} if value_json.${stat} is defined else None }}`;
}

/** Entities of the bridge device. `connection_state` must stay readable while offline, so it has no availability. */
export function bridgeEntities(baseTopic: string): Array<EntitySpec & { alwaysAvailable?: boolean }> {
  const statsTopic = `${baseTopic}/${BRIDGE_STATS_TOPIC}`;
  return [
    {
      component: 'binary_sensor',
      key: 'connection_state',
      alwaysAvailable: true,
      config: {
        name: 'Connection state',
        device_class: 'connectivity',
        state_topic: `${baseTopic}/${BRIDGE_STATE_TOPIC}`,
        payload_on: 'online',
        payload_off: 'offline',
        entity_category: 'diagnostic',
      },
    },
    {
      component: 'sensor',
      key: 'version',
      config: {
        name: 'Version',
        state_topic: statsTopic,
        value_template: statTemplate('version'),
        entity_category: 'diagnostic',
        icon: 'mdi:information-outline',
      },
    },
    ...COUNTERS.map(({ key, stat, name, icon }): EntitySpec => ({
      component: 'sensor',
      key,
      config: {
        name,
        state_topic: statsTopic,
        value_template: statTemplate(stat),
        state_class: 'total_increasing',
        entity_category: 'diagnostic',
        icon,
      },
    })),
  ];
}
