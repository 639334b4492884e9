/**
 * Strict validation of the `stations` configuration array. Every message
 * names the station (by index and id) and the key.
 */
import { FIELD_CAPACITY_RANGE_PCT, isValidFieldCapacity } from '../core/soil.js';
import { MOWER_CLASSES, SOIL_TYPES, TURF_TYPES } from '../core/vocabulary.js';
import { FIELD_QUANTITY } from './builder.js';
import { CURRENT_FIELDS, MODELLED_FORMAT, RAIN_INPUT_FIELDS, STATION_FORMATS, isUploadFormat, type StationConfig } from './types.js';
import { modelledProblems } from './modelledConfig.js';
import { sharedUploadProblems, uploadProblems } from './uploadConfig.js';
import { isUnitOf, unitsFor, type Quantity } from './units.js';

const ID_PATTERN = /^[a-zA-Z0-9_-]+$/;
/** Ids whose topics the daemon itself publishes under (<base>/bridge/state, <base>/bridge/stats). */
const RESERVED_IDS = new Set(['bridge']);
const INPUT_FIELDS: readonly string[] = [...CURRENT_FIELDS, ...RAIN_INPUT_FIELDS];
const STATION_KEYS = new Set([
  'id',
  'name',
  'format',
  'topic',
  'match',
  'units',
  'fields',
  'timestampKey',
  'lawn',
  'freshness',
  'location',
  'upload',
]);
/** What a station unit declares about the key it owns in each station object (src/station/unit.ts). */
export interface UnitStationKey {
  /** The key, e.g. `irrigation`: absent means the unit is off for the station. */
  readonly key: string;
  /** Reports each problem of the key's value with the full key (`irrigation.topic`) and how to fix it. */
  problems(value: unknown, problem: Problem, station: Readonly<Record<string, unknown>>): void;
  /** The MQTT topics the value subscribes: none may lie under `mqtt.baseTopic` (src/config/crossKeyRules.ts). */
  topics?(value: unknown): readonly string[];
  /** Rules across all station objects (ids the key shares with other stations): one line per problem, naming station and key. */
  readonly acrossStations?: (stations: readonly unknown[]) => readonly string[];
}

/** A station's lawn keys and their allowed values: the core's lists, as for the service-level lawn profile. */
const LAWN_VALUES: Readonly<Record<string, readonly string[]>> = { soilType: SOIL_TYPES, mowerClass: MOWER_CLASSES, turfType: TURF_TYPES };

export type Problem = (key: string, message: string) => void;

/** Each location key with its range: WGS 84 degrees, and metres from the Dead Sea shore to above any lawn. */
const LOCATION_RANGES: Readonly<Record<string, readonly [number, number, string]>> = {
  latitude: [-90, 90, 'degrees north (WGS 84), e.g. 52.52'],
  longitude: [-180, 180, 'degrees east (WGS 84), e.g. 13.40'],
  elevation: [-500, 9000, 'metres above sea level'],
};

function quantityOf(field: string): Quantity {
  return field === 'rain_total' || field === 'rain_delta' ? 'depth' : FIELD_QUANTITY[field as keyof typeof FIELD_QUANTITY];
}

/** Problems with an MQTT topic filter used for subscribing (wildcards allowed). */
export function topicFilterProblem(topic: string): string | undefined {
  if (topic === '') return 'must not be empty';
  if (topic.includes('\u0000')) return 'must not contain NUL';
  const levels = topic.split('/');
  for (const [index, level] of levels.entries()) {
    if (level.includes('#') && (level !== '#' || index !== levels.length - 1)) return '"#" is only allowed as the whole last level';
    if (level.includes('+') && level !== '+') return '"+" must be a whole level';
  }
  return undefined;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A `lawn` profile object (a station's, or one of its `lawns`'); `problem` gets `lawn.<key>`. */
export function lawnProfileProblems(lawn: unknown, problem: Problem): void {
  if (lawn === undefined) return;
  const keys = [...Object.keys(LAWN_VALUES), 'fieldCapacityPercent'];
  if (!isPlainObject(lawn)) return problem('lawn', `must be an object with any of ${keys.join(', ')}`);
  for (const [key, value] of Object.entries(lawn)) {
    const allowed = LAWN_VALUES[key];
    if (key === 'fieldCapacityPercent') {
      const { min, max } = FIELD_CAPACITY_RANGE_PCT;
      if (!isValidFieldCapacity(value))
        problem('lawn.fieldCapacityPercent', `must be a number from ${min} to ${max} (volumetric water content at field capacity, %)`);
    } else if (!allowed) problem(`lawn.${key}`, `is not allowed (only ${keys.join(', ')})`);
    else if (typeof value !== 'string' || !allowed.includes(value)) problem(`lawn.${key}`, `must be one of ${allowed.join(', ')}`);
  }
}

function locationProblems(location: unknown, problem: Problem): void {
  if (location === undefined) return;
  if (!isPlainObject(location)) return problem('location', 'must be an object {"latitude": 52.52, "longitude": 13.40}');
  for (const [key, value] of Object.entries(location)) {
    const range = LOCATION_RANGES[key];
    if (!range) problem(`location.${key}`, `is not allowed (only ${Object.keys(LOCATION_RANGES).join(', ')})`);
    else if (typeof value !== 'number' || !Number.isFinite(value) || value < range[0] || value > range[1]) {
      problem(`location.${key}`, `must be a number from ${range[0]} to ${range[1]} (${range[2]})`);
    }
  }
  for (const key of ['latitude', 'longitude'])
    if (!Object.hasOwn(location, key)) problem(`location.${key}`, 'is required when "location" is given');
}

/** Unknown keys, then the identity of the station: id, name, format and the topic it is read from. */
function identityProblems(raw: Record<string, unknown>, problem: Problem, units: readonly UnitStationKey[]): void {
  const id = raw.id;
  const allowed = [...STATION_KEYS, ...units.map((unit) => unit.key)];
  for (const key of Object.keys(raw)) if (!allowed.includes(key)) problem(key, `is not a station setting (allowed: ${allowed.join(', ')})`);
  if (typeof id !== 'string' || !ID_PATTERN.test(id))
    problem('id', 'must be a non-empty string of letters, digits, "_" and "-" (it becomes an MQTT topic level)');
  else if (RESERVED_IDS.has(id.toLowerCase()))
    problem('id', `"${id}" is reserved for the daemon's own topics (<base>/bridge/...); choose another id`);
  if (typeof raw.name !== 'string' || raw.name.trim() === '') problem('name', 'must be a non-empty string');
  if (typeof raw.format !== 'string' || !STATION_FORMATS.includes(raw.format as never)) {
    problem('format', `must be one of ${STATION_FORMATS.join(', ')}`);
  }
  const uploads = typeof raw.format === 'string' && isUploadFormat(raw.format);
  if ((uploads || raw.format === MODELLED_FORMAT) && raw.topic === undefined) {
    // Optional: the station uploads over HTTP (src/ingest/uploadStations.ts gives it a relay topic), or is modelled.
  } else if (typeof raw.topic !== 'string') problem('topic', 'must be an MQTT topic (wildcards + and # allowed)');
  else {
    const topicProblem = topicFilterProblem(raw.topic);
    if (topicProblem) problem('topic', topicProblem);
  }
}

/** The optional payload filter and unit overrides. */
function matchAndUnitsProblems(raw: Record<string, unknown>, problem: Problem): void {
  if (raw.match !== undefined) {
    if (!isPlainObject(raw.match) || Object.keys(raw.match).length === 0)
      problem('match', 'must be an object such as {"model": "Fineoffset-WH65B", "id": 65}');
    else {
      for (const [key, value] of Object.entries(raw.match)) {
        const ok = (v: unknown): boolean => typeof v === 'string' || typeof v === 'number';
        if (!(ok(value) || (Array.isArray(value) && value.length > 0 && value.every(ok))))
          problem(`match.${key}`, 'must be a string, a number or a non-empty list of them');
      }
    }
  }
  if (raw.units !== undefined) {
    if (raw.units === 'metric' || raw.units === 'imperial') {
      // unit system
    } else if (!isPlainObject(raw.units)) problem('units', 'must be "metric", "imperial" or an object field → unit');
    else {
      for (const [field, unit] of Object.entries(raw.units)) {
        if (!INPUT_FIELDS.includes(field)) problem(`units.${field}`, `is not a field (allowed: ${INPUT_FIELDS.join(', ')})`);
        else if (typeof unit !== 'string' || !isUnitOf(quantityOf(field), unit))
          problem(`units.${field}`, `must be one of ${unitsFor(quantityOf(field)).join(', ')}`);
      }
    }
  }
}

/** The format-specific field mapping ("json" payload keys, "fields" topics) and the "json" timestamp key. */
function fieldsProblems(raw: Record<string, unknown>, problem: Problem): void {
  if (raw.format === 'json') {
    if (!isPlainObject(raw.fields) || Object.keys(raw.fields).length === 0)
      problem(
        'fields',
        'is required for format "json": an object field → payload key, e.g. {"temperature": {"key": "temp_f", "unit": "F"}}',
      );
    else {
      for (const [field, mapping] of Object.entries(raw.fields)) {
        if (!INPUT_FIELDS.includes(field)) {
          problem(`fields.${field}`, `is not a field (allowed: ${INPUT_FIELDS.join(', ')})`);
          continue;
        }
        const key = typeof mapping === 'string' ? mapping : isPlainObject(mapping) ? mapping.key : undefined;
        if (typeof key !== 'string' || key === '') problem(`fields.${field}`, 'must be a payload key or {"key": ..., "unit": ...}');
        if (isPlainObject(mapping)) {
          for (const extra of Object.keys(mapping))
            if (extra !== 'key' && extra !== 'unit') problem(`fields.${field}.${extra}`, 'is not allowed (only key and unit)');
          if (mapping.unit !== undefined && (typeof mapping.unit !== 'string' || !isUnitOf(quantityOf(field), mapping.unit))) {
            problem(`fields.${field}.unit`, `must be one of ${unitsFor(quantityOf(field)).join(', ')}`);
          }
        }
      }
    }
  } else if (raw.format === 'fields') {
    if (raw.fields !== undefined) {
      if (!isPlainObject(raw.fields) || Object.keys(raw.fields).length === 0) problem('fields', 'must be an object topic → field');
      else {
        for (const [topic, field] of Object.entries(raw.fields)) {
          if (typeof field !== 'string' || !INPUT_FIELDS.includes(field))
            problem(`fields["${topic}"]`, `must be one of ${INPUT_FIELDS.join(', ')}`);
          if (topic.includes('+') || topic.includes('#')) problem(`fields["${topic}"]`, 'must be a concrete topic (no wildcards)');
        }
      }
    } else if (typeof raw.topic === 'string' && !raw.topic.endsWith('/+') && raw.topic !== '+') {
      problem('topic', 'must end in "/+" (the last level names the field) unless "fields" maps topics to fields');
    }
  } else if (raw.fields !== undefined) {
    problem('fields', 'is only used by the formats "json" and "fields"');
  }
  if (raw.timestampKey !== undefined && (raw.format !== 'json' || typeof raw.timestampKey !== 'string' || raw.timestampKey === '')) {
    problem('timestampKey', 'must be a payload key, and is only used by format "json"');
  }
}

/** How old a reading (or one field of it) may be before it no longer counts as current. */
function freshnessProblems(freshness: unknown, problem: Problem): void {
  if (freshness === undefined) return;
  const positive = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v) && v > 0;
  if (!isPlainObject(freshness)) problem('freshness', 'must be an object {maxAgeMinutes, fields}');
  else {
    for (const key of Object.keys(freshness))
      if (key !== 'maxAgeMinutes' && key !== 'fields') problem(`freshness.${key}`, 'is not allowed (only maxAgeMinutes and fields)');
    if (freshness.maxAgeMinutes !== undefined && !positive(freshness.maxAgeMinutes))
      problem('freshness.maxAgeMinutes', 'must be a number of minutes above 0');
    if (freshness.fields !== undefined) {
      if (!isPlainObject(freshness.fields)) problem('freshness.fields', 'must be an object field → minutes');
      else {
        for (const [field, minutes] of Object.entries(freshness.fields)) {
          if (!(CURRENT_FIELDS as readonly string[]).includes(field))
            problem(`freshness.fields.${field}`, `is not a current-value field (allowed: ${CURRENT_FIELDS.join(', ')})`);
          else if (!positive(minutes)) problem(`freshness.fields.${field}`, 'must be a number of minutes above 0');
        }
      }
    }
  }
}

function stationProblems(raw: unknown, index: number, units: readonly UnitStationKey[]): string[] {
  const where = (key: string, id?: unknown): string =>
    `stations[${index}]${typeof id === 'string' && id !== '' ? ` ("${id}")` : ''}.${key}`;
  if (!isPlainObject(raw)) return [`stations[${index}] must be an object`];
  const id = raw.id;
  const problems: string[] = [];
  const problem: Problem = (key, message) => {
    problems.push(`${where(key, id)} ${message}`);
  };
  identityProblems(raw, problem, units);
  matchAndUnitsProblems(raw, problem);
  fieldsProblems(raw, problem);
  uploadProblems(raw.format, raw.upload, problem);
  lawnProfileProblems(raw.lawn, problem);
  locationProblems(raw.location, problem);
  freshnessProblems(raw.freshness, problem);
  modelledProblems(raw, problem);
  // Each station unit validates the key it owns (src/station/unit.ts).
  for (const unit of units) if (raw[unit.key] !== undefined) unit.problems(raw[unit.key], problem, raw);
  return problems;
}

/** Every problem of the stations array, one line each; empty when valid. `units`: the station units' keys. */
export function stationsProblems(raw: unknown, units: readonly UnitStationKey[] = []): string[] {
  if (!Array.isArray(raw)) return ['stations must be a list of station objects'];
  const problems = raw.flatMap((station, index) => stationProblems(station, index, units));
  const seen = new Set<string>();
  for (const [index, station] of raw.entries()) {
    const id = isPlainObject(station) ? station.id : undefined;
    if (typeof id !== 'string') continue;
    if (seen.has(id)) problems.push(`stations[${index}] ("${id}").id is used by another station; ids must be unique`);
    seen.add(id);
  }
  problems.push(...sharedUploadProblems(raw));
  for (const unit of units) if (unit.acrossStations) problems.push(...unit.acrossStations(raw));
  return problems;
}

/** Convict format (called with the value and its schema): throws one message listing every problem, one a line (each names its station and key). */
export function validateStations(raw: unknown): void {
  stationsValidator([])(raw);
}

/** The convict format of `stations` when station units own keys in the station objects. */
export function stationsValidator(units: readonly UnitStationKey[]): (raw: unknown) => void {
  return (raw) => {
    const problems = stationsProblems(raw, units);
    if (problems.length > 0) throw new Error(problems.join('\n'));
  };
}

export function asStations(raw: unknown, units: readonly UnitStationKey[] = []): StationConfig[] {
  stationsValidator(units)(raw);
  return raw as StationConfig[];
}
