/**
 * The daemon's storage parts, opened first by startDaemon() (src/daemon.ts), each returning what
 * the later parts use: the serve lock, the SQLite database and its service store, the shared
 * servers of a multi-instance public service (PostgreSQL for the service tables with store.kind
 * postgres, Redis for the rate limit with http.rateLimitStore: docs/deployment.md; none for a
 * home install), the API-key cache and the per-key usage counts.
 */
import type { Logger } from 'pino';
import { calculationContext } from './config/calculationContext.js';
import type { AppConfig } from './config/schema.js';
import { MFI_VERSION } from './core/index.js';
import type { AppDeps } from './http/app.js';
import { AccessCache } from './store/accessCache.js';
import { Database } from './store/database.js';
import { DatabaseWatch } from './store/databaseWatch.js';
import { ExactKeyUsage } from './publicService/exactKeyUsage.js';
import { KeyUsage } from './publicService/keyUsage.js';
import { migrationsAppliedSince } from './store/migrationLog.js';
import { PgDatabase } from './publicService/postgres/pgDatabase.js';
import { RedisConnection } from './publicService/redisClient.js';
import { ServeLock } from './store/serveLock.js';
import { ServiceStore, SETTING_MFI_VERSION } from './store/serviceStore.js';
import { SharedCommit } from './store/sharedCommit.js';
import { sharedStatus, type SharedServer } from './store/sharedHealth.js';
import type { SqlDatabase } from './store/sqlDatabase.js';
import type { Clock } from './util/clock.js';
import type { ClockWatch } from './util/clockWatch.js';
import type { LifecycleComponent } from './util/lifecycle.js';

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
  const database = await Database.open(config.db.path);
  const watch = new DatabaseWatch({ database, logger });
  watch.start(clockWatch?.onTick);
  for (const migration of await migrationsAppliedSince(database, openedAt)) {
    logger.info({ version: migration.version, name: migration.name }, `database migration ${migration.version} (${migration.name}) applied`);
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

/** store.kind postgres: the service tables move to PostgreSQL (opened after the SQLite database). */
export async function openSharedStore(config: AppConfig, logger: Logger): Promise<PgDatabase> {
  const { store } = config;
  const pg = await PgDatabase.open({
    connectionString: store.url,
    logger,
    poolSize: store.poolSize,
    rereadMs: store.rereadSeconds * 1000,
    queryTimeoutMs: store.queryTimeoutMs,
    connectTimeoutMs: store.connectTimeoutMs,
  });
  logger.info({ poolSize: store.poolSize }, 'service tables in PostgreSQL (store.kind postgres)');
  return pg;
}

/** http.rateLimitStore: rate-limit counters in Redis, shared by every instance. */
export async function connectRateLimitStore(config: AppConfig, logger: Logger): Promise<RedisConnection> {
  const redis = new RedisConnection(config.http.rateLimitStore, logger, { commandTimeoutMs: config.http.rateLimitStoreTimeoutMs });
  try {
    await redis.connect();
  } catch (err) {
    await redis.close();
    throw new Error(`Redis (http.rateLimitStore) cannot be reached: ${err instanceof Error ? err.message : String(err)}`);
  }
  logger.info('rate-limit counters in Redis (http.rateLimitStore)');
  return redis;
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

/**
 * Per-key request counts and the daily quota: counted in memory, written every keys.usageFlushSeconds and on stop
 * (keys.quotaMode shared; in the history's commits when it runs on SQLite), or one atomic update per request (exact).
 */
export async function startKeyUsage(parts: KeyStorage, clockWatch: ClockWatch | undefined): Promise<KeyUsage | ExactKeyUsage> {
  const { config, clock } = parts;
  const options = {
    database: parts.serviceDatabase,
    logger: parts.logger,
    timeZone: calculationContext(config, clock.now()).timeZone,
    defaultDailyQuota: config.keys.dailyQuota,
    flushIntervalMs: config.keys.usageFlushSeconds * 1000,
  };
  // On the daemon's SQLite file the counts join the history's commits (./store/sharedCommit.ts); PostgreSQL keeps its own.
  const sharedCommit = parts.serviceDatabase instanceof Database ? SharedCommit.of(parts.serviceDatabase) : undefined;
  const usage = config.keys.quotaMode === 'exact' ? new ExactKeyUsage(options) : new KeyUsage({ ...options, sharedCommit });
  await usage.start(clock.now());
  clockWatch?.onStep((step) => void usage.clockStepped(step));
  return usage;
}

export interface SharedServers {
  readonly database: Database;
  readonly store: ServiceStore;
  readonly access: AccessCache;
  readonly pg?: PgDatabase | undefined;
  readonly redis?: RedisConnection | undefined;
  readonly config: AppConfig;
  readonly clock: Clock;
}

/**
 * buildApp's inputs for the stores. With PostgreSQL, health's database check reads the local
 * SQLite file and the maintenance flag comes from the access cache (kept current by NOTIFY), so
 * a PostgreSQL failover shows in checks.store and fails health only after the grace.
 */
export function storeAppDeps(parts: SharedServers): Pick<AppDeps, 'store' | 'sharedStores' | 'rateLimitRedis'> {
  const { pg, redis } = parts;
  if (!pg && !redis) return { store: parts.store };
  const local = new ServiceStore(parts.database, parts.clock);
  const graceMs = parts.config.store.outageGraceSeconds * 1000;
  // One probe at a time: health requests arriving while one runs (a stalled server: up to its timeout) wait for it.
  let probing: Promise<unknown> | undefined;
  const probe = (): Promise<unknown> =>
    (probing ??= Promise.all([pg?.get('SELECT 1').catch(() => undefined), redis?.probe()]).finally(() => {
      probing = undefined;
    }));
  return {
    store: pg ? { healthProbe: async () => ({ ...(await local.healthProbe()), maintenance: parts.access.maintenance }) } : parts.store,
    sharedStores: async () => {
      // A real query and a PING, so an outage or a stall shows even without traffic; each is bounded by its
      // timeout (store.queryTimeoutMs, http.rateLimitStoreTimeoutMs) and records its failure itself.
      await probe();
      return sharedStatus(sharedServers(parts), Date.now(), graceMs);
    },
    ...(redis ? { rateLimitRedis: redis.client } : {}),
  };
}

/**
 * The shared servers as this instance saw them last (no query): for /health's checks after its probes,
 * and for /metrics (mowability_shared_store_up).
 */
export function sharedServers(parts: Pick<SharedServers, 'pg' | 'redis' | 'config'>): SharedServer[] {
  const { pg, redis, config } = parts;
  const servers: SharedServer[] = [];
  if (pg) {
    servers.push({
      name: 'store',
      label: 'PostgreSQL (store.url)',
      unreachableSinceMs: pg.unreachableSinceMs,
      notAnsweringWithinMs: pg.stalled ? config.store.queryTimeoutMs : undefined,
      meanwhile: `keys are served from memory, registration ${config.keys.quotaMode === 'exact' ? 'and calculation (keys.quotaMode exact) answer' : 'answers'} 503`,
    });
  }
  if (redis) {
    servers.push({
      name: 'rate_limit_store',
      label: 'Redis (http.rateLimitStore)',
      unreachableSinceMs: redis.unreachableSinceMs,
      notAnsweringWithinMs: redis.stalled ? redis.commandTimeoutMs : undefined,
      meanwhile: 'requests pass without the shared rate limit',
    });
  }
  return servers;
}
