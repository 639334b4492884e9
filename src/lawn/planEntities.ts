/**
 * The week plan's Home Assistant entities, per lawn (MQTT discovery; device classes, units and state
 * classes per https://www.home-assistant.io/integrations/sensor/#device-class): the next planned start
 * and end (timestamps: unavailable while none is planned, src/homeassistant/timestampSensors.ts), the
 * runtime the lawn needs this week and the minutes planned (durations in min), the mowing debt in mm and
 * hours, the grass height estimate (mm), and the plan status (an enum with the reason in English and
 * German as attributes). They read the station's state (`plan`); the station's first lawn keeps the
 * plain keys on the station's device (`mowability_<station>_next_planned_start`), a further lawn's keys
 * start with its id (`mowability_<station>_<lawn>_next_planned_start`).
 */
import type { PlanStatus } from '../core/plan/types.js';
import type { EntitySpec } from '../homeassistant/stationEntities.js';
import type { StationLawn } from './lawnsConfig.js';

export const PLAN_STATUS_OPTIONS: readonly PlanStatus[] = ['on_track', 'behind', 'cannot_keep_up'];

/** The entity key prefix of a lawn: none for the station's first lawn, `<id>_` (with `_` for `-`) for a further one. */
export function lawnKeyPrefix(lawn: Pick<StationLawn, 'id' | 'primary'>): string {
  return lawn.primary ? '' : `${lawn.id.replaceAll('-', '_')}_`;
}

/** The entity names of a further lawn start with its name, so two lawns' sensors on one device are told apart. */
function named(lawn: Pick<StationLawn, 'name' | 'primary'>, name: string): string {
  return lawn.primary ? name : `${lawn.name} ${name.charAt(0).toLowerCase()}${name.slice(1)}`;
}

export function planEntities(stateTopic: string, lawn: Pick<StationLawn, 'id' | 'name' | 'primary'>): EntitySpec[] {
  const prefix = lawnKeyPrefix(lawn);
  const plan = `value_json.plan.lawns['${lawn.id}']`;
  const next = `value_json.plan.next['${lawn.id}']`;
  const hasPlan = `value_json.plan is defined and ${plan} is defined`;
  const hasNext = `value_json.plan is defined and ${next} is defined and ${next} is not none`;
  const value = (path: string, round?: number) =>
    `{{ ${round === undefined ? `${plan}.${path}` : `(${plan}.${path}) | round(${round})`} if ${hasPlan} else None }}`;
  const sensor = (key: string, config: Record<string, unknown>): EntitySpec => ({
    component: 'sensor',
    key: `${prefix}${key}`,
    config: { ...config, name: named(lawn, config.name as string) },
  });
  return [
    sensor('next_planned_start', {
      name: 'Next planned start',
      device_class: 'timestamp',
      icon: 'mdi:calendar-start',
      value_template: `{{ ${next}.start if ${hasNext} else None }}`,
    }),
    sensor('next_planned_end', {
      name: 'Next planned end',
      device_class: 'timestamp',
      icon: 'mdi:calendar-end',
      value_template: `{{ ${next}.end if ${hasNext} else None }}`,
    }),
    sensor('runtime_needed_week', {
      name: 'Runtime needed this week',
      device_class: 'duration',
      unit_of_measurement: 'min',
      state_class: 'measurement',
      suggested_display_precision: 0,
      icon: 'mdi:timer-sand',
      value_template: value('need.runtimeNeededMinutesThisWeek'),
    }),
    sensor('runtime_planned_week', {
      name: 'Runtime planned this week',
      device_class: 'duration',
      unit_of_measurement: 'min',
      state_class: 'measurement',
      suggested_display_precision: 0,
      icon: 'mdi:calendar-clock',
      value_template: value('plannedMinutesThisWeek'),
    }),
    sensor('mowing_debt', {
      name: 'Mowing debt',
      unit_of_measurement: 'mm',
      state_class: 'measurement',
      suggested_display_precision: 1,
      icon: 'mdi:grass',
      value_template: value('debt.mm'),
    }),
    sensor('mowing_debt_hours', {
      name: 'Mowing debt runtime',
      device_class: 'duration',
      unit_of_measurement: 'h',
      state_class: 'measurement',
      suggested_display_precision: 1,
      icon: 'mdi:timer-alert-outline',
      value_template: `{{ ((${plan}.debt.runtimeMinutes) / 60) | round(2) if ${hasPlan} else None }}`,
    }),
    sensor('grass_height', {
      name: 'Grass height estimate',
      unit_of_measurement: 'mm',
      state_class: 'measurement',
      suggested_display_precision: 0,
      icon: 'mdi:ruler',
      value_template: value('need.heightMm'),
    }),
    sensor('plan_status', {
      name: 'Plan status',
      device_class: 'enum',
      options: [...PLAN_STATUS_OPTIONS],
      icon: 'mdi:calendar-check',
      value_template: value('status'),
      json_attributes_topic: stateTopic,
      json_attributes_template: `{{ {'reason': ${plan}.statusReason.en, 'reason_de': ${plan}.statusReason.de} | tojson if ${hasPlan} else '{}' }}`,
    }),
  ];
}
