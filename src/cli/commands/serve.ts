import { configFileFrom } from '../../config/load.js';
import type { AppConfig } from '../../config/schema.js';
import { startDaemon } from '../../daemon.js';
import { MFI_VERSION } from '../../core/version.js';
import { createAccessLogger, createLogger } from '../../util/logger.js';
import type { Logger } from 'pino';
import type { DeprecatedSettingUse } from '../../config/settingAliases.js';
import { packageVersion } from '../../util/packageVersion.js';
import { expectPositionals, parseCommand, printedHelp } from '../args.js';
import { loadedConfigFor } from '../context.js';
import { EXIT_FAILURE, EXIT_OK, type CliIo } from '../io.js';
import { HELP } from '../help.js';
import { isAbsolute, resolve } from 'node:path';
import { shellQuote } from '../../util/shellQuote.js';

/*
 * The command that the daemon's first start suggests for creating an API key. It must reach the
 * daemon's own key store whatever put it there (a --config file, MOWABILITY_DB_PATH, a flag, a
 * relative path resolved against the daemon's working directory), so it names the absolute path.
 * Under systemd the service's database belongs to its dynamic user: there the hint names the
 * `mowability` wrapper (systemd/mowability), which runs the CLI as that user with the unit's
 * environment. In a container the CLI runs inside it (`docker exec`, which has the container's
 * environment; README, "Docker"). With store.kind postgres the keys live in PostgreSQL: a command
 * started by hand needs the store's kind and URL (the URL is a secret: the hint names the setting).
 */
export interface KeyHintInput {
  /** The --config file or MOWABILITY_CONFIG, if any. */
  configFile?: string;
  /** db.path as configured (may be relative). */
  dbPath: string;
  /** The daemon's working directory, against which a relative db.path is opened. */
  cwd: string;
  /** systemd sets INVOCATION_ID for every unit it runs. */
  underSystemd: boolean;
  /** Our image in Docker or podman (the setting container.image, which the Dockerfile sets). */
  inContainer?: boolean;
  /** store.kind: where the keys live. */
  storeKind?: 'sqlite' | 'postgres';
}

/** The wrapper's name once installed (README: "Install on a Raspberry Pi"). */
export const SERVICE_WRAPPER_COMMAND = 'sudo mowability';

/** The CLI inside the image (Dockerfile: WORKDIR /app); the container's name is the user's. */
export const CONTAINER_CLI_COMMAND = 'docker exec <container> node dist/cli/main.js';

export function keyCommandHint(input: KeyHintInput): string {
  if (input.underSystemd) return `${SERVICE_WRAPPER_COMMAND} keys add <owner>`;
  const absolute = (path: string) => (isAbsolute(path) ? path : resolve(input.cwd, path));
  const store =
    input.storeKind === 'postgres'
      ? // In a container the environment has the store already; by hand the URL must be given like the daemon's.
        input.inContainer
        ? []
        : ['--store-kind=postgres', "'--store-url=<store.url as the daemon has it>'"]
      : [shellQuote(`--db-path=${absolute(input.dbPath)}`)];
  return [
    `${input.inContainer ? CONTAINER_CLI_COMMAND : 'npx mowability'} keys add <owner>`,
    ...(input.configFile ? [`--config ${shellQuote(absolute(input.configFile))}`] : []),
    ...store,
  ].join(' ');
}

/** The first start's key hint for this daemon: its configuration, the environment it was started with, its working directory. */
export function daemonKeyHint(config: AppConfig, configFile: string | undefined, env: NodeJS.ProcessEnv, cwd: string): string {
  return keyCommandHint({
    configFile,
    dbPath: config.db.path,
    cwd,
    underSystemd: Boolean(env.INVOCATION_ID),
    // Our image says so itself (Dockerfile: ENV MOWABILITY_CONTAINER_IMAGE): any other container keeps the ordinary hint.
    inContainer: config.container.image,
    storeKind: config.store.kind,
  });
}

const COMMAND = 'serve';
/** Graceful stop budget; systemd's default TimeoutStopSec (90 s) is far above it. */
export const FORCED_EXIT_AFTER_MS = 5000;

export async function serveCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(COMMAND, argv);
  if (printedHelp(parsed, io, HELP.serve)) return EXIT_OK;
  expectPositionals(COMMAND, parsed.positionals, []);
  const { config, deprecated, unreadEnvironment } = loadedConfigFor(parsed, io);
  // Only the config file and the database path go into the hint: other flags may carry
  // secrets (a broker URL with a password).
  const hint = daemonKeyHint(config, configFileFrom({ argv: parsed.configArgv, env: io.env }), io.env, process.cwd());
  return runDaemon(config, io, { keyCommandHint: hint, deprecatedSettings: deprecated, unreadEnvironment });
}

/** Starts the daemon with a loaded configuration and runs it until a signal (serve, and the Home Assistant add-on). */
export async function runDaemon(
  config: AppConfig,
  io: CliIo,
  options: {
    keyCommandHint: string;
    started?: (logger: Logger) => void;
    deprecatedSettings?: readonly DeprecatedSettingUse[];
    unreadEnvironment?: readonly string[];
  },
): Promise<number> {
  const logger = createLogger({ level: config.log.level });
  // First line of every start: what runs, for bug reports and after upgrades.
  logger.info({ version: packageVersion(), mfi_version: MFI_VERSION, node: process.version }, 'mowability starting');
  options.started?.(logger);
  const hint = options.keyCommandHint;

  // Listen for SIGTERM/SIGINT before starting: a signal that arrives while the
  // components start is answered with a graceful stop once they are up.
  const shutdownSignal = io.shutdownSignal();
  // The access lines' own logger writes in blocks (src/util/logger.ts), at the main logger's level.
  const accessLogger = createAccessLogger({ level: logger.level });
  const daemon = await startDaemon({
    config,
    logger,
    accessLogger,
    keyCommandHint: hint,
    deprecatedSettings: options.deprecatedSettings ?? [],
    unreadEnvironment: options.unreadEnvironment ?? [],
  });
  const reason = await shutdownSignal;
  if (typeof reason === 'string') logger.info({ signal: reason }, 'stopping');
  else
    logger.fatal(
      { err: reason.error, origin: reason.origin },
      `${reason.origin}: stopping the daemon (a bug: please report it with this log)`,
    );
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
