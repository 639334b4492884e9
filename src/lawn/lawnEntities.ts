/**
 * The lawn memory's Home Assistant entities (device classes per HA's sensor and binary-sensor docs:
 * https://www.home-assistant.io/integrations/sensor/#device-class,
 * https://www.home-assistant.io/integrations/binary_sensor/#device-class). They read the station's
 * state topic; a state without `lawn` gives HA "unknown".
 */
import { MOWED_NOW_COMMAND } from '../config/mqttValues.js';
import type { EntitySpec } from '../homeassistant/stationEntities.js';

/** The cut source of the button "Mowed now" (the state's `lawn.last_cut_source`). */
export const MOWED_NOW_SOURCE = 'home-assistant';

/**
 * The button "Mowed now" (HA's button.mqtt, https://www.home-assistant.io/integrations/button.mqtt/): a press
 * records a cut now, as `mowability mowed` and the `mowed` topic do. Its command topic is one only the daemon
 * and Home Assistant's account may publish to (src/mqtt/clientTopics.ts).
 */
export function mowedNowButton(baseTopic: string, stationId: string): EntitySpec {
  return {
    component: 'button',
    key: 'mowed_now',
    config: {
      name: 'Mowed now',
      icon: 'mdi:content-cut',
      command_topic: `${baseTopic}/${stationId}/${MOWED_NOW_COMMAND}`,
      payload_press: 'PRESS',
      state_topic: null,
    },
  };
}

const has = (key: string) => `value_json.lawn is defined and value_json.lawn.${key} is not none`;

export function lawnEntities(): EntitySpec[] {
  return [
    {
      component: 'sensor',
      key: 'mow_need',
      config: {
        name: 'Mow need',
        unit_of_measurement: '%',
        state_class: 'measurement',
        suggested_display_precision: 0,
        icon: 'mdi:grass',
        value_template: `{{ value_json.lawn.mow_need if ${has('mow_need')} else None }}`,
      },
    },
    {
      component: 'sensor',
      key: 'last_cut',
      config: {
        name: 'Last cut',
        device_class: 'timestamp',
        icon: 'mdi:content-cut',
        value_template: `{{ value_json.lawn.last_cut_at if ${has('last_cut_at')} else None }}`,
      },
    },
    {
      component: 'binary_sensor',
      key: 'blades_wet',
      config: {
        name: 'Blades wet',
        device_class: 'moisture',
        payload_on: 'ON',
        payload_off: 'OFF',
        value_template: `{{ ('ON' if value_json.lawn.blades_wet else 'OFF') if ${has('blades_wet')} else None }}`,
      },
    },
    {
      component: 'binary_sensor',
      key: 'drought',
      config: {
        name: 'Drought',
        device_class: 'problem',
        payload_on: 'ON',
        payload_off: 'OFF',
        value_template: `{{ ('ON' if value_json.lawn.drought else 'OFF') if ${has('drought')} else None }}`,
      },
    },
  ];
}
