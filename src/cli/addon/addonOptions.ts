/**
 * The add-on's options (/data/options.json, the schema in homeassistant-addon/mowability/config.yaml)
 * and what the Supervisor said (the MQTT service, Home Assistant's core configuration) mapped onto
 * mowability's configuration: a configuration value loaded like a config file, so a wrong value gets
 * the same config error as anywhere else, plus the secrets as environment variables (never in the
 * value, never in a file). Pure: the add-on command reads the files and asks the Supervisor.
 */
import type { HomeAssistantCoreConfig, SupervisorInfo, SupervisorMqttService } from './supervisor.js';

export const MOWER_CONTROL_MODES = ['off', 'dry_run', 'on'] as const;

/** Every option with its default, as config.yaml's `options` has them. */
export const ADDON_OPTION_DEFAULTS = {
  stations_json: '',
  mower_class: 'walk',
  soil_type: 'loam',
  quiet_hours: '',
  quiet_sundays: false,
  quiet_holidays: false,
  night_ban: true,
  mower_entity: '',
  mower_control: 'off',
  mower_run_minutes: 60,
  mower_start_service: '',
  log_level: 'info',
} as const;

export type AddonOptions = {
  -readonly [K in keyof typeof ADDON_OPTION_DEFAULTS]: (typeof ADDON_OPTION_DEFAULTS)[K] extends boolean
    ? boolean
    : (typeof ADDON_OPTION_DEFAULTS)[K] extends number
      ? number
      : string;
};

/** The Supervisor's address for the ingress proxy (developers.home-assistant.io, "Presenting your app"). */
export const SUPERVISOR_INGRESS_ADDRESS = '172.30.32.2';
/** config.yaml's ingress_port; the watchdog asks /health there too. */
export const ADDON_HTTP_PORT = 8099;
/** The id of the modelled station at Home Assistant's home when the options name no station. */
export const HOME_STATION_ID = 'home';

export interface AddonConfigSources {
  /** Loaded like a configuration file (ConfigSources.values). */
  value: Record<string, unknown>;
  /** Environment variables for loadConfig, the secrets among them. */
  env: Record<string, string>;
  /** Options the schema does not know (an old version's): ignored, named in the log. */
  ignored: string[];
}

export class AddonOptionsError extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'AddonOptionsError';
    this.problems = problems;
  }
}

/** The options with defaults filled in; each wrong type is a problem naming the option. */
export function readOptions(raw: unknown): { options: AddonOptions; ignored: string[]; problems: string[] } {
  const problems: string[] = [];
  const given = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : undefined;
  if (!given)
    return { options: { ...ADDON_OPTION_DEFAULTS }, ignored: [], problems: ['/data/options.json must hold an object of options'] };
  const options: Record<string, unknown> = { ...ADDON_OPTION_DEFAULTS };
  const ignored: string[] = [];
  for (const [key, value] of Object.entries(given)) {
    if (!Object.hasOwn(ADDON_OPTION_DEFAULTS, key)) {
      ignored.push(key);
      continue;
    }
    const fallback = ADDON_OPTION_DEFAULTS[key as keyof typeof ADDON_OPTION_DEFAULTS];
    if (value === null || value === undefined) continue;
    if (typeof value !== typeof fallback)
      problems.push(`add-on option "${key}" must be a ${typeof fallback}, not ${JSON.stringify(value)}`);
    else options[key] = value;
  }
  if (!(MOWER_CONTROL_MODES as readonly unknown[]).includes(options.mower_control))
    problems.push(
      `add-on option "mower_control" must be one of ${MOWER_CONTROL_MODES.join(', ')}, not ${JSON.stringify(options.mower_control)}`,
    );
  return { options: options as AddonOptions, ignored, problems };
}

function homeLocation(core: HomeAssistantCoreConfig): Record<string, number> {
  return { latitude: core.latitude, longitude: core.longitude, ...(core.elevation !== undefined && { elevation: core.elevation }) };
}

/** The stations: the options' JSON list (each without a location gets the home's), or a modelled station at home. */
function stationsOf(options: AddonOptions, core: HomeAssistantCoreConfig, problems: string[]): Record<string, unknown>[] {
  if (options.stations_json.trim() === '')
    return [{ id: HOME_STATION_ID, name: 'Home', format: 'open-meteo', location: homeLocation(core) }];
  let parsed: unknown;
  try {
    parsed = JSON.parse(options.stations_json);
  } catch (err) {
    problems.push(
      `add-on option "stations_json" is not JSON (${(err as Error).message}): give the stations list as in docs/mqtt.md, e.g. [{"id": "garden", "format": "rtl_433", "topic": "rtl_433/events"}]`,
    );
    return [];
  }
  if (!Array.isArray(parsed)) {
    problems.push(
      'add-on option "stations_json" must be a JSON list of stations, e.g. [{"id": "garden", "format": "rtl_433", "topic": "rtl_433/events"}]',
    );
    return [];
  }
  // The stations' own validation (in loadConfig) names a wrong entry; only objects get the home's location.
  return parsed.map((station: unknown) =>
    typeof station === 'object' && station !== null && !Array.isArray(station) && !('location' in station)
      ? { ...(station as Record<string, unknown>), location: homeLocation(core) }
      : (station as Record<string, unknown>),
  );
}

/** The first station's mower control from the mower options (a Home Assistant lawn_mower through the Supervisor). */
function withMowerControl(stations: Record<string, unknown>[], options: AddonOptions, problems: string[]): void {
  if (options.mower_control === 'off') return;
  const first = stations[0];
  if (options.mower_entity.trim() === '')
    problems.push(
      `add-on option "mower_control" is "${options.mower_control}", so "mower_entity" must name the lawn_mower entity, e.g. lawn_mower.robbi`,
    );
  if (!first) return;
  const mower = typeof first.mower === 'object' && first.mower !== null ? (first.mower as Record<string, unknown>) : {};
  if (mower.control !== undefined) {
    problems.push(
      `add-on option "mower_control" and the station "${String(first.id)}"'s own mower.control in "stations_json" both drive the mower: keep one`,
    );
    return;
  }
  const homeassistant: Record<string, unknown> = { entity: options.mower_entity.trim() };
  if (options.mower_start_service.trim() !== '') homeassistant.startService = options.mower_start_service.trim();
  first.mower = {
    ...mower,
    control: {
      enabled: true,
      dryRun: options.mower_control === 'dry_run',
      kind: 'homeassistant',
      runMinutes: options.mower_run_minutes,
      homeassistant,
    },
  };
}

/** The add-on's configuration; throws AddonOptionsError for an option no setting's check can name. */
export function addonConfigSources(
  raw: unknown,
  supervisor: { mqtt: SupervisorMqttService; core: HomeAssistantCoreConfig; info?: SupervisorInfo },
  dataDir: string,
): AddonConfigSources {
  const { options, ignored, problems } = readOptions(raw);
  const { mqtt, core } = supervisor;
  const stations = stationsOf(options, core, problems);
  withMowerControl(stations, options, problems);
  if (options.quiet_holidays && core.country === undefined)
    problems.push('add-on option "quiet_holidays" needs Home Assistant\'s country: set it under Settings → System → General');
  if (problems.length > 0) throw new AddonOptionsError(problems);
  const value: Record<string, unknown> = {
    stations,
    timezone: core.timeZone,
    db: { path: `${dataDir.replace(/\/+$/, '')}/mowability.db` },
    http: { host: '0.0.0.0', port: ADDON_HTTP_PORT, ingressProxy: SUPERVISOR_INGRESS_ADDRESS },
    log: { level: options.log_level },
    // The broker of Home Assistant's MQTT service ("mqtt:need"); the embedded one stays off.
    broker: { enabled: false },
    mqtt: { url: `${mqtt.ssl ? 'mqtts' : 'mqtt'}://${mqtt.host}:${mqtt.port}`, username: mqtt.username },
    lawn: { mowerClass: options.mower_class, soilType: options.soil_type },
    lawnMemory: {
      noiseHours: options.quiet_hours,
      quietSundays: options.quiet_sundays,
      nightBan: options.night_ban,
      holidayCountry: options.quiet_holidays ? core.country : '',
    },
  };
  return { value, env: mqtt.password === '' ? {} : { MOWABILITY_MQTT_PASSWORD: mqtt.password }, ignored };
}
