import { existsSync } from 'node:fs';
import { expectPositionals, parseCommand } from '../args.js';
import { configFor, printJson } from '../context.js';
import { EXIT_OK, type CliIo } from '../io.js';
import { HELP } from '../help.js';
import { Database } from '../../store/database.js';
import { readStatus, renderStatus, type StatusReport } from '../statusReport.js';
import { escapeTerminalText } from '../terminalText.js';

const COMMAND = 'status';

/** What the daemon sees, read from its database; works while it runs (SQLite WAL readers do not block it). */
export async function statusCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(COMMAND, argv, { json: { type: 'boolean' } });
  if (parsed.help) {
    io.stdout(`${HELP.status}\n`);
    return EXIT_OK;
  }
  expectPositionals(COMMAND, parsed.positionals, []);
  const config = configFor(parsed, io, { secretsOptional: true });
  let report: StatusReport;
  if (!existsSync(config.db.path)) {
    report = { database: config.db.path, database_exists: false, stations: [], unconfigured_with_history: [], unmatched_uploads: [] };
  } else {
    const database = await Database.open(config.db.path, { create: false });
    try {
      report = await readStatus(database, config.db.path, config.stations);
    } finally {
      await database.close();
    }
  }
  if (parsed.values.json === true) printJson(io, report);
  else io.stdout(renderStatus(report, Date.now()).split('\n').map(escapeTerminalText).join('\n'));
  return EXIT_OK;
}
