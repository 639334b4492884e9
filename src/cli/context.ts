/** Loads configuration and opens the daemon's database for one CLI command. */
import { loadConfiguration, type LoadedConfig } from '../config/load.js';
import { serviceCommands, stationUnitConfigs } from '../daemon.js';
import type { AppConfig } from '../config/schema.js';
import { Database } from '../store/database.js';
import { ServiceStore } from '../store/serviceStore.js';
import type { SqlDatabase } from '../store/sqlDatabase.js';
import { systemClock } from '../util/clock.js';
import type { ParsedCommand } from './args.js';
import { CommandError, type CliIo } from './io.js';
import { terminalJson } from './terminalText.js';

/**
 * The configuration for a command. Only `serve` and `config` check it whole; the others (keys,
 * blocks, maintenance, status, ...) pass `secretsOptional`: they never use the broker's accounts,
 * which under systemd reach the service alone (LoadCredential=), not the admin wrapper.
 */
export function configFor(parsed: ParsedCommand, io: CliIo, options: { secretsOptional?: boolean } = {}): AppConfig {
  return loadedConfigFor(parsed, io, options).config;
}

/** configFor, with the deprecated setting names it was loaded with (`serve` logs them). */
export function loadedConfigFor(parsed: ParsedCommand, io: CliIo, options: { secretsOptional?: boolean } = {}): LoadedConfig {
  // The station units' settings and station keys belong to the configuration (stationUnits() in src/daemon.ts).
  return loadConfiguration({
    argv: parsed.configArgv,
    env: io.env,
    secretsOptional: options.secretsOptional === true,
    units: stationUnitConfigs(),
  });
}

/**
 * Runs `work` against the configured database. Only `keys add` (the first
 * step of a new installation) passes `create`: every other command refuses a
 * missing file, since a wrong path would otherwise act on a new, empty
 * database while the daemon's stays untouched.
 */
export async function withStore<T>(
  parsed: ParsedCommand,
  io: CliIo,
  work: (store: ServiceStore) => Promise<T>,
  options: { create?: boolean } = {},
): Promise<T> {
  return withDatabase(parsed, io, (database) => work(new ServiceStore(database, systemClock)), options);
}

/**
 * Like withStore, for commands that need the database itself and the configuration: the
 * service tables' database, so PostgreSQL with store.kind postgres (the same commands and
 * output; no LISTEN connection for a one-shot command).
 */
export async function withDatabase<T>(
  parsed: ParsedCommand,
  io: CliIo,
  work: (database: SqlDatabase, config: AppConfig) => Promise<T>,
  options: { create?: boolean } = {},
): Promise<T> {
  const config = configFor(parsed, io, { secretsOptional: true });
  // The service tables' database: PostgreSQL through the public service's plug (store.kind postgres), else the SQLite file.
  const shared = await serviceCommands().openServiceDatabase?.(config);
  if (!shared && config.store.kind === 'postgres')
    throw new CommandError('store.kind is "postgres", but this build has no public service to open it: set store.kind to "sqlite"');
  const database: SqlDatabase = shared ?? (await Database.open(config.db.path, { create: options.create ?? false }));
  try {
    return await work(database, config);
  } finally {
    await database.close();
  }
}

/** JSON output; stored free text cannot reach the terminal as control or bidi characters. */
export function printJson(io: CliIo, value: unknown): void {
  io.stdout(`${terminalJson(value)}\n`);
}
