/**
 * The shared servers of a multi-instance public service (docs/deployment.md): PostgreSQL for the
 * service tables (store.kind postgres) and Redis for the rate limit (http.rateLimitStore), opened
 * by the public service's plug (./plug.ts) after the SQLite database, and what /health and
 * /metrics see of them. A home install opens neither.
 */
import type { Logger } from 'pino';
import type { AppConfig } from '../config/schema.js';
import type { AppDeps } from '../http/app.js';
import type { AccessCache } from '../store/accessCache.js';
import type { Database } from '../store/database.js';
import { ServiceStore } from '../store/serviceStore.js';
import { sharedStatus, type SharedServer } from '../store/sharedHealth.js';
import type { Clock } from '../util/clock.js';
// Types only: the drivers (pg, ioredis) are imported when a configuration asks for them, so a home install, which
// opens neither, does not load them (about 12 MB of RSS and 0.12 CPU-s at start-up; bench/NOTES.md, "Memory (RSS)
// of the daemon", "Drivers nobody configured").
import type { PgDatabase } from './postgres/pgDatabase.js';
import type { RedisConnection } from './redisClient.js';

/** store.kind postgres: the service tables move to PostgreSQL (opened after the SQLite database). */
export async function openSharedStore(config: AppConfig, logger: Logger): Promise<PgDatabase> {
  const { store } = config;
  const { PgDatabase } = await import('./postgres/pgDatabase.js');
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
  const { RedisConnection } = await import('./redisClient.js');
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
