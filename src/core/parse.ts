import { FIELD_NAMES, FIELD_SPECS } from './fields.js';
import type { CalculationInput, FieldName, FieldSpec } from './fields.js';
import { EXTENSION_FIELD_SPECS } from './extensionFields.js';
import type { ExtensionInput } from './extensionFields.js';

/** A complete finite decimal number: optional sign, digits with optional fraction, optional exponent. */
const DECIMAL_PATTERN = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

const SPEC_BY_NAME: ReadonlyMap<string, FieldSpec> = new Map(FIELD_SPECS.map((spec) => [spec.name, spec]));

export interface ParsedInput {
  /** Valid values only. */
  values: CalculationInput;
  /** Valid field names in the order of docs/api.md's examples. */
  available: FieldName[];
  /** Missing or invalid field names in the order of docs/api.md's examples. */
  missing: FieldName[];
}

/**
 * A finite number from a JSON number or a string holding a complete decimal number (surrounding
 * white space allowed); undefined for anything else. The one number rule of HTTP input and of
 * station payloads (src/ingest/units.ts).
 */
export function toFiniteNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  if (!DECIMAL_PATTERN.test(trimmed)) return undefined;
  const parsed = Number(trimmed);
  return Number.isFinite(parsed) ? parsed : undefined;
}

/**
 * Parses one untrusted value for a field: numbers and strings holding a
 * complete finite decimal number, inside the field's valid range (inclusive).
 * Returns undefined for anything else (also for unknown field names).
 */
export function parseFieldValue(name: string, value: unknown): number | undefined {
  const spec = SPEC_BY_NAME.get(name);
  return spec === undefined ? undefined : parseSpecValue(spec, value);
}

/** parseFieldValue for a known field. */
function parseSpecValue(spec: FieldSpec, value: unknown): number | undefined {
  // A JSON number (the usual case) without the call: the same test as toFiniteNumber's first line.
  const parsed = typeof value === 'number' ? (Number.isFinite(value) ? value : undefined) : toFiniteNumber(value);
  if (parsed === undefined || parsed < spec.min || parsed > spec.max) return undefined;
  return parsed === 0 ? 0 : parsed; // -0 becomes 0
}

function readOwn(raw: unknown, name: string): unknown {
  if (typeof raw !== 'object' || raw === null) return undefined;
  try {
    // Own properties only: keys such as __proto__ or constructor must never leak in through the prototype.
    return Object.hasOwn(raw, name) ? (raw as Record<string, unknown>)[name] : undefined;
  } catch {
    // A hostile getter or proxy counts as an invalid value.
    return undefined;
  }
}

/** Each field's index in FIELD_SPECS, by name. */
const FIELD_INDEX: ReadonlyMap<string, number> = new Map(FIELD_SPECS.map((spec, i) => [spec.name, i]));

/** A field's index in FIELD_SPECS, -1 for any other key. */
function fieldIndex(key: string): number {
  return FIELD_INDEX.get(key) ?? -1;
}

/** One undefined per field, as a literal (a packed array of FIELD_SPECS.length, filled in place). */
function noFields(): (number | undefined)[] {
  // One line for the 17 fields, not 17 lines:
  // prettier-ignore
  return [undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined];
}

/**
 * The fields of an object with only enumerable own string keys (what JSON and the MQTT side give),
 * read from its own keys and values; undefined when it has a non-enumerable own key (then the
 * caller reads field by field). Same values as `Object.hasOwn(raw, name) ? raw[name] : undefined`
 * per field: Object.keys and Object.values list the own enumerable properties in one order, never
 * the prototype's, and a throwing getter or proxy trap throws here as there. Cheaper than 17
 * own-property tests by name: with a shape per combination of supplied fields those are
 * megamorphic lookups, while the keys and values come from the object's enumeration cache.
 */
function parseOwnEnumerable(raw: object): (number | undefined)[] | undefined {
  const keys = Object.keys(raw);
  const values: unknown[] = Object.values(raw);
  if (values.length !== keys.length || Object.getOwnPropertyNames(raw).length !== keys.length) return undefined;
  const parsed = noFields();
  for (let i = 0; i < keys.length; i++) {
    const index = fieldIndex(keys[i] as string);
    if (index >= 0) parsed[index] = parseSpecValue(FIELD_SPECS[index] as FieldSpec, values[i]);
  }
  return parsed;
}

/** Each field's valid value (undefined when missing or invalid), by its index in FIELD_SPECS. Never throws. */
function parseFields(raw: unknown): (number | undefined)[] {
  if (typeof raw !== 'object' || raw === null) return noFields();
  try {
    // One guard for the whole record: a plain object (what JSON and the MQTT side give) never throws here.
    const fast = parseOwnEnumerable(raw);
    if (fast !== undefined) return fast;
    const parsed: (number | undefined)[] = [];
    for (const spec of FIELD_SPECS)
      parsed.push(parseSpecValue(spec, Object.hasOwn(raw, spec.name) ? (raw as Record<string, unknown>)[spec.name] : undefined));
    return parsed;
  } catch {
    // A hostile getter or proxy: read field by field, so only the fields that throw count as invalid.
    const parsed: (number | undefined)[] = [];
    for (const spec of FIELD_SPECS) parsed.push(parseSpecValue(spec, readOwn(raw, spec.name)));
    return parsed;
  }
}

/** Bit i set when FIELD_SPECS[i] has a valid value. */
export type FieldMask = number;

/** A bit no input sets: an unknown name in a mask of required fields is never valid. */
const UNKNOWN_FIELD_BIT = 1 << FIELD_SPECS.length;

/** The mask of some field names (bit i: FIELD_SPECS[i]; an unknown name sets a bit no input has). */
export function fieldMask(names: readonly string[]): FieldMask {
  let mask = 0;
  for (const name of names) {
    const index = fieldIndex(name);
    mask |= index >= 0 ? 1 << index : UNKNOWN_FIELD_BIT;
  }
  return mask;
}

/** The mask of the fields with a valid value. */
function validMask(parsed: readonly (number | undefined)[]): FieldMask {
  let mask = 0;
  for (let i = 0; i < FIELD_SPECS.length; i++) if (parsed[i] !== undefined) mask |= 1 << i;
  return mask;
}

interface FieldLists {
  available: readonly FieldName[];
  missing: readonly FieldName[];
}

/**
 * The available and missing names of each mask seen, built once and copied per call: a copy of a
 * list is one allocation, building it by push grows two arrays per call. Bounded: an input sends
 * one of a few field combinations; a flood of different ones only starts the cache again.
 */
const LISTS_BY_MASK = new Map<FieldMask, FieldLists>();
const MAX_CACHED_MASKS = 1024;

function listsOf(mask: FieldMask): FieldLists {
  const cached = LISTS_BY_MASK.get(mask);
  if (cached !== undefined) return cached;
  const available: FieldName[] = [];
  const missing: FieldName[] = [];
  for (let i = 0; i < FIELD_NAMES.length; i++) ((mask & (1 << i)) === 0 ? missing : available).push(FIELD_NAMES[i] as FieldName);
  if (LISTS_BY_MASK.size >= MAX_CACHED_MASKS) LISTS_BY_MASK.clear();
  const lists: FieldLists = { available, missing };
  LISTS_BY_MASK.set(mask, lists);
  return lists;
}

/** The available and missing field names of parsed values, in the order of FIELD_SPECS (fresh arrays). */
function fieldLists(mask: FieldMask): Pick<ParsedInput, 'available' | 'missing'> {
  const lists = listsOf(mask);
  return { available: lists.available.slice(), missing: lists.missing.slice() };
}

/** Parses an untrusted record field -> value; unknown keys are ignored. Never throws. */
export function parseInput(raw: unknown): ParsedInput {
  const parsed = parseFields(raw);
  const values: CalculationInput = {};
  for (let i = 0; i < FIELD_NAMES.length; i++) {
    const value = parsed[i];
    if (value !== undefined) values[FIELD_NAMES[i] as FieldName] = value;
  }
  const lists = fieldLists(validMask(parsed));
  return { values, available: lists.available, missing: lists.missing };
}

/** Every input field, undefined when missing or invalid. */
export type DenseInput = { [K in FieldName]: number | undefined };

/**
 * parseInput with every field present in `values` (undefined when missing), written as one
 * literal: the same object shape for every input, so the checks' many reads of `values` stay
 * monomorphic (with a shape per combination of supplied fields they were megamorphic lookups, and
 * adding the fields one by one cost more than the rest of the parse).
 */
export function parseDenseInput(raw: unknown): ParsedInput & { values: DenseInput; mask: FieldMask } {
  const p = parseFields(raw);
  const values: DenseInput = {
    temperature: p[0],
    precipitation_rate: p[1],
    humidity: p[2],
    wind_speed: p[3],
    wind_gusts: p[4],
    dew_point: p[5],
    solar: p[6],
    soil_temperature: p[7],
    soil_moisture: p[8],
    rain_1h: p[9],
    rain_12h: p[10],
    rain_24h: p[11],
    rain_14d: p[12],
    minutes_since_rain: p[13],
    min_temp_3h: p[14],
    min_temp_3d: p[15],
    min_temp_14d: p[16],
  };
  const mask = validMask(p);
  const lists = listsOf(mask);
  return { values, available: lists.available.slice(), missing: lists.missing.slice(), mask };
}

/** Parses the extension fields (e.g. minutes_since_irrigation) of an untrusted record. Never throws. */
export function parseExtensions(raw: unknown): ExtensionInput {
  const values: ExtensionInput = {};
  for (const spec of EXTENSION_FIELD_SPECS) {
    const parsed = toFiniteNumber(readOwn(raw, spec.name));
    if (parsed !== undefined && parsed >= spec.min && parsed <= spec.max) values[spec.name] = Object.is(parsed, -0) ? 0 : parsed;
  }
  return values;
}
