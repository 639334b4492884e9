/**
 * The daemon's storage parts, started first by daemonComponents() (src/daemon.ts): the serve
 * lock, the database, the API-key cache and the per-key usage counts. Each fills its slot of the
 * MutableRuntime for the parts started after it.
 */
import { calculationContext } from './config/calculationContext.js';
import { MFI_VERSION } from './core/index.js';
import type { MutableRuntime } from './daemonRuntime.js';
import { AccessCache } from './store/accessCache.js';
import { Database } from './store/database.js';
import { DatabaseWatch } from './store/databaseWatch.js';
import { ExactKeyUsage } from './store/exactKeyUsage.js';
import { KeyUsage } from './store/keyUsage.js';
import { migrationsAppliedSince } from './store/migrationLog.js';
import { ServeLock } from './store/serveLock.js';
import { ServiceStore, SETTING_MFI_VERSION } from './store/serviceStore.js';
import type { LifecycleComponent } from './util/lifecycle.js';

export function databaseComponent(runtime: MutableRuntime): LifecycleComponent {
  let database: Database | undefined;
  let watch: DatabaseWatch | undefined;
  return {
    name: 'database',
    async start() {
      // Database.open stamps migrations with the wall clock, so compare against it, not runtime.clock.
      const openedAt = new Date().toISOString();
      database = await Database.open(runtime.config.db.path);
      watch = new DatabaseWatch({ database, logger: runtime.logger });
      watch.start();
      runtime.database = database;
      for (const migration of await migrationsAppliedSince(database, openedAt)) {
        runtime.logger.info({ version: migration.version, name: migration.name }, `database migration ${migration.version} (${migration.name}) applied`);
      }
      runtime.serviceDatabase = database;
      runtime.store = new ServiceStore(database, runtime.clock);
      await runtime.store.setSetting(SETTING_MFI_VERSION, MFI_VERSION);
      runtime.logger.info({ path: runtime.config.db.path, mfiVersion: MFI_VERSION }, 'database open');
    },
    async stop() {
      watch?.stop();
      await database?.close();
    },
  };
}

/** One daemon per database: taken before the database opens, released after it closed. */
export function serveLockComponent(runtime: MutableRuntime): LifecycleComponent {
  let lock: ServeLock | null = null;
  return {
    name: 'serve-lock',
    async start() {
      lock = await ServeLock.acquire(runtime.config.db.path);
    },
    async stop() {
      await lock?.release();
      lock = null;
    },
  };
}

export function accessCacheComponent(runtime: MutableRuntime, keyCommandHint: string): LifecycleComponent {
  let access: AccessCache | undefined;
  return {
    name: 'access-cache',
    async start() {
      access = new AccessCache({
        database: runtime.serviceDatabase,
        store: runtime.store,
        logger: runtime.logger,
        pollIntervalMs: runtime.config.db.changePollIntervalMs,
        now: () => runtime.clock.now(),
      });
      await access.start();
      runtime.access = access;
      if (access.keyCount === 0) {
        runtime.logger.warn({ command: keyCommandHint }, `No API key exists yet. Create one with: ${keyCommandHint}`);
      }
    },
    async stop() {
      await access?.stop();
    },
  };
}

/**
 * Per-key request counts and the daily quota: counted in memory, written every keys.usageFlushSeconds and on stop
 * (keys.quotaMode shared), or one atomic update per request (exact).
 */
/** Where the key-usage component puts its counter for the HTTP side. */
export interface UsageHolder {
  usage?: KeyUsage | ExactKeyUsage;
}

export function keyUsageComponent(runtime: MutableRuntime, holder: UsageHolder): LifecycleComponent {
  return {
    name: 'key-usage',
    async start() {
      const { config } = runtime;
      const options = {
        database: runtime.serviceDatabase,
        logger: runtime.logger,
        timeZone: calculationContext(config, runtime.clock.now()).timeZone,
        defaultDailyQuota: config.keys.dailyQuota,
        flushIntervalMs: config.keys.usageFlushSeconds * 1000,
      };
      const usage = config.keys.quotaMode === 'exact' ? new ExactKeyUsage(options) : new KeyUsage(options);
      await usage.start(runtime.clock.now());
      runtime.clockWatch?.onStep((step) => void usage.clockStepped(step));
      holder.usage = usage;
    },
    async stop() {
      await holder.usage?.stop();
    },
  };
}
