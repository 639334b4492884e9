/**
 * The public service: a mowability instance that hands API keys to strangers. Everything a home
 * install does not need lives in this folder and reaches the daemon through `publicService`
 * below, one line in src/daemon.ts (serviceExtensions()); delete the folder and that line and the
 * home daemon builds and runs without it. docs/architecture.md has the map:
 *
 *   registrationRoutes.ts, registrationStore.ts  POST/GET /v1/registrations and their table (with
 *                                                redisWindows.ts: attempts per hour across instances)
 *   keySealing.ts                                an approved key sealed to its claim token
 *   keyUsage.ts, exactKeyUsage.ts, usageDays.ts  per-key request counts and the daily quota
 *   postgres/                                    the service tables in PostgreSQL (store.kind postgres)
 *   redisClient.ts                               the shared rate limit's Redis (http.rateLimitStore)
 *   sharedServers.ts                             opening both, and what /health and /metrics see of them
 *
 * What a home install needs stays where it was: the API key check (src/http/auth.ts, with the
 * `UsageGate` shape this folder fills), the key store and cache (src/store/serviceStore.ts,
 * accessCache.ts, apiKeyCodec.ts), the service tables and their migrations (src/store/serviceTables.ts;
 * a database keeps its tables whichever parts run), the shared-server health shape
 * (src/store/sharedHealth.ts), the in-memory window counter (src/http/windowCounter.ts, /health uses it) and the settings (src/config/publicServiceSchema.ts, storeSchema.ts).
 * This folder may import http/, store/, config/ and util/; nothing but the composition root and the
 * command line imports it (.dependency-cruiser.cjs, `public-service-apart`).
 */
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';
import { calculationContext } from '../config/calculationContext.js';
import type { AppConfig } from '../config/schema.js';
import type { AppDeps } from '../http/app.js';
import type { AccessCache } from '../store/accessCache.js';
import { Database } from '../store/database.js';
import type { ServiceStore } from '../store/serviceStore.js';
import type { SharedServer } from '../store/sharedHealth.js';
import type { SqlDatabase } from '../store/sqlDatabase.js';
import type { Clock } from '../util/clock.js';
import type { ClockWatch } from '../util/clockWatch.js';
import type { StartedStack } from '../util/lifecycle.js';
import { publicServiceCommands } from './commandParts.js';
import { ExactKeyUsage } from './exactKeyUsage.js';
import { KeyUsage } from './keyUsage.js';
import type { PgDatabase } from './postgres/pgDatabase.js';
import type { RedisConnection } from './redisClient.js';
import { registrationNotifier, registrationPlugin, type RegistrationOptions } from './registrationRoutes.js';
import { RegistrationStore } from './registrationStore.js';
import { connectRateLimitStore, openSharedStore, sharedServers, storeAppDeps } from './sharedServers.js';

/** What the daemon has when the public service opens: the configuration and the SQLite database. */
export interface PublicServiceCore {
  readonly config: AppConfig;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly clockWatch: ClockWatch | undefined;
  readonly database: Database;
}

/** The API keys as the daemon started them, on the database the public service chose. */
export interface PublicServiceKeys {
  readonly serviceDatabase: SqlDatabase;
  readonly store: ServiceStore;
  /** The service store on the local SQLite file (health reads it when the tables live in PostgreSQL). */
  readonly sqliteStore: ServiceStore;
  readonly access: AccessCache;
}

/** What HTTP and /metrics get of the public service. */
export interface PublicServiceDeps {
  readonly app: Partial<Pick<AppDeps, 'usage' | 'publicRoutes' | 'store' | 'sharedStores' | 'rateLimitRedis'>>;
  readonly sharedServers: () => SharedServer[];
}

export interface OpenedPublicService {
  /** PostgreSQL with store.kind postgres: the service tables live there instead of the SQLite file. */
  readonly serviceDatabase: SqlDatabase | undefined;
  /** After the API keys started: the key usage (a part of its own) and the routes. */
  withKeys(keys: PublicServiceKeys): Promise<PublicServiceDeps>;
}

/**
 * Per-key request counts and the daily quota: counted in memory, written every keys.usageFlushSeconds and on stop
 * (keys.quotaMode shared; in the history's commits when it runs on SQLite), or one atomic update per request (exact).
 */
export async function startKeyUsage(core: PublicServiceCore, serviceDatabase: SqlDatabase): Promise<KeyUsage | ExactKeyUsage> {
  const { config, clock, clockWatch } = core;
  const options = {
    database: serviceDatabase,
    logger: core.logger,
    timeZone: calculationContext(config, clock.now()).timeZone,
    defaultDailyQuota: config.keys.dailyQuota,
    flushIntervalMs: config.keys.usageFlushSeconds * 1000,
  };
  // On the daemon's SQLite file the counts join the history's commits (src/store/sharedCommit.ts); PostgreSQL keeps its own.
  const sharedCommit = serviceDatabase instanceof Database ? serviceDatabase.sharedCommit : undefined;
  const usage = config.keys.quotaMode === 'exact' ? new ExactKeyUsage(options) : new KeyUsage({ ...options, sharedCommit });
  await usage.start(clock.now());
  clockWatch?.onStep((step) => void usage.clockStepped(step));
  return usage;
}

/** The registration routes in the /v1 scope, when registration.enabled is on (none otherwise). */
export function registrationRoutes(
  core: Pick<PublicServiceCore, 'config' | 'logger' | 'clock'>,
  parts: Pick<RegistrationOptions, 'store' | 'access'>,
  redis?: RedisConnection,
): FastifyPluginAsync[] {
  const { config, logger, clock } = core;
  if (!config.registration.enabled) return [];
  const onRegistered = registrationNotifier(config.registration.notifyCommand, logger);
  const options = {
    store: parts.store,
    settings: config.registration,
    access: parts.access,
    clock,
    ...(onRegistered ? { onRegistered } : {}),
    ...(redis ? { redis: redis.client } : {}),
  };
  // Not encapsulated, so the registration plugin lands in the /v1 scope itself, after the key hook it depends on.
  return [
    fp(async (scope) => {
      await scope.register(registrationPlugin, options);
    }),
  ];
}

/** The public service's plug: src/daemon.ts lists it in serviceExtensions(). */
export const publicService = {
  commands: publicServiceCommands,
  async open(parts: StartedStack, core: PublicServiceCore): Promise<OpenedPublicService> {
    const { config, logger } = core;
    const pg: PgDatabase | undefined =
      config.store.kind === 'postgres'
        ? await parts.open(
            'shared-store',
            () => openSharedStore(config, logger),
            (db) => db.close(),
          )
        : undefined;
    const redis =
      config.http.rateLimitStore !== ''
        ? await parts.open(
            'rate-limit-store',
            () => connectRateLimitStore(config, logger),
            (r) => r.close(),
          )
        : undefined;
    return {
      serviceDatabase: pg,
      async withKeys(keys) {
        const usage = await parts.open(
          'key-usage',
          () => startKeyUsage(core, keys.serviceDatabase),
          (counter) => counter.stop(),
        );
        const stores = storeAppDeps({
          database: core.database,
          store: keys.sqliteStore,
          access: keys.access,
          pg,
          redis,
          config,
          clock: core.clock,
        });
        return {
          app: {
            usage,
            publicRoutes: registrationRoutes(core, { store: new RegistrationStore(keys.serviceDatabase), access: keys.access }, redis),
            ...stores,
          },
          sharedServers: () => sharedServers({ pg, redis, config }),
        };
      },
    };
  },
};
