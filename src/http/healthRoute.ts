/**
 * GET /health and /v1/health: a real database query (maintenance flag and
 * mfi_version), a configuration check and the maintenance state, plus the
 * MQTT side's state for information.
 */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { FastifyInstance, FastifyPluginCallback, FastifyReply } from 'fastify';
import type { AppConfig } from '../config/schema.js';
import { isValidTimeZone } from '../config/formats.js';
import type { HealthProbe } from '../store/serviceStore.js';
import type { SharedStatus } from '../store/sharedHealth.js';
import { MESSAGES } from './errors.js';
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
  if (stats.clockSteps > 0) messages.push(`the wall clock stepped ${stats.lastClockStepMs > 0 ? 'forward' : 'back'} by ${describeDuration(Math.abs(stats.lastClockStepMs))}`);
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
      return { status: 'error', message: 'the directory of db.path is not writable by the daemon\'s user' };
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
  if (/^database file .* (was deleted|was replaced|cannot be checked)/s.test(detail)) return { message: DATABASE_MESSAGES.fileChanged, logged: true };
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

/** GET /health and /v1/health, outside the key scope; encapsulated. */
export const healthPlugin: FastifyPluginCallback<HealthRouteDeps> = (app: FastifyInstance, deps, done) => {
  // Logged once per distinct error, not once per monitoring request.
  let lastLogged: string | undefined;
  const describeError = (err: unknown): string => {
    const { message, logged } = publicDatabaseMessage(err);
    const detail = err instanceof Error ? err.message : String(err);
    if (!logged && detail !== lastLogged) app.log.error({ module: 'database', err }, `health: database query failed: ${detail}`);
    lastLogged = logged ? undefined : detail;
    return message;
  };
  const handler = async (_request: unknown, reply: FastifyReply) => {
    const [database, config, shared] = await Promise.all([
      deps.probeDatabase().then(
        (probe) => {
          lastLogged = undefined;
          return { ok: true as const, probe };
        },
        (err: unknown) => ({ ok: false as const, message: describeError(err) }),
      ),
      deps.checkConfig(),
      deps.sharedStores?.(),
    ]);
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
      // Monitoring must keep working while a client is throttled; the handler is cheap.
      config: { rateLimit: false },
      handler,
    });
  }
  done();
};
