/**
 * Loads the configuration. Precedence, lowest first: schema defaults, the
 * JSON file named by --config or MOWABILITY_CONFIG, environment variables,
 * command-line flags. Unknown keys and invalid values are errors.
 */
import convict from 'convict';
import { applyCredentials } from './credentials.js';
import { LOCATION_STATION_ID, withLocationStation } from '../ingest/modelledConfig.js';
import { unreadableProblem } from './fileAccess.js';
import { withUploadTopics } from '../ingest/uploadStations.js';
import { configShapeProblems, kindOf, readConfigFile } from './fileShape.js';
import { registerConfigFormats } from './formats.js';
import { listSettings, type AppConfig, type SettingSpec } from './schema.js';
import { schemaWithUnits, type UnitConfigSpec } from './unitSettings.js';
import { crossKeyProblems } from './crossKeyRules.js';
import { renameAliasedEnv, renameAliasedKeys, type DeprecatedSettingUse } from './settingAliases.js';
import { EXIT_CONFIG } from '../util/exitCodes.js';
import { redactUrl } from '../util/redactUrl.js';

export const CONFIG_ENV = 'MOWABILITY_CONFIG';
export const CONFIG_FLAG = 'config';
/** What the CLI exits with on a configuration error (defined low, in util, for the store's lock error too). */
export { EXIT_CONFIG };

export class ConfigError extends Error {
  readonly problems: readonly string[];
  readonly exitCode = EXIT_CONFIG;

  constructor(problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((line) => `  - ${line}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

export interface ConfigSources {
  /** Command-line arguments: --config FILE and any setting flag (e.g. --http-port 9000). */
  argv?: readonly string[];
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * For commands that never use the secrets (key management, status): a secret that only the
   * service gets (a systemd credential) is not required. `serve` and `config` leave it false.
   */
  secretsOptional?: boolean;
  /** The station units' settings and station keys (stationUnits() in src/daemon.ts); none: only the service's. */
  units?: readonly UnitConfigSpec[];
  /**
   * A configuration made by a program instead of a file (the Home Assistant add-on's options mapped
   * onto the settings), checked like a file; `origin` begins its problems. Replaces the file.
   */
  values?: { origin: string; value: Readonly<Record<string, unknown>> };
}

/** The configuration file named by --config (wins) or MOWABILITY_CONFIG, if any. */
export function configFileFrom({ argv = [], env = {} }: ConfigSources): string | undefined {
  for (let i = argv.length - 1; i >= 0; i--) {
    const arg = argv[i] ?? '';
    if (arg === `--${CONFIG_FLAG}`) {
      const value = argv[i + 1];
      if (value !== undefined) return value;
    } else if (arg.startsWith(`--${CONFIG_FLAG}=`)) {
      return arg.slice(CONFIG_FLAG.length + 3);
    }
  }
  const fromEnv = env[CONFIG_ENV];
  return fromEnv ? fromEnv : undefined;
}

/** A loaded configuration with the old setting names (src/config/settingAliases.ts) it was loaded with; the daemon logs them. */
export interface LoadedConfig {
  readonly config: AppConfig;
  readonly deprecated: readonly DeprecatedSettingUse[];
  /**
   * The MOWABILITY_* variables it was given that no setting it knew reads (a unit's, when it was loaded
   * without `units`): building a unit whose variable is among them refuses to fall back to its defaults
   * (src/station/unitBuilder.ts; a test would reach the real Open-Meteo). The daemon is handed it
   * (DaemonOptions.unreadEnvironment).
   */
  readonly unreadEnvironment: readonly string[];
}

export function loadConfig(sources: ConfigSources = {}): AppConfig {
  return loadConfiguration(sources).config;
}

/** loadConfig, with the deprecated names used and the variables no setting read. */
export function loadConfiguration(sources: ConfigSources = {}): LoadedConfig {
  registerConfigFormats();
  const deprecated: DeprecatedSettingUse[] = [];
  const aliasProblems: string[] = [];
  const { env, problems } = applyCredentials(definedOnly(sources.env ?? {}));
  if (problems.length > 0) throw new ConfigError(problems);
  renameAliasedEnv(env, deprecated, aliasProblems);
  const units = sources.units ?? [];
  const schema = schemaWithUnits(units);
  const settings = new Map(listSettings(schema).map(({ key, spec }) => [key, spec]));
  const config = convict<AppConfig>(schema as never, { env, args: [...(sources.argv ?? [])] });

  const file = sources.values ? undefined : configFileFrom(sources);
  if (sources.values) {
    const value = renameAliasedKeys(sources.values.value, deprecated, aliasProblems);
    const shapeProblems = configShapeProblems(value, schema);
    if (shapeProblems.length > 0) throw new ConfigError(shapeProblems.map((problem) => `${sources.values!.origin}: ${problem}`));
    config.load(value);
  } else if (file !== undefined) {
    const unreadable = unreadableProblem('configuration file', file);
    if (unreadable !== undefined) throw new ConfigError([unreadable]);
    const content = readConfigFile(file);
    if (!content.ok) throw new ConfigError([content.problem]);
    const value = renameAliasedKeys(content.value, deprecated, aliasProblems);
    const shapeProblems = configShapeProblems(value, schema);
    if (shapeProblems.length > 0) throw new ConfigError(shapeProblems.map((problem) => `configuration file "${file}": ${problem}`));
    config.load(value);
  }
  if (aliasProblems.length > 0) throw new ConfigError(aliasProblems);

  try {
    config.validate({ allowed: 'strict' });
  } catch (err) {
    throw new ConfigError(describeProblems((err as Error).message, (key) => config.get(key as never), settings));
  }

  const properties = config.getProperties();
  if (properties.location.trim() !== '' && properties.stations.some((station) => station.id === LOCATION_STATION_ID)) {
    throw new ConfigError([
      `location adds the modelled station "${LOCATION_STATION_ID}", but a station with that id is configured already: remove "location" or rename that station`,
    ]);
  }
  const loaded: AppConfig = {
    ...properties,
    timezone: properties.timezone === '' ? Intl.DateTimeFormat().resolvedOptions().timeZone : properties.timezone,
    station: { ...properties.station, maxPayloadBytes: properties.station.maxPayloadBytes || properties.broker.maxPayloadBytes },
    stations: withUploadTopics(withLocationStation(properties.stations, properties.location)),
  };
  // Rules that span several keys (convict validates one key at a time).
  const ruleProblems = crossKeyProblems(loaded, { secretsOptional: sources.secretsOptional === true, units });
  if (ruleProblems.length > 0) throw new ConfigError(ruleProblems);
  const read = new Set([...settings.values()].flatMap((spec) => (spec.env ? [spec.env] : [])));
  const unreadEnvironment = Object.keys(env).filter((name) => name.startsWith('MOWABILITY_') && !read.has(name));
  return { config: deepFreeze(loaded), deprecated, unreadEnvironment: Object.freeze(unreadEnvironment) };
}

type Settings = ReadonlyMap<string, SettingSpec>;

/** Turns convict's validation output into one readable line per problem. */
function describeProblems(output: string, valueOf: (key: string) => unknown, settings: Settings): string[] {
  return (
    output
      .replace(/: value was .*$/gm, '')
      // convict's lines are "<key>: <message>" or "configuration param ..."; a message of several lines (the stations') stays whole.
      .split(/\n(?=[\w.-]+: |configuration param ')/)
      .filter((line) => line.trim() !== '')
      .flatMap((line) => {
        const undeclared = /^configuration param '(.+)' not declared in the schema$/.exec(line);
        if (undeclared?.[1]) return describeUnknownKey(undeclared[1], safeValue(valueOf, undeclared[1]), settings);
        const separator = line.indexOf(': ');
        const key = separator > 0 ? line.slice(0, separator) : '';
        const spec = settings.get(key);
        if (!spec) return line;
        const message = line.slice(separator + 2);
        // A message that names its own place (the stations': "stations[1] ("shed").topik ...", one a line) is not
        // preceded by the whole list: the user reads which station and which key, not a wall of JSON.
        if (message.startsWith(key)) return message.split('\n');
        const value = safeValue(valueOf, key);
        // A refused URL (e.g. forecast.openMeteoUrl with user:password@) is shown without its credentials.
        const shown = spec.sensitive
          ? '[Sensitive]'
          : JSON.stringify(typeof value === 'string' && value.includes('://') ? redactUrl(value) : value);
        const sources = [spec.env, spec.arg ? `--${spec.arg}` : undefined].filter(Boolean).join(' or ');
        const origin = sources ? ` (set in the config file or via ${sources})` : '';
        return `"${key}" = ${shown} is invalid: ${message}${origin}`;
      })
  );
}

/** The value itself is never shown: a misspelt key ("passwd") may well hold a secret. */
function describeUnknownKey(key: string, value: unknown, settings: Settings): string {
  const parent = key.includes('.') ? key.slice(0, key.lastIndexOf('.')) : '';
  const siblings = [...settings.keys()].filter((known) => (parent === '' ? true : known.startsWith(`${parent}.`)));
  const allowed = siblings.length > 0 ? siblings : [...settings.keys()];
  return `unknown key "${key}" (${kindOf(value)}); allowed keys${parent ? ` under "${parent}"` : ''}: ${allowed.join(', ')}`;
}

function safeValue(valueOf: (key: string) => unknown, key: string): unknown {
  try {
    return valueOf(key);
  } catch {
    return undefined;
  }
}

function definedOnly(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) result[name] = value;
  return result;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * The configuration as JSON with every sensitive setting replaced by
 * "[Sensitive]" and credentials removed from the broker URL. `units`: the station units it was
 * loaded with, whose secrets (mowerControl.homeAssistantToken) are replaced too.
 */
export function redactConfig(config: AppConfig, units: readonly UnitConfigSpec[]): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(config)) as Record<string, unknown>;
  const mqtt = copy.mqtt as { url?: unknown } | undefined;
  if (mqtt && typeof mqtt.url === 'string') mqtt.url = redactUrl(mqtt.url);
  const sensitive = new Set(listSettings(schemaWithUnits(units)).flatMap(({ key, spec }) => (spec.sensitive ? [key] : [])));
  for (const key of sensitive) {
    const path = key.split('.');
    const leaf = path.pop() as string;
    let node: Record<string, unknown> | undefined = copy;
    for (const part of path) node = node?.[part] as Record<string, unknown> | undefined;
    if (node && leaf in node) node[leaf] = '[Sensitive]';
  }
  return copy;
}
