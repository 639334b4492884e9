/**
 * GET /health and /v1/health: a real database query (maintenance flag and
 * mfi_version), a configuration check and the maintenance state, plus the
 * MQTT side's state for information. The checks that do I/O run at most once
 * per http.healthCacheMs, each bounded by http.healthCheckTimeoutMs
 * (./healthCache.ts); health has its own rate limit per client address.
 */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { FastifyInstance, FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/schema.js';
import { isValidTimeZone } from '../config/formats.js';
import type { HealthProbe } from '../store/serviceStore.js';
import type { SharedStatus } from '../store/sharedHealth.js';
import { HttpError } from '../util/httpError.js';
import { rateLimitKey } from './clientAddress.js';
import { MESSAGES } from './errors.js';
import { boundedCheck, HealthCache } from './healthCache.js';
import { WindowCounter } from './windowCounter.js';
import { healthResponses } from './schemas.js';
import { HEALTH_PATHS } from './paths.js';
import { describeDuration, type ClockWatchStats } from '../util/clockWatch.js';

export interface ComponentState {
  status: 'ok' | 'starting' | 'error';
  message?: string;
}

export interface HealthRouteDeps {
  probeDatabase(): Promise<HealthProbe>;
  checkConfig(): Promise<ComponentState>;
  /**
   * The MQTT side's state, reported as `checks.mqtt`; undefined when MQTT is off. It is shown
   * but does not make health fail: this endpoint answers for the HTTP API.
   */
  mqttStatus?(): ComponentState | undefined;
  /** The system clock (src/util/clockWatch.ts), reported as `checks.clock`; informational like mqtt. */
  clockStatus?(): ClockStatsSnapshot | undefined;
  /**
   * The shared servers of several instances (checks.store: PostgreSQL, checks.rate_limit_store:
   * Redis); they make health fail only once an outage outlasts store.outageGraceSeconds.
   */
  sharedStores?(): Promise<SharedStatus>;
}

type ClockStatsSnapshot = ClockWatchStats;

/** checks.clock from the clock watch's figures. */
export function clockCheck(stats: ClockWatchStats): { status: string; steps: number; last_step_ms?: number; message?: string } {
  const messages: string[] = [];
  if (stats.clockSync === 'unsynchronized') messages.push('the system clock is not NTP-synchronised yet');
  if (stats.clockSteps > 0)
    messages.push(
      `the wall clock stepped ${stats.lastClockStepMs > 0 ? 'forward' : 'back'} by ${describeDuration(Math.abs(stats.lastClockStepMs))}`,
    );
  return {
    status: stats.clockSync,
    steps: stats.clockSteps,
    ...(stats.clockSteps > 0 ? { last_step_ms: stats.lastClockStepMs } : {}),
    ...(messages.length > 0 ? { message: messages.join('; ') } : {}),
  };
}

/** Is the loaded configuration still usable: data directory writable, time zone known. */
export function createConfigCheck(config: AppConfig): () => Promise<ComponentState> {
  const dataDirectory = resolve(dirname(config.db.path));
  return async () => {
    if (!isValidTimeZone(config.timezone)) return { status: 'error', message: `unknown time zone "${config.timezone}"` };
    try {
      await access(dataDirectory, constants.W_OK);
    } catch {
      // No path: this endpoint answers without login. The admin knows db.path.
      return { status: 'error', message: "the directory of db.path is not writable by the daemon's user" };
    }
    return { status: 'ok' };
  };
}

export const DATABASE_MESSAGES = {
  fileChanged: 'database file was replaced or deleted while the daemon runs; restart the daemon (details in the daemon log)',
  writesFailing: 'database writes are failing (disk full, read-only or busy); see the daemon log',
  queryFailed: 'database query failed; see the daemon log',
} as const;

/**
 * What health says about a database error. It answers without login, so never the absolute path
 * or SQLite's text: only the kind of problem (the texts of identityProblem in databaseFile.ts and
 * of WriteHealth). The details are in the log: DatabaseWatch logs those two, the route logs the rest.
 */
export function publicDatabaseMessage(err: unknown): { message: string; logged: boolean } {
  const detail = err instanceof Error ? err.message : String(err);
  if (/^database file .* (was deleted|was replaced|cannot be checked)/s.test(detail))
    return { message: DATABASE_MESSAGES.fileChanged, logged: true };
  if (detail.startsWith('database writes are failing')) return { message: DATABASE_MESSAGES.writesFailing, logged: true };
  return { message: DATABASE_MESSAGES.queryFailed, logged: false };
}

function mqttCheck(deps: HealthRouteDeps): { mqtt?: ComponentState } {
  try {
    const mqtt = deps.mqttStatus?.();
    return mqtt ? { mqtt } : {};
  } catch {
    return { mqtt: { status: 'error', message: 'MQTT status unavailable' } };
  }
}

function clockChecks(deps: HealthRouteDeps): { clock?: ReturnType<typeof clockCheck> } {
  const stats = deps.clockStatus?.();
  return stats ? { clock: clockCheck(stats) } : {};
}

/** What the checks that do I/O found: one run of them, answered to every request until it is refreshed. */
interface CheckedStatus {
  database: { ok: true; probe: HealthProbe } | { ok: false; message: string };
  config: ComponentState;
  shared: SharedStatus | undefined;
}

export interface HealthServingOptions {
  /** How long one run of the checks answers every request (http.healthCacheMs). */
  cacheMs: number;
  /** The longest a check may take before it counts as failed (http.healthCheckTimeoutMs). */
  checkTimeoutMs: number;
  /** Health's own limit per client address (IPv4 address, IPv6 /64): max requests per window; max 0: none. */
  rateLimit: { max: number; timeWindowMs: number };
  /** Monotonic milliseconds for the cache and the limit (tests drive it); default performance.now. */
  now?: () => number;
  /** The maintenance flag as the daemon knows it in memory: a change refreshes the cached result at once. */
  maintenance?: () => boolean;
}

function lateMessage(what: string, waitedMs: number, timeoutMs: number): string {
  const waited = waitedMs > timeoutMs + 500 ? ` (waiting for ${describeDuration(waitedMs)})` : '';
  return `${what} did not answer within ${describeDuration(timeoutMs)}${waited}`;
}

/** The checks that do I/O, each bounded by checkTimeoutMs, run together. */
function runChecks(
  deps: HealthRouteDeps & HealthServingOptions,
  describeError: (err: unknown) => string,
  now: () => number,
): () => Promise<CheckedStatus> {
  const timeoutMs = deps.checkTimeoutMs;
  const database = boundedCheck<CheckedStatus['database']>(
    async () => {
      try {
        return { ok: true, probe: await deps.probeDatabase() };
      } catch (err) {
        return { ok: false, message: describeError(err) };
      }
    },
    timeoutMs,
    (waitedMs) => ({ ok: false, message: lateMessage('the database', waitedMs, timeoutMs) }),
    now,
  );
  const config = boundedCheck<ComponentState>(
    async () => deps.checkConfig().catch(() => ({ status: 'error' as const, message: 'the configuration check failed' })),
    timeoutMs,
    (waitedMs) => ({ status: 'error', message: lateMessage('the configuration check (data directory)', waitedMs, timeoutMs) }),
    now,
  );
  let lastShared: SharedStatus | undefined;
  const shared = deps.sharedStores
    ? boundedCheck<SharedStatus | undefined>(
        async () => {
          try {
            return (lastShared = await deps.sharedStores!());
          } catch {
            return {
              failing: false,
              checks: { store: { status: 'error', message: "the shared servers' check failed; see the daemon log" } },
            };
          }
        },
        timeoutMs,
        (waitedMs) => {
          // The servers it last named (PostgreSQL: store, Redis: rate_limit_store), each as not answering.
          const names = Object.keys(lastShared?.checks ?? { store: null });
          const message = lateMessage("the shared servers' check", waitedMs, timeoutMs);
          return {
            failing: lastShared?.failing ?? false,
            checks: Object.fromEntries(names.map((name) => [name, { status: 'error' as const, message }])),
          };
        },
        now,
      )
    : async () => undefined;
  return async () => {
    const [databaseResult, configResult, sharedResult] = await Promise.all([database(), config(), shared()]);
    return { database: databaseResult, config: configResult, shared: sharedResult };
  };
}

/** Health's own cheap limit per client address, in memory: not the API's limit, which exempts health. Loopback is not limited. */
function healthLimiter(
  app: FastifyInstance,
  options: HealthServingOptions,
  now: () => number,
): ((request: FastifyRequest) => void) | undefined {
  const { max, timeWindowMs } = options.rateLimit;
  if (max <= 0) return undefined;
  const windows = new WindowCounter(timeWindowMs);
  return (request) => {
    const client = app.clientAddressOf(request);
    // This machine's own monitoring (the container's HEALTHCHECK, `mowability health`, a supervisor) polls as it likes.
    // The address is canonical (./clientAddress.ts): IPv4-mapped loopback reads 127.x.
    if (client.startsWith('127.') || client === '::1') return;
    const { count, retryAfterSeconds } = windows.hit(rateLimitKey(client), now());
    if (count > max) throw new HttpError(429, MESSAGES.tooManyRequests, { 'retry-after': String(retryAfterSeconds) });
  };
}

/** GET /health and /v1/health, outside the key scope; encapsulated. */
export const healthPlugin: FastifyPluginCallback<HealthRouteDeps & HealthServingOptions> = (app: FastifyInstance, deps, done) => {
  const now = deps.now ?? (() => performance.now());
  // Logged once per distinct error, not once per monitoring request.
  let lastLogged: string | undefined;
  const describeError = (err: unknown): string => {
    const { message, logged } = publicDatabaseMessage(err);
    const detail = err instanceof Error ? err.message : String(err);
    if (!logged && detail !== lastLogged) app.log.error({ module: 'database', err }, `health: database query failed: ${detail}`);
    lastLogged = logged ? undefined : detail;
    return message;
  };
  const checks = runChecks(deps, describeError, now);
  const cache = new HealthCache<CheckedStatus>({
    refresh: async () => {
      const status = await checks();
      if (status.database.ok) lastLogged = undefined;
      return status;
    },
    maxAgeMs: deps.cacheMs,
    now,
    ...(deps.maintenance
      ? { isOutdated: (status) => status.database.ok && status.database.probe.maintenance !== deps.maintenance!() }
      : {}),
  });
  const limit = healthLimiter(app, deps, now);
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    limit?.(request);
    const { database, config, shared } = await cache.current();
    const maintenance = database.ok && database.probe.maintenance;
    const healthy = database.ok && config.status === 'ok' && !shared?.failing;
    const status = maintenance ? 'maintenance' : healthy ? 'ok' : 'error';
    const mfi = {
      status,
      maintenance_mode: maintenance,
      mfi_version: database.ok ? database.probe.mfiVersion : null,
      checks: {
        database: database.ok ? { status: 'ok' } : { status: 'error', message: database.message },
        maintenance: { status: maintenance ? 'active' : 'inactive' },
        config,
        ...mqttCheck(deps),
        ...clockChecks(deps),
        ...shared?.checks,
      },
      response_time_ms: Math.round(reply.elapsedTime),
    };
    const message = status === 'ok' ? '' : status === 'maintenance' ? MESSAGES.maintenance : MESSAGES.systemChecksFailed;
    return reply.code(status === 'ok' ? 200 : 503).send({ status, mfi, message });
  };

  for (const url of HEALTH_PATHS) {
    app.route({
      method: 'GET',
      url,
      schema: { response: healthResponses },
      // The API's limit would throttle monitoring with the client; health has its own (healthLimiter) and answers from the cache.
      config: { rateLimit: false },
      handler,
    });
  }
  done();
};
