/**
 * Unit conversion into the API's units (src/core/fields.ts) (°C, mm, mm/h, km/h, %, W/m2). Unit
 * names are the spellings stations use (rtl_433 suffixes, WeeWX labels, HA
 * units), normalised by `canonicalUnit`.
 */
import { toFiniteNumber } from '../core/parse.js';

export type Quantity = 'temperature' | 'depth' | 'rate' | 'speed' | 'percent' | 'irradiance';

type Converter = (value: number) => number;

const CONVERTERS: Record<Quantity, Record<string, Converter>> = {
  temperature: {
    C: (v) => v,
    F: (v) => ((v - 32) * 5) / 9,
    K: (v) => v - 273.15,
  },
  depth: {
    mm: (v) => v,
    cm: (v) => v * 10,
    in: (v) => v * 25.4,
  },
  rate: {
    'mm/h': (v) => v,
    'cm/h': (v) => v * 10,
    'in/h': (v) => v * 25.4,
  },
  speed: {
    'km/h': (v) => v,
    'm/s': (v) => v * 3.6,
    mph: (v) => v * 1.609344,
    kn: (v) => v * 1.852,
    'ft/s': (v) => v * 1.09728,
  },
  percent: { '%': (v) => v },
  irradiance: {
    'W/m2': (v) => v,
    // Daylight approximation used by Ecowitt gateways (1 W/m2 ≈ 126.7 lx).
    lx: (v) => v / 126.7,
  },
};

const ALIASES: Record<string, string> = {
  c: 'C',
  '°c': 'C',
  degc: 'C',
  degree_c: 'C',
  celsius: 'C',
  f: 'F',
  '°f': 'F',
  degf: 'F',
  degree_f: 'F',
  fahrenheit: 'F',
  k: 'K',
  kelvin: 'K',
  mm: 'mm',
  millimeter: 'mm',
  cm: 'cm',
  in: 'in',
  inch: 'in',
  inches: 'in',
  'mm/h': 'mm/h',
  mm_h: 'mm/h',
  mm_per_hour: 'mm/h',
  'mm/hr': 'mm/h',
  'cm/h': 'cm/h',
  cm_h: 'cm/h',
  cm_per_hour: 'cm/h',
  'in/h': 'in/h',
  in_h: 'in/h',
  inch_per_hour: 'in/h',
  'in/hr': 'in/h',
  'km/h': 'km/h',
  km_h: 'km/h',
  kph: 'km/h',
  kmh: 'km/h',
  km_per_hour: 'km/h',
  'm/s': 'm/s',
  m_s: 'm/s',
  mps: 'm/s',
  ms: 'm/s',
  meter_per_second: 'm/s',
  mph: 'mph',
  mi_h: 'mph',
  'mi/h': 'mph',
  mile_per_hour: 'mph',
  kn: 'kn',
  knot: 'kn',
  knots: 'kn',
  kt: 'kn',
  'ft/s': 'ft/s',
  fps: 'ft/s',
  '%': '%',
  percent: '%',
  pct: '%',
  'w/m2': 'W/m2',
  'w/m²': 'W/m2',
  wpm2: 'W/m2',
  watt_per_meter_squared: 'W/m2',
  lx: 'lx',
  lux: 'lx',
};

export function canonicalUnit(unit: string): string | undefined {
  return ALIASES[unit.trim().toLowerCase()];
}

/** Every accepted unit spelling for a quantity (for config validation messages). */
export function unitsFor(quantity: Quantity): string[] {
  return Object.keys(CONVERTERS[quantity]);
}

export function isUnitOf(quantity: Quantity, unit: string): boolean {
  const canonical = canonicalUnit(unit);
  return canonical !== undefined && canonical in CONVERTERS[quantity];
}

/** Converts `value` given in `unit` to the API's unit of `quantity`; undefined for an unknown unit. */
export function toSpecUnit(quantity: Quantity, value: number, unit: string): number | undefined {
  const canonical = canonicalUnit(unit);
  const convert = canonical === undefined ? undefined : CONVERTERS[quantity][canonical];
  return convert === undefined ? undefined : convert(value);
}

/** A finite number from a number or a numeric string ("3.55"); undefined otherwise. */
export function toNumber(raw: unknown): number | undefined {
  return toFiniteNumber(raw);
}
