/** Dispatches `mowability <command>` and maps failures to exit codes. */
import { ConfigError } from '../config/load.js';
import { DatabaseInUseError } from '../store/serveLock.js';
import { HELP } from './help.js';
import { packageVersion } from '../util/packageVersion.js';
import { CommandError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError, type CliIo } from './io.js';

type Command = (argv: readonly string[], io: CliIo) => Promise<number>;

// Each command's module (and what it pulls in) loads only when that command runs: `serve` never
// carries the admin commands' code on its heap, and an admin command loads only what it uses.
const COMMANDS: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./commands/serve.js')).serveCommand,
  addon: async () => (await import('./commands/addon.js')).addonCommand,
  keys: async () => (await import('./commands/keys.js')).keysCommand,
  registrations: async () => (await import('./commands/registrations.js')).registrationsCommand,
  ip: async () => (await import('./commands/ip.js')).ipCommand,
  maintenance: async () => (await import('./commands/maintenance.js')).maintenanceCommand,
  mowed: async () => (await import('./commands/mowed.js')).mowedCommand,
  mower: async () => (await import('./commands/mower.js')).mowerCommand,
  calc: async () => (await import('./commands/calc.js')).calcCommand,
  config: async () => (await import('./commands/config.js')).configCommand,
  status: async () => (await import('./commands/status.js')).statusCommand,
  health: async () => (await import('./commands/health.js')).healthCommand,
  'upload-secret': async () => (await import('./commands/uploadSecret.js')).uploadSecretCommand,
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
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  try {
    if (!load) throw new UsageError('', `unknown command "${name}"`);
    const command = await load();
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
