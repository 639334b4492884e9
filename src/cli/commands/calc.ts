import { FIELD_NAMES, calculate, isSeason } from '../../core/index.js';
import { systemClock } from '../../util/clock.js';
import { expectPositionals, type Options, parseCommand, printedHelp } from '../args.js';
import { configFor, printJson } from '../context.js';
import { CommandError, EXIT_OK, UsageError, type CliIo } from '../io.js';
import { HELP } from '../help.js';
import { calculationContext } from '../../config/calculationContext.js';

const COMMAND = 'calc';

export async function calcCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const fieldOptions: Options = { season: { type: 'string' } };
  for (const name of FIELD_NAMES) fieldOptions[name] = { type: 'string' };
  const parsed = parseCommand(COMMAND, argv, fieldOptions);
  if (printedHelp(parsed, io, HELP.calc)) return EXIT_OK;
  expectPositionals(COMMAND, parsed.positionals, []);
  const season = parsed.values.season;
  if (season !== undefined && !isSeason(season)) {
    throw new UsageError(COMMAND, `--season must be spring, summer, autumn or winter, got "${String(season)}"`);
  }
  const config = configFor(parsed, io, { secretsOptional: true });
  const input: Record<string, unknown> = {};
  for (const name of FIELD_NAMES) if (parsed.values[name] !== undefined) input[name] = parsed.values[name];
  const outcome = calculate(input, calculationContext(config, systemClock.now(), { forcedSeason: isSeason(season) ? season : undefined }));
  if (!outcome.ok) throw new CommandError(outcome.error.message);
  printJson(io, outcome.result);
  return EXIT_OK;
}
