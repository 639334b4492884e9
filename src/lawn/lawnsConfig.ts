/**
 * A station's `lawns`: the lawns its readings serve (docs/configuration.md "Lawns"). Without the key a
 * station has one lawn, named and identified after the station, with the station's `lawn` profile and
 * `mower` block, so every existing configuration keeps its meaning. With it, the first lawn is the one
 * the station's `mower` block belongs to. Lawn ids share the topic level `<base>/<id>/...` with station
 * ids: unique across all stations and lawns, and a lawn id other than its station's own names no station.
 * A lawn may carry a `mower` block of its own (the station's keys; its `control` the mower control
 * validates, src/mower/controlConfig.ts): the station's `mower` block stays the first lawn's, so the
 * first lawn may not have one as well. Every message names the key and the fix.
 */
import { isPlainObject, lawnProfileProblems, type Problem, type UnitStationKey } from '../ingest/stationConfig.js';
import type { StationConfig } from '../ingest/types.js';
import { mowerProblems, type MowerConfig } from './mowerConfig.js';

/** One lawn as configured. */
export interface LawnConfig {
  id: string;
  name?: string;
  /** Mown area, m². */
  areaM2?: number;
  /** What the mower covers in an hour, m² (with `areaM2`: the minutes of one full cut). */
  capacityM2PerHour?: number;
  /** The height the lawn is kept at, mm (the one-third rule's reference). */
  targetHeightMm?: number;
  /** The lawn's profile keys over the station's `lawn`, key by key. */
  lawn?: StationConfig['lawn'];
  /** The lawn's own robot mower (the station's `mower` keys, `control` included); the station's `mower` block is the first lawn's. */
  mower?: MowerConfig & { control?: unknown };
}

/** One lawn of a station as the planner and the lawn memory read it: every lawn has an id and a name. */
export interface StationLawn extends Omit<LawnConfig, 'name'> {
  readonly name: string;
  /** The station's first lawn: its cuts are the station's (`<base>/<station>/mowed`), its entities today's ids. */
  readonly primary: boolean;
}

export const LAWN_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,31}$/;
export const LAWN_KEYS: readonly string[] = ['id', 'name', 'areaM2', 'capacityM2PerHour', 'targetHeightMm', 'lawn', 'mower'];
/** More lawns than one weather station's garden has; a longer list is a mistake. */
export const MAX_LAWNS_PER_STATION = 16;
const MAX_NAME_LENGTH = 64;
/** Ranges of the numbers, with what each means (a figure outside is a wrong unit). */
const RANGES: Readonly<Record<'areaM2' | 'capacityM2PerHour' | 'targetHeightMm', readonly [number, number, string]>> = {
  areaM2: [1, 1_000_000, 'the mown area in m², e.g. 600'],
  capacityM2PerHour: [1, 100_000, 'the m² the mower covers in an hour, e.g. 100 for a small robot'],
  targetHeightMm: [10, 150, 'the height the lawn is kept at in mm, e.g. 40'],
};

function lawnProblems(lawn: unknown, index: number, problem: Problem): void {
  const at = `lawns[${index}]`;
  if (!isPlainObject(lawn))
    return problem(
      at,
      'must be an object {"id": "back", "name": "Back lawn", "areaM2": 300, "capacityM2PerHour": 60, "targetHeightMm": 40}',
    );
  for (const key of Object.keys(lawn))
    if (!LAWN_KEYS.includes(key)) problem(`${at}.${key}`, `is not allowed (only ${LAWN_KEYS.join(', ')})`);
  if (typeof lawn.id !== 'string' || !LAWN_ID_PATTERN.test(lawn.id))
    problem(
      `${at}.id`,
      'must be 1 to 32 lower-case letters, digits, "_" or "-", starting with a letter or digit (it becomes an MQTT topic level)',
    );
  if (lawn.name !== undefined && (typeof lawn.name !== 'string' || lawn.name.trim() === '' || lawn.name.length > MAX_NAME_LENGTH))
    problem(`${at}.name`, `must be a non-empty name of up to ${MAX_NAME_LENGTH} characters, or left out (then the id names it)`);
  for (const [key, [min, max, meaning]] of Object.entries(RANGES)) {
    const value = lawn[key];
    if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max))
      problem(`${at}.${key}`, `must be a number from ${min} to ${max} (${meaning})`);
  }
  if (lawn.lawn !== undefined) lawnProfileProblems(lawn.lawn, (key, message) => problem(`${at}.${key}`, message));
  // The block's own keys; its `control` is the mower control's (src/mower/controlConfig.ts, across the stations).
  if (lawn.mower !== undefined) mowerProblems(lawn.mower, (key, message) => problem(`${at}.${key}`, message));
}

/** The key's value on one station (`station`: the whole station object, for its `mower` block). */
export function lawnsProblems(lawns: unknown, problem: Problem, station?: Readonly<Record<string, unknown>>): void {
  if (!Array.isArray(lawns) || lawns.length === 0 || lawns.length > MAX_LAWNS_PER_STATION)
    return problem('lawns', `must be a list of 1 to ${MAX_LAWNS_PER_STATION} lawns [{"id": "front"}, {"id": "back", "areaM2": 300}]`);
  lawns.forEach((lawn, index) => lawnProblems(lawn, index, problem));
  // The station's `mower` block is the first lawn's: two blocks for one lawn would leave it unclear which mower cuts it.
  if (station?.mower !== undefined && isPlainObject(lawns[0]) && lawns[0].mower !== undefined)
    problem(
      'lawns[0].mower',
      "is set, but the station's mower block already belongs to its first lawn: keep one of them (move the station's mower into lawns[0].mower, or remove lawns[0].mower)",
    );
  // A lawn's Home Assistant entity keys spell "-" as "_" (./planEntities.ts): "back-lawn" and
  // "back_lawn" would announce the same entities, so one would silently replace the other in HA.
  const spelled = new Map<string, string>();
  lawns.forEach((lawn: unknown, index) => {
    if (!isPlainObject(lawn) || typeof lawn.id !== 'string') return;
    const key = lawn.id.replaceAll('-', '_');
    const other = spelled.get(key);
    if (other !== undefined && other !== lawn.id)
      problem(
        `lawns[${index}].id`,
        `"${lawn.id}" and "${other}" give the same Home Assistant entity ids ("-" becomes "_"); rename one of them`,
      );
    if (other === undefined) spelled.set(key, lawn.id);
  });
}

/** The lawn ids of one raw station object: its `lawns`' ids, or the station's own id. */
function lawnIdsOf(station: Readonly<Record<string, unknown>>): string[] {
  if (!Array.isArray(station.lawns)) return typeof station.id === 'string' ? [station.id] : [];
  return station.lawns.flatMap((lawn: unknown) => (isPlainObject(lawn) && typeof lawn.id === 'string' ? [lawn.id] : []));
}

/** Rules across the stations: lawn ids unique everywhere, and no lawn named like another station (they share `<base>/<id>/`). */
export function lawnsAcrossStations(stations: readonly unknown[]): string[] {
  const problems: string[] = [];
  const stationIds = new Set(stations.flatMap((station) => (isPlainObject(station) && typeof station.id === 'string' ? [station.id] : [])));
  const owner = new Map<string, string>();
  stations.forEach((station, index) => {
    if (!isPlainObject(station) || station.lawns === undefined) return;
    const where = `stations[${index}]${typeof station.id === 'string' ? ` ("${station.id}")` : ''}.lawns`;
    for (const id of lawnIdsOf(station)) {
      const seen = owner.get(id);
      if (seen !== undefined)
        problems.push(`${where}: the lawn id "${id}" is used by ${seen}; lawn ids must be unique across all stations`);
      else if (id !== station.id && stationIds.has(id))
        problems.push(
          `${where}: the lawn id "${id}" is a station's id; lawns and stations share the topic level <base>/<id>/, choose another id`,
        );
      owner.set(id, `another lawn (${where})`);
    }
  });
  return problems;
}

/** The station key `lawns` and its validation (the lawns module's, ./lawnsModule.ts). */
export const LAWNS_STATION_KEY: UnitStationKey = {
  key: 'lawns',
  problems: lawnsProblems,
  acrossStations: lawnsAcrossStations,
  // The lawns' own mower state topics (none may lie under mqtt.baseTopic, as the station's).
  topics: (lawns) =>
    Array.isArray(lawns)
      ? lawns.flatMap((lawn: unknown) =>
          isPlainObject(lawn) && isPlainObject(lawn.mower) && typeof lawn.mower.topic === 'string' ? [lawn.mower.topic] : [],
        )
      : [],
};

/**
 * The `mower` block of each lawn of a raw station object: the station's `mower` for the first lawn
 * (else the first lawn's own), each further lawn's own; undefined where a lawn has none.
 */
export function lawnMowerBlocks(station: {
  id: string;
  mower?: unknown;
  lawns?: readonly unknown[] | undefined;
}): Array<{ lawnId: string; primary: boolean; mower: unknown }> {
  const lawns = Array.isArray(station.lawns) && station.lawns.length > 0 ? station.lawns : [{ id: station.id }];
  return lawns.map((lawn: unknown, index) => {
    const own = isPlainObject(lawn) ? lawn.mower : undefined;
    const lawnId = isPlainObject(lawn) && typeof lawn.id === 'string' ? lawn.id : station.id;
    return { lawnId, primary: index === 0, mower: index === 0 ? (station.mower ?? own) : own };
  });
}

/** A station's lawns: its `lawns`, or the one lawn named after the station. */
export function stationLawns(station: { id: string; name: string; lawns?: readonly LawnConfig[] | undefined }): StationLawn[] {
  if (!station.lawns || station.lawns.length === 0) return [{ id: station.id, name: station.name, primary: true }];
  return station.lawns.map((lawn, index) => ({ ...lawn, name: lawn.name ?? lawn.id, primary: index === 0 }));
}
