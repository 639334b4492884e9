/**
 * Old names of settings that moved, still read so an existing configuration keeps working. Each
 * old key (in the config file) and its old environment variable is moved to the new one before
 * convict sees it; the daemon logs one deprecation line per old name used (src/daemon.ts).
 * docs/configuration.md lists the moves ("Renamed settings"). Giving both the old and the new
 * name is refused: which one was meant cannot be known.
 */
import { listSettings } from './schema.js';

export interface SettingAlias {
  /** The old dotted key, e.g. "mqtt.recomputeDebounceMs". */
  readonly from: string;
  /** The key it moved to, e.g. "station.recomputeDebounceMs". */
  readonly to: string;
  /** The old environment variable. */
  readonly fromEnv: string;
}

/** The station side's settings moved from `mqtt.` to `station.` when the station side got its own namespace. */
export const SETTING_ALIASES: readonly SettingAlias[] = [
  'recomputeDebounceMs',
  'recomputeIntervalSeconds',
  'mowableOnThreshold',
  'mowableOffThreshold',
  'mowableOnDelayMinutes',
].map((name) => ({
  from: `mqtt.${name}`,
  to: `station.${name}`,
  fromEnv: `MOWABILITY_MQTT_${name.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase()}`,
}));

/** One old name found in a source: the line the daemon logs. */
export interface DeprecatedSettingUse {
  readonly alias: SettingAlias;
  /** The old name as written: the dotted key in the file or the environment variable. */
  readonly used: string;
  /** The new name to write instead: the dotted key or its environment variable. */
  readonly instead: string;
}

export function deprecationMessage(use: DeprecatedSettingUse): string {
  return `setting "${use.used}" is deprecated and will be removed; write "${use.instead}" instead (read as ${use.alias.to})`;
}

const ENV_OF = new Map(listSettings().map(({ key, spec }) => [key, spec.env]));

function envOf(key: string): string {
  const env = ENV_OF.get(key);
  if (env === undefined) throw new Error(`setting alias to ${key}, which has no environment variable`);
  return env;
}

/** Moves old environment variables to the new ones, in place. */
export function renameAliasedEnv(env: Record<string, string>, uses: DeprecatedSettingUse[], problems: string[]): void {
  for (const alias of SETTING_ALIASES) {
    const value = env[alias.fromEnv];
    if (value === undefined) continue;
    const target = envOf(alias.to);
    if (env[target] !== undefined) {
      problems.push(`both ${alias.fromEnv} (the old name) and ${target} are set: remove ${alias.fromEnv}`);
      continue;
    }
    env[target] = value;
    delete env[alias.fromEnv];
    uses.push({ alias, used: alias.fromEnv, instead: target });
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The file's content with old keys moved to their new place (the input is not changed). */
export function renameAliasedKeys(content: unknown, uses: DeprecatedSettingUse[], problems: string[]): unknown {
  if (!isObject(content)) return content;
  const copy: Record<string, unknown> = { ...content };
  for (const alias of SETTING_ALIASES) {
    const [fromGroup = '', fromLeaf = ''] = alias.from.split('.');
    const [toGroup = '', toLeaf = ''] = alias.to.split('.');
    const group = copy[fromGroup];
    if (!isObject(group) || !(fromLeaf in group)) continue;
    if (copy[toGroup] !== undefined && !isObject(copy[toGroup])) continue; // the shape check names it
    const target = isObject(copy[toGroup]) ? { ...copy[toGroup] } : {};
    if (toLeaf in target) {
      problems.push(`both "${alias.from}" (the old name) and "${alias.to}" are set in the configuration file: remove "${alias.from}"`);
      continue;
    }
    const { [fromLeaf]: value, ...rest } = group;
    target[toLeaf] = value;
    copy[fromGroup] = rest;
    copy[toGroup] = target;
    uses.push({ alias, used: alias.from, instead: alias.to });
  }
  return copy;
}
