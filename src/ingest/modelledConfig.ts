/**
 * Validation of the settings of modelled stations (`format: "open-meteo"`: readings from
 * Open-Meteo for the station's `location`, src/modelled/) and of gap filling (`gapFill`: a real
 * station's unmeasured fields from Open-Meteo). Every message names the key.
 */
import { GAP_FILL_FIELDS, MODELLED_FORMAT, RAIN_SOURCES, type Reading, type StationConfig, type StationLocation } from './types.js';

type Problem = (key: string, message: string) => void;

/** Keys that describe how hardware sends readings: meaningless for a modelled station. */
const HARDWARE_KEYS = ['topic', 'match', 'units', 'fields', 'timestampKey', 'upload', 'gapFill'];
const GAP_FILL_KEYS = ['source', 'fields', 'rain'];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A modelled station needs its location and nothing about hardware. */
export function modelledProblems(raw: Record<string, unknown>, problem: Problem): void {
  if (raw.format !== MODELLED_FORMAT) return;
  if (raw.location === undefined)
    problem(
      'location',
      `is required for format "${MODELLED_FORMAT}": {"latitude": 52.52, "longitude": 13.40} (the place whose weather is modelled)`,
    );
  for (const key of HARDWARE_KEYS) {
    if (raw[key] !== undefined)
      problem(key, `is not used by format "${MODELLED_FORMAT}" (a modelled station has no hardware; its readings come from Open-Meteo)`);
  }
}

export function gapFillProblems(gapFill: unknown, location: unknown, problem: Problem): void {
  if (!isPlainObject(gapFill)) return problem('gapFill', 'must be an object {"source": "open-meteo"}');
  for (const key of Object.keys(gapFill))
    if (!GAP_FILL_KEYS.includes(key)) problem(`gapFill.${key}`, `is not allowed (only ${GAP_FILL_KEYS.join(', ')})`);
  if (gapFill.source !== MODELLED_FORMAT) problem('gapFill.source', `must be "${MODELLED_FORMAT}"`);
  if (location === undefined)
    problem('gapFill.source', `"${MODELLED_FORMAT}" needs the station's "location" {"latitude": ..., "longitude": ...}`);
  const fields = gapFill.fields;
  const allowed: readonly unknown[] = GAP_FILL_FIELDS;
  if (fields !== undefined && (!Array.isArray(fields) || fields.length === 0 || !fields.every((field) => allowed.includes(field)))) {
    problem('gapFill.fields', `must be a non-empty list of ${GAP_FILL_FIELDS.join(', ')}`);
  }
  const rain: unknown = gapFill.rain;
  if (rain !== undefined && !(RAIN_SOURCES as readonly unknown[]).includes(rain)) {
    problem(
      'gapFill.rain',
      `must be "gauge" (the station's rain gauge, the default) or "model" (the gauge is broken: Open-Meteo's rain replaces it)`,
    );
  }
}

/** The station's own rain is not used: its gauge is known broken and the model's rain replaces it (`gapFill.rain: "model"`). */
export function gaugeRainReplaced(station: StationConfig): boolean {
  return station.gapFill?.rain === 'model';
}

/** A reading without its rain: rate, lifetime counters and increments (what a broken gauge reports). */
export function withoutGaugeRain(reading: Reading): Reading {
  const { precipitation_rate: _rate, ...values } = reading.values;
  const { rainDeltaMm: _delta, ...rest } = reading;
  return { ...rest, values, rainCounters: [] };
}

/** The id of the station `MOWABILITY_LOCATION` adds. */
export const LOCATION_STATION_ID = 'home';

/** "52.52,13.41" or "52.52,13.41,38" (latitude, longitude, optional elevation in metres) → a location, or why not. */
export function parseLocationSetting(text: string): StationLocation | string {
  const parts = text.split(',').map((part) => part.trim());
  const numbers = parts.map(Number);
  if ((parts.length !== 2 && parts.length !== 3) || parts.some((part) => part === '') || numbers.some((value) => !Number.isFinite(value))) {
    return 'must be "latitude,longitude" or "latitude,longitude,elevation" in degrees (WGS 84) and metres, e.g. "52.52,13.41"';
  }
  const [latitude, longitude, elevation] = numbers as [number, number, number | undefined];
  if (latitude < -90 || latitude > 90) return `latitude ${latitude} must be from -90 to 90 degrees north`;
  if (longitude < -180 || longitude > 180) return `longitude ${longitude} must be from -180 to 180 degrees east`;
  if (elevation !== undefined && (elevation < -500 || elevation > 9000)) return `elevation ${elevation} must be from -500 to 9000 metres`;
  return { latitude, longitude, ...(elevation !== undefined ? { elevation } : {}) };
}

/** Convict format of the `location` setting: empty (off) or a location. */
export function validateLocationSetting(value: unknown): void {
  if (typeof value !== 'string') throw new Error('must be a string "latitude,longitude"');
  if (value.trim() === '') return;
  const parsed = parseLocationSetting(value);
  if (typeof parsed === 'string') throw new Error(parsed);
}

/** The configured stations plus, when `location` is set, the modelled station "home" at it. */
export function withLocationStation(stations: readonly StationConfig[], location: string): StationConfig[] {
  const parsed = location.trim() === '' ? undefined : parseLocationSetting(location);
  if (parsed === undefined || typeof parsed === 'string') return [...stations];
  return [...stations, { id: LOCATION_STATION_ID, name: 'Home (modelled)', format: MODELLED_FORMAT, topic: '', location: parsed }];
}
