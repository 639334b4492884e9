/**
 * `mowability mower STATION [--lawn ID] [--json]`: the mower control's run ledger of a station's first
 * lawn, or of a further lawn with its own mower (docs/mower.md): today's runs and the last ones, read
 * from the daemon's database (mower_runs, by lawn).
 */
import { expectPositionals, parseCommand, printedHelp } from '../args.js';
import { configFor, printJson } from '../context.js';
import { CommandError, EXIT_OK, UsageError, type CliIo } from '../io.js';
import { HELP } from '../help.js';
import { isPlainObject } from '../../ingest/stationConfig.js';
import { unitSliceOf } from '../../ingest/types.js';
import { stationLawns, type LawnConfig } from '../../lawn/lawnsConfig.js';
import { controlConfigOf } from '../../mower/controlConfig.js';
import { runView } from '../../mower/mowerRoute.js';
import { RunLedger } from '../../mower/runLedger.js';
import { Database } from '../../store/database.js';
import { MowerRunStore } from '../../store/mowerRunStore.js';
import { calendarDay } from '../../util/calendarDay.js';
import { systemClock } from '../../util/clock.js';

const COMMAND = 'mower';
const SHOWN = 14;

export async function mowerCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(COMMAND, argv, { json: { type: 'boolean' }, lawn: { type: 'string' } });
  if (printedHelp(parsed, io, HELP.mower)) return EXIT_OK;
  const [stationId] = expectPositionals(COMMAND, parsed.positionals, ['STATION']);
  const config = configFor(parsed, io, { secretsOptional: true });
  const station = config.stations.find((candidate) => candidate.id === stationId);
  if (!station)
    throw new CommandError(
      `unknown station "${stationId}" (configured: ${config.stations.map((candidate) => candidate.id).join(', ') || 'none'})`,
    );
  const lawns = stationLawns({ ...station, lawns: unitSliceOf(station, 'lawns') as LawnConfig[] | undefined });
  const lawnId = typeof parsed.values.lawn === 'string' ? parsed.values.lawn : undefined;
  const lawn = lawnId === undefined ? lawns[0]! : lawns.find((candidate) => candidate.id === lawnId);
  if (!lawn)
    throw new UsageError(
      COMMAND,
      `--lawn: "${lawnId}" is not a lawn of "${stationId}" (its lawns: ${lawns.map(({ id }) => id).join(', ')})`,
    );
  // The station's mower block is its first lawn's (else the first lawn's own); a further lawn's is its own.
  const mower = lawn.primary ? (unitSliceOf(station, 'mower') ?? lawn.mower) : lawn.mower;
  const raw = isPlainObject(mower) && isPlainObject(mower.control) ? mower.control : undefined;
  if (!raw)
    throw new CommandError(
      lawn.primary
        ? `station "${stationId}" has no mower.control block (docs/mower.md)`
        : `the lawn "${lawn.id}" of "${stationId}" has no mower.control block (lawns[].mower.control, docs/mower.md)`,
    );
  const control = controlConfigOf(raw, lawn.id);
  const nowMs = systemClock.now();
  const database = await Database.open(config.db.path, { create: false });
  const ledger = new RunLedger({ store: new MowerRunStore(database), lawn: control.lawn, station: station.id, timeZone: config.timezone });
  try {
    await ledger.load(nowMs);
  } finally {
    await database.close();
  }
  const today = calendarDay(nowMs, config.timezone);
  const runs = ledger.runs.slice(-SHOWN).reverse().map(runView);
  const todays = ledger.runs.filter((run) => calendarDay(run.startMs, config.timezone) === today).map(runView);
  if (parsed.values.json === true) {
    printJson(io, { station: station.id, lawn: control.lawn, enabled: control.enabled, dry_run: control.dryRun, today: todays, runs });
    return EXIT_OK;
  }
  const mode = !control.enabled ? 'off' : control.dryRun ? 'dry run (sends nothing)' : 'on';
  io.stdout(`Mower control of "${station.id}" (lawn "${control.lawn}", ${control.kind}): ${mode}\n`);
  io.stdout(`Today (${today}): ${todays.length === 0 ? 'no run' : `${todays.length} run(s)`}\n`);
  if (runs.length === 0) io.stdout('No runs recorded yet.\n');
  for (const run of runs) {
    const end = run.ended_at === null ? 'still running' : `until ${run.ended_at}`;
    io.stdout(
      `  ${run.started_at} ${end}, ${run.mowing_minutes} min mowing, started by ${run.started_by}, ${run.outcome ?? 'open'}${run.reason === null ? '' : `: ${run.reason}`}\n`,
    );
  }
  return EXIT_OK;
}
