/** Dispatches `mowability <command>` and maps failures to exit codes. */
import { ConfigError } from '../config/load.js';
import { DatabaseInUseError } from '../store/serveLock.js';
import { calcCommand } from './commands/calc.js';
import { configCommand } from './commands/config.js';
import { ipCommand } from './commands/ip.js';
import { keysCommand } from './commands/keys.js';
import { registrationsCommand } from './commands/registrations.js';
import { maintenanceCommand } from './commands/maintenance.js';
import { mowedCommand } from './commands/mowed.js';
import { serveCommand } from './commands/serve.js';
import { statusCommand } from './commands/status.js';
import { uploadSecretCommand } from './commands/uploadSecret.js';
import { HELP } from './help.js';
import { packageVersion } from '../util/packageVersion.js';
import { CommandError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError, type CliIo } from './io.js';

type Command = (argv: readonly string[], io: CliIo) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  serve: serveCommand,
  keys: keysCommand,
  registrations: registrationsCommand,
  ip: ipCommand,
  maintenance: maintenanceCommand,
  mowed: mowedCommand,
  calc: calcCommand,
  config: configCommand,
  status: statusCommand,
  'upload-secret': uploadSecretCommand,
};

export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(`${HELP.main}\n`);
    return name === undefined ? EXIT_USAGE : EXIT_OK;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    io.stdout(`${packageVersion()}\n`);
    return EXIT_OK;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  try {
    if (!command) throw new UsageError('', `unknown command "${name}"`);
    return await command(rest, io);
  } catch (err) {
    if (err instanceof UsageError) {
      const where = err.command ? `mowability ${err.command}` : 'mowability';
      const helpFor = err.command ? `mowability ${err.command.split(' ')[0]} --help` : 'mowability --help';
      io.stderr(`${where}: ${err.message.replace(/\.+$/, '')}. See "${helpFor}".\n`);
      return EXIT_USAGE;
    }
    if (err instanceof ConfigError) {
      io.stderr(`${err.message}\n`);
      return err.exitCode;
    }
    if (err instanceof DatabaseInUseError) {
      io.stderr(`mowability ${name}: ${err.message}\n`);
      return err.exitCode;
    }
    if (err instanceof CommandError) {
      io.stderr(`mowability ${name}: ${err.message}\n`);
      return EXIT_FAILURE;
    }
    io.stderr(`mowability ${name}: ${(err as Error)?.message ?? String(err)}\n`);
    return EXIT_FAILURE;
  }
}
