/**
 * The base configuration schema: the service, store, public-service, station,
 * MQTT, clock and container parts. The station units bring their own settings
 * as fragments in their modules (src/config/unitSettings.ts merges them); the
 * tables of docs/configuration.md are generated from both (scripts/gen-config-docs.mjs).
 */
import { clockSchema } from './clockSchema.js';
import { containerSchema } from './containerSchema.js';
import { mqttSchema } from './mqttSchema.js';
import { publicServiceSchema } from './publicServiceSchema.js';
import { serviceSchema } from './serviceSchema.js';
import { stationSchema } from './stationSchema.js';
import { storeSchema } from './storeSchema.js';

export const configSchema = {
  ...serviceSchema,
  ...storeSchema,
  ...publicServiceSchema,
  ...stationSchema,
  ...mqttSchema,
  ...clockSchema,
  ...containerSchema,
};

export type ConfigSchema = typeof configSchema;

/** A leaf of the schema: one setting. */
export interface SettingSpec {
  doc: string;
  format: unknown;
  default: unknown;
  env?: string;
  arg?: string;
  sensitive?: boolean;
}

/** A setting's value as loaded: its default's type, lists read-only (the loaded config is frozen). */
type SettingValue<D> = D extends ReadonlyArray<infer E> ? readonly E[] : D;

/** The configuration object a schema produces: each leaf becomes its default's type. */
export type ConfigOf<S> = {
  readonly [K in keyof S]: S[K] extends { doc: string; default: infer D } ? SettingValue<D> : ConfigOf<S[K]>;
};

export type AppConfig = ConfigOf<ConfigSchema>;

/** The part of the configuration the station side (src/station/) reads (derived, so it cannot drift from the schema). */
export type StationSideConfig = Pick<AppConfig, 'station' | 'history' | 'stations'>;

/** The part of the configuration the MQTT side reads; it publishes what the station side computes. */
export type MqttSideConfig = Pick<AppConfig, 'mqtt' | 'broker' | 'homeassistant' | 'history' | 'stations'>;

export function isSettingSpec(node: unknown): node is SettingSpec {
  return typeof node === 'object' && node !== null && 'doc' in node && 'default' in node;
}

/** Every setting with its dotted key, in schema order. */
export function listSettings(schema: object = configSchema): Array<{ key: string; spec: SettingSpec }> {
  const settings: Array<{ key: string; spec: SettingSpec }> = [];
  const visit = (node: object, prefix: string): void => {
    for (const [name, child] of Object.entries(node)) {
      const key = prefix ? `${prefix}.${name}` : name;
      if (isSettingSpec(child)) settings.push({ key, spec: child });
      else if (typeof child === 'object' && child !== null) visit(child as object, key);
    }
  };
  visit(schema, '');
  return settings;
}
