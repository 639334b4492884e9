/**
 * The shared servers of a multi-instance public service (docs/deployment.md), as daemon parts:
 * PostgreSQL for the service tables (store.kind postgres) and Redis for the rate limit
 * (http.rateLimitStore), and what /health reports about them. With neither configured, none of
 * this runs and the daemon is the single-instance SQLite daemon it always was.
 */
import type { MutableRuntime } from './daemonRuntime.js';
import type { AppDeps } from './http/app.js';
import { MFI_VERSION } from './core/index.js';
import { PgDatabase } from './store/postgres/pgDatabase.js';
import { RedisConnection } from './store/redisClient.js';
import { ServiceStore, SETTING_MFI_VERSION } from './store/serviceStore.js';
import { sharedStatus, type SharedServer } from './store/sharedHealth.js';
import type { LifecycleComponent } from './util/lifecycle.js';

/** What the HTTP side gets from the shared servers; empty with one instance on SQLite. */
export interface SharedParts {
  pg?: PgDatabase;
  redis?: RedisConnection;
}

/** store.kind postgres: the service tables move to PostgreSQL (started after the SQLite database). */
export function sharedStoreComponent(runtime: MutableRuntime, parts: SharedParts): LifecycleComponent {
  return {
    name: 'shared-store',
    async start() {
      const { store } = runtime.config;
      const pg = await PgDatabase.open({ connectionString: store.url, logger: runtime.logger, poolSize: store.poolSize, rereadMs: store.rereadSeconds * 1000 });
      parts.pg = pg;
      runtime.serviceDatabase = pg;
      runtime.store = new ServiceStore(pg, runtime.clock);
      await runtime.store.setSetting(SETTING_MFI_VERSION, MFI_VERSION);
      runtime.logger.info({ poolSize: store.poolSize }, 'service tables in PostgreSQL (store.kind postgres)');
    },
    async stop() {
      await parts.pg?.close();
    },
  };
}

/** http.rateLimitStore: rate-limit counters in Redis, shared by every instance. */
export function rateLimitStoreComponent(runtime: MutableRuntime, parts: SharedParts): LifecycleComponent {
  return {
    name: 'rate-limit-store',
    async start() {
      const redis = new RedisConnection(runtime.config.http.rateLimitStore, runtime.logger);
      try {
        await redis.connect();
      } catch (err) {
        await redis.close();
        throw new Error(`Redis (http.rateLimitStore) cannot be reached: ${err instanceof Error ? err.message : String(err)}`);
      }
      parts.redis = redis;
      runtime.logger.info('rate-limit counters in Redis (http.rateLimitStore)');
    },
    async stop() {
      await parts.redis?.close();
    },
  };
}

/** The shared parts of the daemon's component list, in start order (none for a home install). */
export function sharedComponents(runtime: MutableRuntime, parts: SharedParts): LifecycleComponent[] {
  return [
    ...(runtime.config.store.kind === 'postgres' ? [sharedStoreComponent(runtime, parts)] : []),
    ...(runtime.config.http.rateLimitStore !== '' ? [rateLimitStoreComponent(runtime, parts)] : []),
  ];
}

/**
 * buildApp's inputs for the shared servers. With PostgreSQL, health's database check reads the
 * local SQLite file and the maintenance flag comes from the access cache (kept current by
 * NOTIFY), so a PostgreSQL failover shows in checks.store and fails health only after the grace.
 */
export function sharedAppDeps(runtime: MutableRuntime, parts: SharedParts): Pick<AppDeps, 'store' | 'sharedStores' | 'rateLimitRedis'> {
  const { pg, redis } = parts;
  if (!pg && !redis) return { store: runtime.store };
  const local = new ServiceStore(runtime.database, runtime.clock);
  const graceMs = runtime.config.store.outageGraceSeconds * 1000;
  return {
    store: pg ? { healthProbe: async () => ({ ...(await local.healthProbe()), maintenance: runtime.access.maintenance }) } : runtime.store,
    sharedStores: async () => {
      // A real query, so an outage shows even without traffic (its failure is recorded by the pool's watch).
      await pg?.get('SELECT 1').catch(() => undefined);
      const servers: SharedServer[] = [];
      if (pg) servers.push({ name: 'store', label: 'PostgreSQL (store.url)', unreachableSinceMs: pg.unreachableSinceMs });
      if (redis) servers.push({ name: 'rate_limit_store', label: 'Redis (http.rateLimitStore)', unreachableSinceMs: redis.unreachableSinceMs });
      return sharedStatus(servers, Date.now(), graceMs);
    },
    ...(redis ? { rateLimitRedis: redis.client } : {}),
  };
}
