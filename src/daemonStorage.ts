/**
 * The daemon's storage parts, opened first by startDaemon() (src/daemon.ts), each returning what
 * the later parts use: the serve lock, the SQLite database and its service store, the API-key
 * cache, and the typed stores the station units keep their rows in (unitStoresOn). Parts beyond a
 * home install (the public service, src/publicService/: PostgreSQL, Redis, per-key usage,
 * registration) plug in as a `ServiceExtension`, listed in src/daemon.ts.
 */
import type { Logger } from 'pino';
import type { AppConfig } from './config/schema.js';
import { MFI_VERSION } from './core/index.js';
import type { AppDeps } from './http/app.js';
import { AccessCache } from './store/accessCache.js';
import { Database } from './store/database.js';
import { DatabaseWatch } from './store/databaseWatch.js';
import { ForecastStore } from './store/forecastStore.js';
import { LawnMemoryStore } from './store/lawnMemoryStore.js';
import { LawnPlanStore } from './store/lawnPlanStore.js';
import { MowerRunStore } from './store/mowerRunStore.js';
import { migrationsAppliedSince } from './store/migrationLog.js';
import { ServeLock } from './store/serveLock.js';
import { ServiceStore, SETTING_MFI_VERSION } from './store/serviceStore.js';
import type { SharedServer } from './store/sharedHealth.js';
import type { SqlDatabase } from './store/sqlDatabase.js';
import type { Clock } from './util/clock.js';
import type { ClockWatch } from './util/clockWatch.js';
import type { LifecycleComponent, StartedStack } from './util/lifecycle.js';

/** One daemon per database: taken before the database opens, released after it closed. */
export function serveLockComponent(dbPath: string): LifecycleComponent {
  let lock: ServeLock | null = null;
  return {
    name: 'serve-lock',
    async start() {
      lock = await ServeLock.acquire(dbPath);
    },
    async stop() {
      await lock?.release();
      lock = null;
    },
  };
}

/** The local SQLite file, watched for write failures; its migrations are logged. */
export interface OpenDatabase {
  readonly database: Database;
  readonly watch: DatabaseWatch;
}

export async function openDatabase(config: AppConfig, logger: Logger, clockWatch?: ClockWatch): Promise<OpenDatabase> {
  // Database.open stamps migrations with the wall clock, so compare against it, not an injected clock.
  const openedAt = new Date().toISOString();
  const database = await Database.open(config.db.path, {
    changeLog: { enabled: config.db.changeLog, foldIntervalMinutes: config.db.changeLogFoldMinutes },
  });
  const finding = database.logFinding;
  if (finding?.kind === 'torn') logger.warn({ path: config.db.path }, finding.message);
  else if (finding) logger.error({ path: config.db.path }, finding.message);
  const watch = new DatabaseWatch({ database, logger });
  watch.start(clockWatch?.onTick);
  for (const migration of await migrationsAppliedSince(database, openedAt)) {
    logger.info(
      { version: migration.version, name: migration.name },
      `database migration ${migration.version} (${migration.name}) applied`,
    );
  }
  logger.info({ path: config.db.path, mfiVersion: MFI_VERSION }, 'database open');
  return { database, watch };
}

export async function closeDatabase(open: OpenDatabase): Promise<void> {
  open.watch.stop();
  await open.database.close();
}

/** The service tables' store (API keys, registrations, settings), stamped with the MFI version it serves. */
export async function serviceStoreOn(database: SqlDatabase, clock: Clock): Promise<ServiceStore> {
  const store = new ServiceStore(database, clock);
  await store.setSetting(SETTING_MFI_VERSION, MFI_VERSION);
  return store;
}

/** The station units' own tables, each behind its typed store; the composition root wires each into its module (src/daemon.ts). */
export interface UnitStores {
  readonly forecasts: ForecastStore;
  readonly lawnMemory: LawnMemoryStore;
  readonly lawnPlans: LawnPlanStore;
  readonly mowerRuns: MowerRunStore;
}

/** The units' stores on the daemon's database (the forecast cache's saves join the history's commit, as before). */
export function unitStoresOn(database: Database): UnitStores {
  return Object.freeze({
    forecasts: new ForecastStore(database),
    lawnMemory: new LawnMemoryStore(database),
    lawnPlans: new LawnPlanStore(database),
    mowerRuns: new MowerRunStore(database),
  });
}

export interface KeyStorage {
  readonly serviceDatabase: SqlDatabase;
  readonly store: ServiceStore;
  readonly config: AppConfig;
  readonly logger: Logger;
  readonly clock: Clock;
}

/** The API keys in memory, kept current by polling (or NOTIFY); warns when none exists yet. */
export async function startAccessCache(parts: KeyStorage, keyCommandHint: string, clockWatch?: ClockWatch): Promise<AccessCache> {
  const access = new AccessCache({
    database: parts.serviceDatabase,
    store: parts.store,
    logger: parts.logger,
    pollIntervalMs: parts.config.db.changePollIntervalMs,
    ...(clockWatch ? { ticks: clockWatch.onTick } : {}),
    now: () => parts.clock.now(),
  });
  await access.start();
  if (access.keyCount === 0) parts.logger.warn({ command: keyCommandHint }, `No API key exists yet. Create one with: ${keyCommandHint}`);
  return access;
}

/** What a part beyond a home install opens its servers with. */
export interface ExtensionCore {
  readonly config: AppConfig;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly clockWatch: ClockWatch | undefined;
  readonly database: Database;
}

/** The API keys as started, handed to the extensions after the access cache. */
export interface ExtensionKeys {
  readonly serviceDatabase: SqlDatabase;
  readonly store: ServiceStore;
  readonly sqliteStore: ServiceStore;
  readonly access: AccessCache;
}

/** What an extension adds to the HTTP app, and the shared servers /metrics reports. */
export interface ExtensionDeps {
  readonly app: Partial<AppDeps>;
  readonly sharedServers: () => SharedServer[];
}

export interface OpenedExtension {
  /** Where the service tables live instead of the SQLite file (PostgreSQL), if the extension moves them. */
  readonly serviceDatabase: SqlDatabase | undefined;
  withKeys(keys: ExtensionKeys): Promise<ExtensionDeps>;
}

/**
 * A part beyond a home install (the public service, src/publicService/plug.ts): it opens its parts on
 * the daemon's stack (so they stop in reverse) after the database and before the API keys, and adds
 * its parts once the keys run.
 */
export interface ServiceExtension {
  open(parts: StartedStack, core: ExtensionCore): Promise<OpenedExtension>;
  /** What it offers the command line (src/cli/): the same plug, so its commands go with it. */
  readonly commands?: ExtensionCommands;
}

/** A registration as `mowability registrations` shows it. */
export interface RegistrationRow {
  readonly id: number;
  readonly status: string;
  readonly name: string;
  readonly email: string;
  readonly usageKind: string;
  readonly intendedUse: string;
  readonly clientAddress: string;
  readonly createdAt: string;
  readonly expiresAt: string;
  readonly decidedAt: string | null;
  readonly reason: string | null;
  readonly note: string | null;
  readonly keyId: number | null;
}

/** Done, or refused for a reason the operator fixes (a registration that is not pending). */
export type ReviewOutcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: string };

/** The key requests an operator reviews (`mowability registrations`). */
export interface RegistrationReview {
  list(options: { pending?: boolean }): Promise<RegistrationRow[]>;
  approve(
    id: number,
    nowMs: number,
    options: { allowGet?: boolean; note?: string },
  ): Promise<ReviewOutcome<{ keyId: number; owner: string }>>;
  reject(id: number, nowMs: number, reason?: string): Promise<ReviewOutcome<undefined>>;
  purge(olderThanMs: number, nowMs: number): Promise<number>;
}

/** The command line's part of an extension. */
export interface ExtensionCommands {
  /** The service tables' database for a one-shot command when not the SQLite file (PostgreSQL with store.kind postgres). */
  readonly openServiceDatabase?: (config: AppConfig) => Promise<SqlDatabase | undefined>;
  /** The registrations on the service tables' database. */
  readonly registrations?: (database: SqlDatabase) => RegistrationReview;
}

/** The command-line parts of the listed extensions, the first that offers each (none on a home install). */
export function commandPartsOf(extensions: readonly ServiceExtension[]): ExtensionCommands {
  const parts = extensions.flatMap((extension) => (extension.commands ? [extension.commands] : []));
  const openServiceDatabase = parts.find((part) => part.openServiceDatabase)?.openServiceDatabase;
  const registrations = parts.find((part) => part.registrations)?.registrations;
  return { ...(openServiceDatabase && { openServiceDatabase }), ...(registrations && { registrations }) };
}

/** Opens the listed extensions in order; with none (a home install) the SQLite file holds the service tables. */
export async function openExtensions(
  parts: StartedStack,
  extensions: readonly ServiceExtension[],
  core: ExtensionCore,
): Promise<OpenedExtension> {
  const opened: OpenedExtension[] = [];
  for (const extension of extensions) opened.push(await extension.open(parts, core));
  return {
    serviceDatabase: opened.map((one) => one.serviceDatabase).find((database) => database !== undefined),
    async withKeys(keys) {
      const added: ExtensionDeps[] = [];
      for (const one of opened) added.push(await one.withKeys(keys));
      return {
        app: Object.assign({}, ...added.map((one) => one.app)) as Partial<AppDeps>,
        sharedServers: () => added.flatMap((one) => one.sharedServers()),
      };
    },
  };
}
