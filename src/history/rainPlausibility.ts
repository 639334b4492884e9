/**
 * Physical plausibility of rain amounts in the history. A flapping or
 * corrupted counter can add rain far beyond anything that falls from the sky;
 * left alone it pushes a window past the field's valid range, the core then treats
 * the window as missing, and absurd rain would make the index *better* than a
 * real storm. So one-minute buckets are capped at the world-record one-minute
 * rainfall, and a rain window (or the rate derived from the buckets) is never
 * supplied above the field's maximum: it is clamped at the maximum, which still
 * blocks mowing.
 */
import { FIELD_SPECS, type FieldName } from '../core/fields.js';
import { MINUTE_MS } from './windows.js';

/**
 * The greatest one-minute rainfall on record: 31.2 mm (1.23 in) at Unionville,
 * Maryland, USA, on 4 July 1956. Source: WMO World Weather & Climate Extremes
 * Archive, "World: Greatest One-Minute Rainfall"
 * (https://wmo.asu.edu/content/world-greatest-one-minute-rainfall), after
 * H. H. Engelbrecht and G. N. Brancato (1959), "World Record One-Minute
 * Rainfall at Unionville, Maryland", Monthly Weather Review 87(8), 303-306.
 */
export const MAX_RAIN_PER_MINUTE_MM = 31.2;

export type RainAnomaly =
  { kind: 'minute-capped'; minute: number; excessMm: number } | { kind: 'window-clamped'; field: FieldName; value: number; max: number };

/** Anomalies kept until the caller takes them; more in between are dropped (they repeat). */
export const MAX_PENDING_ANOMALIES = 100;

/** A bucket's new total after adding `addMm`, at most MAX_RAIN_PER_MINUTE_MM, and what was cut off. */
export function addToMinute(currentMm: number, addMm: number): { totalMm: number; excessMm: number } {
  const wanted = currentMm + addMm;
  const totalMm = Math.min(wanted, Math.max(currentMm, MAX_RAIN_PER_MINUTE_MM));
  return { totalMm, excessMm: wanted - totalMm };
}

const MAX_BY_FIELD = new Map<FieldName, number>(FIELD_SPECS.map((spec) => [spec.name, spec.max]));

/** A history-derived amount, at most the valid maximum of `field` (a value above it would count as missing). */
export function clampToSpecMax(field: FieldName, value: number): { value: number; clamped: boolean } {
  const max = MAX_BY_FIELD.get(field) ?? Number.POSITIVE_INFINITY;
  return value > max ? { value: max, clamped: true } : { value, clamped: false };
}

/** A log line's details for an anomaly (numbers rounded for reading). */
export function describeAnomaly(anomaly: RainAnomaly): { message: string; details: Record<string, unknown> } {
  if (anomaly.kind === 'minute-capped') {
    return {
      message: `rain in one minute above the world record (${MAX_RAIN_PER_MINUTE_MM} mm) was capped; check the station's rain counter`,
      details: { minute: new Date(anomaly.minute * MINUTE_MS).toISOString(), excessMm: Math.round(anomaly.excessMm * 10) / 10 },
    };
  }
  return {
    message: `${anomaly.field} above its valid maximum (${anomaly.max}) was clamped to it; check the station's rain counter`,
    details: { field: anomaly.field, value: Math.round(anomaly.value * 10) / 10, max: anomaly.max },
  };
}
