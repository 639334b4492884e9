import { existsSync } from 'node:fs';
import { expectPositionals, parseCommand, printedHelp } from '../args.js';
import { configFor, printJson } from '../context.js';
import { EXIT_OK, type CliIo } from '../io.js';
import { HELP } from '../help.js';
import { Database } from '../../store/database.js';
import { configFileFrom } from '../../config/load.js';
import {
  askDaemon,
  askMqttHealth,
  databaseWrittenAt,
  type LiveAnswer,
  readStatus,
  renderStatus,
  type StatusReport,
  type StatusStation,
} from '../statusReport.js';
import { escapeTerminalText } from '../terminalText.js';
import { lawnMemorySettingsOf } from '../../lawn/buildLawnUnit.js';
import { nightBanSource } from '../../lawn/zoneLocation.js';
import type { AppConfig } from '../../config/schema.js';

const COMMAND = 'status';

/** What the daemon sees, read from its database; works while it runs (SQLite WAL readers do not block it). */
export async function statusCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(COMMAND, argv, { json: { type: 'boolean' } });
  if (printedHelp(parsed, io, HELP.status)) return EXIT_OK;
  expectPositionals(COMMAND, parsed.positionals, []);
  const config = configFor(parsed, io, { secretsOptional: true });
  const [live, mqtt] = await Promise.all([askDaemon(config), askMqttHealth(config)]);
  // Without a configuration file the stations are the running daemon's, or else the database's.
  const configGiven = configFileFrom({ argv: parsed.configArgv, env: io.env }) !== undefined || config.stations.length > 0;
  const stations: readonly StatusStation[] =
    configGiven || !live.ok
      ? config.stations
      : live.stations.map(({ id, name }) => ({ id, name, format: "see the daemon's configuration" }));
  let report: StatusReport;
  if (!existsSync(config.db.path)) {
    report = { database: config.db.path, database_exists: false, stations: [], unconfigured_with_history: [], unmatched_uploads: [] };
  } else {
    const database = await Database.open(config.db.path, { create: false });
    try {
      report = await readStatus(database, config.db.path, stations, { databaseStations: !configGiven });
    } finally {
      await database.close();
    }
  }
  report = { ...withNightBan(withLive(report, live, configGiven), config), ...(mqtt ? { mqtt } : {}) };
  if (parsed.values.json === true) printJson(io, report);
  else io.stdout(renderStatus(report, Date.now(), config.timezone).split('\n').map(escapeTerminalText).join('\n'));
  return EXIT_OK;
}

/** The report with the daemon's live values per station, or the database's age when it did not answer. */
function withLive(report: StatusReport, live: LiveAnswer, configGiven: boolean): StatusReport {
  const note = configGiven
    ? {}
    : {
        note: 'No configuration file given (--config or MOWABILITY_CONFIG): the stations listed are the ones the daemon or its database knows.',
      };
  if (!live.ok)
    return {
      ...report,
      source: 'database',
      daemon: { url: live.url, answered: false, reason: live.reason },
      database_written_at: databaseWrittenAt(report.database),
      ...note,
    };
  const byId = new Map(live.stations.map((station) => [station.id, station]));
  return {
    ...report,
    source: 'daemon',
    daemon: { url: live.url, answered: true },
    ...note,
    stations: report.stations.map((station) => {
      const now = byId.get(station.id);
      if (!now) return station;
      const { index, status, mowable, mowable_reason, last_reading_at, availability, topics_heard, forecast_problem, plan_notify } = now;
      return {
        ...station,
        live: {
          index,
          status,
          mowable,
          mowable_reason,
          last_reading_at,
          availability,
          ...(topics_heard ? { topics_heard } : {}),
          ...(forecast_problem ? { forecast_problem } : {}),
          ...(plan_notify ? { plan_notify } : {}),
        },
      };
    }),
  };
}

/** Where each configured station's night ban takes its sun from (none with the lawn memory off). */
function withNightBan(report: StatusReport, config: AppConfig): StatusReport {
  const lawn = lawnMemorySettingsOf(config);
  if (!lawn.enabled) return report;
  const options = { nightBan: lawn.nightBan, zoneLocation: lawn.nightBanZoneLocation, timeZone: config.timezone };
  const configured = new Map(config.stations.map((station) => [station.id, station]));
  return {
    ...report,
    stations: report.stations.map((station) => {
      const known = configured.get(station.id);
      return known ? { ...station, night_ban: nightBanSource(options, known.location) } : station;
    }),
  };
}
