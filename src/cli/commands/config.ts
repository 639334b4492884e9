import { redactConfig } from '../../config/load.js';
import { listSettings } from '../../config/schema.js';
import { expectPositionals, parseCommand } from '../args.js';
import { configFor, printJson } from '../context.js';
import { EXIT_OK, type CliIo } from '../io.js';
import { HELP } from '../help.js';

const COMMAND = 'config';

export async function configCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(COMMAND, argv);
  if (parsed.help) {
    const flags = listSettings()
      .filter(({ spec }) => spec.arg)
      .map(({ key, spec }) => `  --${spec.arg}`.padEnd(32) + `${key} (${spec.env ?? 'no env'})`)
      .join('\n');
    io.stdout(`${HELP.config?.replace('@SETTINGS@', flags)}\n`);
    return EXIT_OK;
  }
  expectPositionals(COMMAND, parsed.positionals, []);
  printJson(io, redactConfig(configFor(parsed, io)));
  return EXIT_OK;
}
