import { configFileFrom } from '../../config/load.js';
import { startDaemon } from '../../daemon.js';
import { MFI_VERSION } from '../../core/version.js';
import { createAccessLogger, createLogger } from '../../util/logger.js';
import { packageVersion } from '../../util/packageVersion.js';
import { expectPositionals, parseCommand } from '../args.js';
import { configFor } from '../context.js';
import { keyCommandHint as keyHint } from '../keyHint.js';
import { EXIT_FAILURE, EXIT_OK, type CliIo } from '../io.js';
import { HELP } from '../help.js';

const COMMAND = 'serve';
/** Graceful stop budget; systemd's default TimeoutStopSec (90 s) is far above it. */
export const FORCED_EXIT_AFTER_MS = 5000;

export async function serveCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(COMMAND, argv);
  if (parsed.help) {
    io.stdout(`${HELP.serve}\n`);
    return EXIT_OK;
  }
  expectPositionals(COMMAND, parsed.positionals, []);
  const config = configFor(parsed, io);
  const logger = createLogger({ level: config.log.level });
  // First line of every start: what runs, for bug reports and after upgrades.
  logger.info({ version: packageVersion(), mfi_version: MFI_VERSION, node: process.version }, 'mowability starting');

  // Only the config file and the database path go into the hint: other flags may carry
  // secrets (a broker URL with a password).
  const keyCommandHint = keyHint({
    configFile: configFileFrom({ argv: parsed.configArgv, env: io.env }),
    dbPath: config.db.path,
    cwd: process.cwd(),
    underSystemd: Boolean(io.env.INVOCATION_ID),
  });

  // Listen for SIGTERM/SIGINT before starting: a signal that arrives while the
  // components start is answered with a graceful stop once they are up.
  const shutdownSignal = io.shutdownSignal();
  // The access lines' own logger writes in blocks (src/util/logger.ts), at the main logger's level.
  const accessLogger = createAccessLogger({ level: logger.level });
  const daemon = await startDaemon({ config, logger, accessLogger, keyCommandHint });
  const reason = await shutdownSignal;
  if (typeof reason === 'string') logger.info({ signal: reason }, 'stopping');
  else logger.fatal({ err: reason.error, origin: reason.origin }, `${reason.origin}: stopping the daemon (a bug: please report it with this log)`);
  const forced = setTimeout(() => {
    logger.error({ afterMs: FORCED_EXIT_AFTER_MS }, 'graceful stop took too long; exiting');
    io.forceExit(1);
  }, FORCED_EXIT_AFTER_MS);
  try {
    await daemon.stop();
  } finally {
    clearTimeout(forced);
  }
  return typeof reason === 'string' ? EXIT_OK : EXIT_FAILURE;
}
