/**
 * The Home Assistant controls of a station as discovery entities (HA's number.mqtt and select.mqtt,
 * https://www.home-assistant.io/integrations/number.mqtt/, https://www.home-assistant.io/integrations/select.mqtt/):
 * numbers for the `mowable` thresholds and on-delay, a select for the lawn's mower class. Each reads
 * its value from the station's state (`controls.<key>.value`), so a refused command leaves the shown
 * value where it was; its attributes name the configured value, where the value comes from and the
 * last refusal's reason.
 */
import { MOWER_CLASSES } from '../core/index.js';
import { controlSetPath, CONTROL_TOPIC_LEVEL, type ControlSetting } from '../config/mqttValues.js';
import type { EntitySpec } from '../homeassistant/stationEntities.js';
import { MAX_ON_DELAY_MINUTES } from './controlValues.js';

/** The state key of the controls (StationStateFields `controls`). */
export const CONTROLS_STATE_KEY = 'controls';

/** `<base>/<station>/control/refused`: one JSON event per refused command (not retained). */
export function controlRefusedTopic(baseTopic: string, stationId: string): string {
  return `${baseTopic}/${stationId}/${CONTROL_TOPIC_LEVEL}/refused`;
}

export function controlCommandTopic(baseTopic: string, stationId: string, key: ControlSetting): string {
  return `${baseTopic}/${stationId}/${controlSetPath(key)}`;
}

const has = (key: ControlSetting) => `value_json.${CONTROLS_STATE_KEY} is defined and value_json.${CONTROLS_STATE_KEY}.${key} is defined`;

function common(baseTopic: string, stationId: string, key: ControlSetting): Record<string, unknown> {
  return {
    command_topic: controlCommandTopic(baseTopic, stationId, key),
    entity_category: 'config',
    value_template: `{{ value_json.${CONTROLS_STATE_KEY}.${key}.value if ${has(key)} else None }}`,
    json_attributes_topic: `${baseTopic}/${stationId}/state`,
    json_attributes_template: `{{ (value_json.${CONTROLS_STATE_KEY}.${key} if ${has(key)} else {}) | tojson }}`,
  };
}

function threshold(baseTopic: string, stationId: string, key: ControlSetting, name: string, icon: string): EntitySpec {
  return {
    component: 'number',
    key,
    config: { name, icon, min: 0, max: 100, step: 1, mode: 'box', unit_of_measurement: '%', ...common(baseTopic, stationId, key) },
  };
}

export function controlEntities(baseTopic: string, stationId: string): EntitySpec[] {
  return [
    threshold(baseTopic, stationId, 'mowable_on_threshold', 'Mowable on-threshold', 'mdi:arrow-collapse-up'),
    threshold(baseTopic, stationId, 'mowable_off_threshold', 'Mowable off-threshold', 'mdi:arrow-collapse-down'),
    {
      component: 'number',
      key: 'mowable_on_delay_minutes',
      config: {
        name: 'Mowable on-delay',
        icon: 'mdi:timer-sand',
        device_class: 'duration',
        unit_of_measurement: 'min',
        min: 0,
        max: MAX_ON_DELAY_MINUTES,
        step: 1,
        mode: 'box',
        ...common(baseTopic, stationId, 'mowable_on_delay_minutes'),
      },
    },
    {
      component: 'select',
      key: 'mower_class',
      config: { name: 'Mower class', icon: 'mdi:mower', options: [...MOWER_CLASSES], ...common(baseTopic, stationId, 'mower_class') },
    },
  ];
}
