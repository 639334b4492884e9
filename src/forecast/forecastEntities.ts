/**
 * The Home Assistant entities of a station's forecast. They read the `forecast`
 * object of the station's state topic. Device classes and units follow HA's
 * sensor documentation (https://developers.home-assistant.io/docs/core/entity/sensor/):
 * `timestamp` takes an ISO 8601 time with offset and no unit, `duration` takes min.
 */
import type { EntitySpec } from '../homeassistant/stationEntities.js';
import type { ForecastSourceKind } from '../store/forecastStore.js';

export const FORECAST_SOURCE_OPTIONS: readonly ForecastSourceKind[] = ['open-meteo', 'mqtt'];

/** `value_json.forecast.<path>`, or None (HA: unknown) when the state has no forecast or the value is null. */
function forecastValue(path: string): string {
  const parts = path.split('.');
  const guards = parts.map((_, i) => `value_json.forecast.${parts.slice(0, i + 1).join('.')} is not none`).join(' and ');
  return `{{ value_json.forecast.${path} if value_json.forecast is defined and ${guards} else None }}`;
}

function timestamp(key: string, name: string, path: string, icon: string, extra: Record<string, unknown> = {}): EntitySpec {
  return { component: 'sensor', key, config: { name, device_class: 'timestamp', value_template: forecastValue(path), icon, ...extra } };
}

function minutes(key: string, name: string, path: string, icon: string): EntitySpec {
  return {
    component: 'sensor',
    key,
    config: {
      name,
      device_class: 'duration',
      unit_of_measurement: 'min',
      state_class: 'measurement',
      value_template: forecastValue(path),
      icon,
    },
  };
}

export function forecastEntities(): EntitySpec[] {
  return [
    timestamp('next_window_start', 'Next mowing window start', 'next_window.start', 'mdi:calendar-start'),
    timestamp('next_window_end', 'Next mowing window end', 'next_window.end', 'mdi:calendar-end'),
    minutes('mowable_for', 'Mowable for', 'mowable_for_minutes', 'mdi:timer-sand'),
    minutes('rain_expected_in', 'Rain expected in', 'rain_expected_in_minutes', 'mdi:weather-pouring'),
    {
      component: 'sensor',
      key: 'forecast_source',
      config: {
        name: 'Forecast source',
        device_class: 'enum',
        options: FORECAST_SOURCE_OPTIONS,
        value_template: forecastValue('source'),
        entity_category: 'diagnostic',
        icon: 'mdi:weather-partly-cloudy',
      },
    },
    timestamp('forecast_updated', 'Forecast updated', 'fetched_at', 'mdi:update', { entity_category: 'diagnostic' }),
    {
      component: 'binary_sensor',
      key: 'forecast_stale',
      config: {
        name: 'Forecast stale',
        device_class: 'problem',
        value_template: "{{ 'ON' if value_json.forecast is not defined or value_json.forecast.stale else 'OFF' }}",
        payload_on: 'ON',
        payload_off: 'OFF',
        entity_category: 'diagnostic',
      },
    },
  ];
}
