/**
 * The Home Assistant entities of one station, as data: component, key and the
 * entity-specific part of the discovery config (discovery.ts adds ids, topics,
 * device and availability). Device classes, units and state classes follow HA's
 * sensor documentation (https://www.home-assistant.io/integrations/sensor/#device-class);
 * values are in the API's units the state's `input` carries (°C, %, km/h, mm/h, mm).
 */
import { CHECK_NAMES, STATE_DATA_QUALITIES, STATUSES, type CheckName } from '../core/index.js';

/**
 * `switch`, `button`, `event`, `number` and `select` carry their own command or state topics (the mower
 * control's, src/mower/mowerEntities.ts; the station's controls, src/station/controlEntities.ts).
 */
export type Component = 'sensor' | 'binary_sensor' | 'switch' | 'button' | 'event' | 'number' | 'select';

export interface EntitySpec {
  component: Component;
  key: string;
  config: Record<string, unknown>;
}

export const MAIN_STATUS_OPTIONS = [...STATUSES, 'NO_DATA'];
export const LIMITING_CHECK_OPTIONS = [...CHECK_NAMES, 'none'];
/** The Data quality enum's options: every value the state's `data_quality` can take (src/core/vocabulary.ts). */
export const DATA_QUALITY_OPTIONS: readonly string[] = STATE_DATA_QUALITIES;

const CHECK_LABELS: Record<CheckName, { name: string; icon: string }> = {
  temperature: { name: 'Temperature score', icon: 'mdi:thermometer' },
  soiltemp: { name: 'Soil score', icon: 'mdi:sprout' },
  rain: { name: 'Rain score', icon: 'mdi:weather-rainy' },
  wind: { name: 'Wind score', icon: 'mdi:weather-windy' },
  humidity: { name: 'Humidity score', icon: 'mdi:water-percent' },
};

/** Keys of the state that explain a result beyond its score: shown as attributes of the Status entity. */
export const STATUS_ATTRIBUTES = [
  'withheld_fields',
  'derived_fields',
  'history_coverage',
  'missing_fields',
  'data_quality',
  'error',
  'last_upload_refused',
] as const;

/** A state key, or `None` (HA: unknown) when the state lacks it. */
function optional(path: string): string {
  const parts = path.split('.');
  const guards = parts.map((_, i) => `value_json.${parts.slice(0, i + 1).join('.')} is defined`).join(' and ');
  return `value_json.${path} if ${guards} else None`;
}

function inputTemplate(field: string): string {
  return `{{ ${optional(`input.${field}`)} }}`;
}

const statusAttributesTemplate = `{{ { ${STATUS_ATTRIBUTES.map((key) => `'${key}': ${optional(key)}`).join(', ')} } | tojson }}`;

/** A current input as a measurement sensor. */
function input(key: string, field: string, name: string, deviceClass: string, unit: string, precision: number): EntitySpec {
  return {
    component: 'sensor',
    key,
    config: {
      name,
      device_class: deviceClass,
      unit_of_measurement: unit,
      state_class: 'measurement',
      value_template: inputTemplate(field),
      suggested_display_precision: precision,
    },
  };
}

function resultEntities(stateTopic: string): EntitySpec[] {
  return [
    {
      component: 'sensor',
      key: 'index',
      config: {
        name: 'Index',
        value_template: '{{ value_json.index_score }}',
        unit_of_measurement: '%',
        state_class: 'measurement',
        suggested_display_precision: 0,
        icon: 'mdi:mower',
      },
    },
    {
      component: 'sensor',
      key: 'status',
      config: {
        name: 'Status',
        device_class: 'enum',
        options: MAIN_STATUS_OPTIONS,
        value_template: "{{ value_json.main_status if value_json.main_status else 'NO_DATA' }}",
        icon: 'mdi:traffic-light',
        json_attributes_topic: stateTopic,
        json_attributes_template: statusAttributesTemplate,
      },
    },
    {
      component: 'binary_sensor',
      key: 'mowable',
      config: {
        name: 'Mowable now',
        value_template: "{{ 'ON' if value_json.mowable else 'OFF' }}",
        payload_on: 'ON',
        payload_off: 'OFF',
        icon: 'mdi:robot-mower',
      },
    },
    {
      component: 'sensor',
      key: 'limiting_check',
      config: {
        name: 'Limiting check',
        device_class: 'enum',
        options: LIMITING_CHECK_OPTIONS,
        value_template: `{{ (${optional('score_basis.limiting_check')}) or 'none' }}`,
        icon: 'mdi:alert-circle-outline',
      },
    },
    ...CHECK_NAMES.map((check): EntitySpec => ({
      component: 'sensor',
      key: `${check}_score`,
      config: {
        name: CHECK_LABELS[check].name,
        value_template: `{{ ${optional(`checks.${check}.score`)} }}`,
        unit_of_measurement: '%',
        state_class: 'measurement',
        suggested_display_precision: 0,
        icon: CHECK_LABELS[check].icon,
      },
    })),
  ];
}

function inputEntities(): EntitySpec[] {
  return [
    input('temperature', 'temperature', 'Temperature', 'temperature', '°C', 1),
    input('humidity', 'humidity', 'Humidity', 'humidity', '%', 0),
    input('wind_speed', 'wind_speed', 'Wind speed', 'wind_speed', 'km/h', 1),
    input('wind_gusts', 'wind_gusts', 'Wind gusts', 'wind_speed', 'km/h', 1),
    input('precipitation_rate', 'precipitation_rate', 'Precipitation rate', 'precipitation_intensity', 'mm/h', 1),
    input('rain_1h', 'rain_1h', 'Rain last hour', 'precipitation', 'mm', 1),
    input('rain_last_24h', 'rain_24h', 'Rain last 24 h', 'precipitation', 'mm', 1),
    {
      component: 'sensor',
      key: 'minutes_since_rain',
      config: {
        name: 'Time since rain',
        device_class: 'duration',
        unit_of_measurement: 'min',
        state_class: 'measurement',
        value_template: inputTemplate('minutes_since_rain'),
      },
    },
    input('min_temp_3h', 'min_temp_3h', 'Minimum temperature 3 h', 'temperature', '°C', 1),
  ];
}

function diagnosticEntities(): EntitySpec[] {
  return [
    {
      component: 'sensor',
      key: 'data_quality',
      config: {
        name: 'Data quality',
        device_class: 'enum',
        options: DATA_QUALITY_OPTIONS,
        value_template: `{{ ${optional('data_quality')} }}`,
        entity_category: 'diagnostic',
        icon: 'mdi:database-check-outline',
      },
    },
    {
      component: 'sensor',
      key: 'last_reading',
      config: {
        name: 'Last reading',
        device_class: 'timestamp',
        value_template: '{{ value_json.last_reading_at if value_json.last_reading_at else None }}',
        entity_category: 'diagnostic',
        enabled_by_default: false,
      },
    },
  ];
}

/** Every entity of a station, in a stable order (the last one is published last). */
export function stationEntities(stateTopic: string): EntitySpec[] {
  return [...resultEntities(stateTopic), ...inputEntities(), ...diagnosticEntities()];
}
