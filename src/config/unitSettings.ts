/**
 * The configuration a station unit brings (src/station/unit.ts): its global settings as a convict
 * schema fragment under its own top-level key, and the key it owns in each station object with its
 * validation. The composition root lists the units (stationUnits() in src/daemon.ts) and hands their
 * specs to loadConfig, which merges them here; the rest of the schema knows nothing of them.
 */
import { stationsValidator, type UnitStationKey } from '../ingest/stationConfig.js';
import { configSchema, isSettingSpec } from './schema.js';

export interface UnitConfigSpec {
  /** Global settings: `schema` (convict: doc, format, default, env for every leaf) under the top-level `key`. */
  readonly settings?: {
    readonly key: string;
    readonly schema: Readonly<Record<string, unknown>>;
    /** Rules across the unit's own settings (convict checks one key at a time): one line per problem, naming the keys. */
    problems?(values: Readonly<Record<string, unknown>>): readonly string[];
  };
  /** The key the unit owns in each station object and its validation. */
  readonly station?: UnitStationKey;
}

/** The station units' keys in the station objects. */
export function unitStationKeys(units: readonly UnitConfigSpec[]): UnitStationKey[] {
  return units.flatMap((unit) => (unit.station ? [unit.station] : []));
}

/** The whole schema: the service's, each unit's settings, and a `stations` validator that knows the units' keys. */
export function schemaWithUnits(units: readonly UnitConfigSpec[]): Record<string, unknown> {
  const schema: Record<string, unknown> = { ...configSchema };
  const shared = new Set<unknown>();
  for (const unit of units) {
    if (!unit.settings) continue;
    // Modules that share a fragment (the forecast's Open-Meteo connection) list the same object.
    if (shared.has(unit.settings.schema) && schema[unit.settings.key] === unit.settings.schema) continue;
    shared.add(unit.settings.schema);
    if (Object.hasOwn(schema, unit.settings.key))
      throw new Error(`station unit settings "${unit.settings.key}" collide with a setting of that name`);
    schema[unit.settings.key] = unit.settings.schema;
  }
  const keys = unitStationKeys(units);
  if (keys.length > 0) schema.stations = { ...configSchema.stations, format: stationsValidator(keys) };
  return schema;
}

/** The environment variables of a settings fragment's leaves. */
export function settingsEnvironment(schema: Readonly<Record<string, unknown>>): string[] {
  return Object.values(schema).flatMap((node) => {
    if (isSettingSpec(node)) return typeof node.env === 'string' ? [node.env] : [];
    return typeof node === 'object' && node !== null ? settingsEnvironment(node as Record<string, unknown>) : [];
  });
}

/** The defaults of a settings fragment (each leaf's `default`), for a configuration loaded without the unit. */
export function settingsDefaults(schema: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, node] of Object.entries(schema)) {
    if (isSettingSpec(node)) values[name] = node.default;
    else if (typeof node === 'object' && node !== null) values[name] = settingsDefaults(node as Record<string, unknown>);
  }
  return values;
}
