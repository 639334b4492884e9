/**
 * `mowability addon`: the Home Assistant add-on's start (homeassistant-addon/mowability/DOCS.md). The
 * options from /data/options.json, the broker from the Supervisor's MQTT service and the home's
 * location, time zone and units from Home Assistant's core configuration become the configuration
 * (src/cli/addon/addonOptions.ts); then the daemon runs as `serve` runs it. A bad option is a config
 * error in the same words (exit 78); the add-on log is this process's stdout and stderr.
 */
import { readFileSync } from 'node:fs';
import { ConfigError, loadConfig } from '../../config/load.js';
import { stationUnitConfigs } from '../../daemon.js';
import { SUPERVISOR_TOKEN_ENV, SUPERVISOR_URL_DEFAULT, SUPERVISOR_URL_ENV } from '../../mower/controlSettings.js';
import { addonConfigSources, AddonOptionsError } from '../addon/addonOptions.js';
import { SupervisorClient, SupervisorError } from '../addon/supervisor.js';
import { expectPositionals, parseCommand, printedHelp } from '../args.js';
import { HELP } from '../help.js';
import { CommandError, EXIT_OK, type CliIo } from '../io.js';
import { runDaemon } from './serve.js';

const COMMAND = 'addon';
/** The add-on's data directory (developers.home-assistant.io, "App configuration"); the variable is for tests and development. */
export const ADDON_DATA_DEFAULT = '/data';
export const ADDON_DATA_ENV = 'MOWABILITY_ADDON_DATA';

function readOptionsFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    // The Supervisor writes it before every start; without it every option has its default.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ConfigError([`add-on options "${path}" cannot be read: ${(err as Error).message}`]);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new ConfigError([`add-on options "${path}" are not JSON: ${(err as Error).message}`]);
  }
}

export async function addonCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(COMMAND, argv);
  if (printedHelp(parsed, io, HELP.addon)) return EXIT_OK;
  expectPositionals(COMMAND, parsed.positionals, []);
  const token = io.env[SUPERVISOR_TOKEN_ENV] ?? '';
  if (token === '')
    throw new CommandError(
      `${SUPERVISOR_TOKEN_ENV} is not set: "mowability addon" runs inside the Home Assistant add-on, whose Supervisor sets it (outside it, use "mowability serve")`,
    );
  const dataDir = io.env[ADDON_DATA_ENV] || ADDON_DATA_DEFAULT;
  const raw = readOptionsFile(`${dataDir}/options.json`);
  const supervisor = new SupervisorClient(io.env[SUPERVISOR_URL_ENV] || SUPERVISOR_URL_DEFAULT, token);
  let answers;
  try {
    const [info, mqtt, core] = [await supervisor.info(), await supervisor.mqttService(), await supervisor.coreConfig()];
    answers = { info, mqtt, core };
  } catch (err) {
    if (err instanceof SupervisorError) throw new CommandError(err.message);
    throw err;
  }
  let sources;
  try {
    sources = addonConfigSources(raw, answers, dataDir);
  } catch (err) {
    if (err instanceof AddonOptionsError) throw new ConfigError(err.problems);
    throw err;
  }
  // A config file named in the environment would be ignored (the options replace it): leave it out.
  const { MOWABILITY_CONFIG: _ignored, ...env } = io.env;
  const config = loadConfig({
    env: { ...env, ...sources.env },
    values: { origin: 'add-on options', value: sources.value },
    units: stationUnitConfigs(),
  });
  const { info, mqtt, core } = answers;
  return runDaemon(config, io, {
    // API keys are for /v1/calculate only; inside Home Assistant the page needs none.
    keyCommandHint: 'the add-on needs no API key for its page; for /v1/calculate see the add-on documentation',
    started: (logger) => {
      logger.info(
        {
          homeassistant: info.homeassistant,
          arch: info.arch,
          broker: `${mqtt.host}:${mqtt.port}`,
          brokerUser: mqtt.username,
          timeZone: core.timeZone,
          unitSystem: core.unitSystem,
          stations: config.stations.map((station) => station.id),
        },
        "Home Assistant add-on: broker from the Supervisor's MQTT service, home and time zone from Home Assistant (it shows our metric values in its own units)",
      );
      if (sources.ignored.length > 0) logger.warn({ options: sources.ignored }, 'add-on options this version does not know are ignored');
    },
  });
}
