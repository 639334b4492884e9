/**
 * `mowability mowed STATION [--lawn ID] [--at TIME]`: records a cut in the daemon's database (lawn_cuts).
 * A running daemon notices within lawnMemory.pollSeconds (default 5 s) and resets the lawn's growth. A
 * station's first lawn is the station's cut; a further lawn's is kept under its id (src/lawn/lawnCutBook.ts).
 */
import { expectPositionals, parseCommand, printedHelp } from '../args.js';
import { configFor, printJson } from '../context.js';
import { CommandError, EXIT_OK, UsageError, type CliIo } from '../io.js';
import { HELP } from '../help.js';
import { lawnMemorySettingsOf } from '../../lawn/buildLawnUnit.js';
import { LawnMemoryStore } from '../../store/lawnMemoryStore.js';
import { stationLawns, type LawnConfig } from '../../lawn/lawnsConfig.js';
import { unitSliceOf } from '../../ingest/types.js';
import { cutTimeProblem, parseMowedPayload } from '../../lawn/mowedPayload.js';
import { Database } from '../../store/database.js';
import { systemClock } from '../../util/clock.js';

const COMMAND = 'mowed';

export async function mowedCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(COMMAND, argv, { at: { type: 'string' }, lawn: { type: 'string' }, json: { type: 'boolean' } });
  if (printedHelp(parsed, io, HELP.mowed)) return EXIT_OK;
  const [station] = expectPositionals(COMMAND, parsed.positionals, ['STATION']);
  const config = configFor(parsed, io, { secretsOptional: true });
  const known = config.stations.map((candidate) => candidate.id);
  if (!known.includes(station!)) {
    throw new CommandError(
      `unknown station "${station}" (configured: ${known.length > 0 ? known.join(', ') : 'none; add it to "stations"'})`,
    );
  }
  const configured = config.stations.find((candidate) => candidate.id === station)!;
  const lawns = stationLawns({ ...configured, lawns: unitSliceOf(configured, 'lawns') as LawnConfig[] | undefined });
  const lawnId = typeof parsed.values.lawn === 'string' ? parsed.values.lawn : undefined;
  const lawn = lawnId === undefined ? lawns[0]! : lawns.find((candidate) => candidate.id === lawnId);
  if (!lawn)
    throw new UsageError(COMMAND, `--lawn: "${lawnId}" is not a lawn of "${station}" (its lawns: ${lawns.map(({ id }) => id).join(', ')})`);
  const nowMs = systemClock.now();
  const at = typeof parsed.values.at === 'string' ? parsed.values.at : 'now';
  const report = parseMowedPayload(at);
  if (!report.ok) throw new UsageError(COMMAND, `--at: ${report.reason.replace('expected empty, ', 'expected ')}`);
  const atMs = report.atMs ?? nowMs;
  const problem = cutTimeProblem(atMs, nowMs);
  if (problem) throw new UsageError(COMMAND, `--at: ${problem}`);
  const database = await Database.open(config.db.path, { create: false });
  try {
    await new LawnMemoryStore(database).saveCut({ station: lawn.primary ? station! : lawn.id, atMs, source: 'cli' }, nowMs);
  } finally {
    await database.close();
  }
  const iso = new Date(atMs).toISOString();
  const what = lawn.primary ? `"${station}"` : `the lawn "${lawn.id}" of "${station}"`;
  if (parsed.values.json === true) printJson(io, { station, ...(!lawn.primary && { lawn: lawn.id }), last_cut_at: iso });
  else
    io.stdout(`Recorded a cut of ${what} at ${iso}; a running daemon picks it up within ${lawnMemorySettingsOf(config).pollSeconds} s.\n`);
  return EXIT_OK;
}
