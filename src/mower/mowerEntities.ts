/**
 * The mower control's Home Assistant entities (MQTT discovery: switch, button, sensor, event; HA's
 * https://www.home-assistant.io/integrations/switch.mqtt/, button.mqtt/, sensor.mqtt/, event.mqtt/):
 * the switch "Automatic mowing" (state from the station's state, commands on its own topic; the daemon
 * publishes the retained state too), the buttons "Mow now" and "Dock now", the sensor "Mower activity"
 * with the last decision's reason (German in an attribute) and an event entity with every decision.
 * Their command topics lie under `<base>/<station>/mower/`, which only the daemon's own side and the
 * account `homeassistant.commandAccount` names may publish to (src/mqtt/clientTopics.ts, docs/mqtt.md).
 * A further lawn's own mower: the same entities on the station's device, keys prefixed `<lawn>_` (with
 * `_` for `-`), names starting with the lawn's name, topics under `<base>/<lawn>/mower/`, the state
 * read from the station's `mower_control_lawns[<lawn>]`.
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

/**
 * The command topics are the broker's list (src/config/mqttValues.ts), so ownership and entities never drift apart.
 * `id`: the station's id for its first lawn's mower, a further lawn's id for that lawn's own.
 */
export function mowerTopics(baseTopic: string, id: string): MowerTopics {
  const station = `${baseTopic}/${id}`;
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

/** A further lawn of the station (its own mower), or undefined for the station's first lawn. */
export interface FurtherLawn {
  id: string;
  name: string;
}

/** Where a lawn's mower status lies in the station's state, and a Jinja test that it is there. */
function statusPath(lawn: FurtherLawn | undefined): { path: string; defined: string } {
  if (!lawn) return { path: 'value_json.mower_control', defined: 'value_json.mower_control is defined' };
  const path = `value_json.mower_control_lawns['${lawn.id}']`;
  return { path, defined: `value_json.mower_control_lawns is defined and ${path} is defined` };
}

export function mowerControlEntities(baseTopic: string, stationId: string, lawn?: FurtherLawn): EntitySpec[] {
  const topics = mowerTopics(baseTopic, lawn?.id ?? stationId);
  const { path, defined } = statusPath(lawn);
  const has = (key: string) => `${defined} and ${path}.${key} is not none`;
  const prefix = lawn ? `${lawn.id.replaceAll('-', '_')}_` : '';
  const named = (name: string) => (lawn ? `${lawn.name} ${name.charAt(0).toLowerCase()}${name.slice(1)}` : name);
  const entities: EntitySpec[] = [
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
        value_template: `{{ ('ON' if ${path}.automatic else 'OFF') if ${defined} else None }}`,
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
        value_template: `{{ ${path}.decision.reason if ${has('decision')} else None }}`,
        json_attributes_topic: `${baseTopic}/${stationId}/state`,
        json_attributes_template: `{{ ${path} | tojson if ${defined} else '{}' }}`,
      },
    },
    {
      component: 'event',
      key: 'mower_event',
      config: { name: 'Mower event', icon: 'mdi:bell-ring-outline', state_topic: topics.event, event_types: [...MOWER_EVENT_TYPES] },
    },
  ];
  return entities.map((entity) => ({
    ...entity,
    key: `${prefix}${entity.key}`,
    config: { ...entity.config, name: named(entity.config.name as string) },
  }));
}
