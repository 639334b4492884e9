/**
 * The mower control's Home Assistant entities (MQTT discovery: switch, button, sensor, event; HA's
 * https://www.home-assistant.io/integrations/switch.mqtt/, button.mqtt/, sensor.mqtt/, event.mqtt/):
 * the switch "Automatic mowing" (state from the station's state, commands on its own topic; the daemon
 * publishes the retained state too), the buttons "Mow now" and "Dock now", the sensor "Mower activity"
 * with the last decision's reason (German in an attribute) and an event entity with every decision.
 * Their command topics lie under `<base>/<station>/mower/`, which only the daemon's own side and the
 * account `homeassistant.commandAccount` names may publish to (src/mqtt/clientTopics.ts, docs/mqtt.md).
 */
import { MOWER_COMMANDS, MOWER_TOPIC_LEVEL } from '../config/mqttValues.js';
import type { EntitySpec } from '../homeassistant/stationEntities.js';

export interface MowerTopics {
  automatic: string;
  automaticSet: string;
  mowNow: string;
  dockNow: string;
  event: string;
}

/** The command topics are the broker's list (src/config/mqttValues.ts), so ownership and entities never drift apart. */
export function mowerTopics(baseTopic: string, stationId: string): MowerTopics {
  const station = `${baseTopic}/${stationId}`;
  return {
    automatic: `${station}/${MOWER_TOPIC_LEVEL}/automatic`,
    automaticSet: `${station}/${MOWER_COMMANDS.automaticSet}`,
    mowNow: `${station}/${MOWER_COMMANDS.mowNow}`,
    dockNow: `${station}/${MOWER_COMMANDS.dockNow}`,
    event: `${station}/${MOWER_TOPIC_LEVEL}/event`,
  };
}

export const MOWER_EVENT_TYPES = [
  'decision',
  'would_start',
  'would_dock',
  'command',
  'confirmed',
  'retry',
  'alert',
  'run_started',
  'run_ended',
] as const;

const has = (key: string) => `value_json.mower_control is defined and value_json.mower_control.${key} is not none`;

export function mowerControlEntities(baseTopic: string, stationId: string): EntitySpec[] {
  const topics = mowerTopics(baseTopic, stationId);
  return [
    {
      component: 'switch',
      key: 'automatic_mowing',
      config: {
        name: 'Automatic mowing',
        icon: 'mdi:robot-mower',
        command_topic: topics.automaticSet,
        payload_on: 'ON',
        payload_off: 'OFF',
        state_on: 'ON',
        state_off: 'OFF',
        value_template: `{{ ('ON' if value_json.mower_control.automatic else 'OFF') if value_json.mower_control is defined else None }}`,
      },
    },
    {
      component: 'button',
      key: 'mow_now',
      config: { name: 'Mow now', icon: 'mdi:play', command_topic: topics.mowNow, payload_press: 'PRESS', state_topic: null },
    },
    {
      component: 'button',
      key: 'dock_now',
      config: {
        name: 'Dock now',
        icon: 'mdi:home-import-outline',
        command_topic: topics.dockNow,
        payload_press: 'PRESS',
        state_topic: null,
      },
    },
    {
      component: 'sensor',
      key: 'mower_activity',
      config: {
        name: 'Mower activity',
        icon: 'mdi:robot-mower-outline',
        value_template: `{{ value_json.mower_control.decision.reason if ${has('decision')} else None }}`,
        json_attributes_topic: `${baseTopic}/${stationId}/state`,
        json_attributes_template: `{{ value_json.mower_control | tojson if value_json.mower_control is defined else '{}' }}`,
      },
    },
    {
      component: 'event',
      key: 'mower_event',
      config: { name: 'Mower event', icon: 'mdi:bell-ring-outline', state_topic: topics.event, event_types: [...MOWER_EVENT_TYPES] },
    },
  ];
}
