/**
 * The HTTP benchmark's server process: the real app from buildApp() on a temp
 * SQLite file (shipped defaults: rate limit on, access log at info, request
 * metrics on; the loggers and node flags as `serve` has them), and in
 * the same process a bare fastify instance (no hooks, no plugins, no logger)
 * whose routes return, as a constant string, exactly the bytes the real
 * routes answer:
 *   POST /same/calculate  the body of a real POST /v1/calculate (200)
 *   POST /same/401        the 401 envelope of an unknown key
 *   POST /same/403        the 403 envelope of a disabled key
 *   POST /same/calculateFull  the fair baseline for calculate (issue 42 goal 5, "the same-bytes fastify route"):
 *                         the same bytes and the same headers as the real 200, the rate limiter's three
 *                         `x-ratelimit-*` headers included (constant values of the same length), and a handler that
 *                         reads the body fastify parsed as JSON; the bench sends it the real request, the
 *                         `authorization` header included. /same/calculate sends fewer headers (it is kept as the
 *                         figure of record of earlier rounds).
 * A valid and a disabled key are created through the product's key store.
 * Sends {port, barePort, key, disabledKey} to the parent over IPC; exits on "stop".
 */
import { join } from 'node:path';
import { calculationContext } from '../../src/config/calculationContext.js';
import type { AppConfig } from '../../src/config/schema.js';
import { calculate, MFI_VERSION, type RawInput } from '../../src/core/index.js';
import type { Calculator } from '../../src/http/calculateRoute.js';
import { loadConfig } from '../../src/config/load.js';
import { buildApp } from '../../src/http/app.js';
import { createMetrics } from '../../src/metrics/registry.js';
import { AccessCache } from '../../src/store/accessCache.js';
import { Database } from '../../src/store/database.js';
import { ServiceStore, SETTING_MFI_VERSION } from '../../src/store/serviceStore.js';
import { systemClock } from '../../src/util/clock.js';
import { createAccessLogger, createLogger } from '../../src/util/logger.js';
import { HTTP_BENCH_BODY, wrongKeyLike } from '../lib/inputs.js';
import { sameBytesServer, sampleOf } from '../lib/sameBytesServer.js';
import { makeTempDir, removeDir } from '../lib/tempDir.js';
import { waitFor } from '../lib/time.js';

function portOf(server: { address(): unknown }): number {
  const address = server.address();
  return typeof address === 'object' && address !== null && 'port' in address ? Number(address.port) : 0;
}

/**
 * Parts of the shipped path left out, for `httpAb.js --parts` (what each part costs): BENCH_HTTP_WITHOUT is a
 * comma list of accessLog, rateLimit, metrics, blocks (access lines written one by one, as before they were
 * buffered) and calculation (the core's outcome computed once; it is still serialised and sent per request).
 */
const without = new Set((process.env.BENCH_HTTP_WITHOUT ?? '').split(',').filter(Boolean));

function constantOutcome(config: AppConfig): Calculator {
  const outcome = calculate(JSON.parse(HTTP_BENCH_BODY) as RawInput, calculationContext(config, Date.now()));
  return () => outcome;
}

async function main(): Promise<void> {
  const dir = makeTempDir();
  const config = loadConfig({
    env: {
      MOWABILITY_DB_PATH: join(dir, 'bench.db'),
      MOWABILITY_TIMEZONE: 'Europe/Berlin',
      MOWABILITY_HTTP_HOST: '127.0.0.1',
      // Raised, not disabled: the plugin stays on the measured path without ever refusing a request.
      MOWABILITY_RATE_LIMIT_MAX: without.has('rateLimit') ? '0' : '1000000000',
      ...(process.env.MOWABILITY_HTTP_ACCESS_LOG ? { MOWABILITY_HTTP_ACCESS_LOG: process.env.MOWABILITY_HTTP_ACCESS_LOG } : {}),
      ...(process.env.MOWABILITY_HTTP_ACCESS_LOG_SAMPLE
        ? { MOWABILITY_HTTP_ACCESS_LOG_SAMPLE: process.env.MOWABILITY_HTTP_ACCESS_LOG_SAMPLE }
        : {}),
      ...(without.has('accessLog') ? { MOWABILITY_HTTP_ACCESS_LOG: 'off' } : {}),
    },
  });
  // The daemon's loggers (redaction included) at the default level, composed as `serve` composes them: one info line
  // per request through the access logger (written in blocks), to stdout (discarded by the parent).
  const logger = createLogger({ level: config.log.level });
  const accessLogger = without.has('blocks') ? undefined : createAccessLogger({ level: logger.level });
  const db = await Database.open(config.db.path);
  const store = new ServiceStore(db, systemClock);
  await store.setSetting(SETTING_MFI_VERSION, MFI_VERSION);
  const access = new AccessCache({ database: db, store, logger });
  await access.start();
  const { key } = await store.addKey('bench');
  const disabled = await store.addKey('bench-disabled');
  await store.setKeyDisabled(disabled.id, true);
  await waitFor(() => access.lookupKey(key) !== undefined && access.lookupKey(disabled.key)?.disabled === true, {
    timeoutMs: 5000,
    what: 'the new keys in the access cache',
  });

  // The request counters as the daemon has them (http.metrics is on by default: a hook on every request).
  const metrics = without.has('metrics') ? undefined : createMetrics({ processMetrics: true, databasePath: config.db.path });
  const app = await buildApp({
    config,
    store,
    access,
    logger,
    clock: systemClock,
    accessLogger,
    metrics,
    ...(without.has('calculation') ? { calculate: constantOutcome(config) } : {}),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const sample = async (authorization: string) => {
    const response = await app.inject({
      method: 'POST',
      url: '/v1/calculate',
      headers: { 'content-type': 'application/json', authorization },
      payload: HTTP_BENCH_BODY,
    });
    return sampleOf(response);
  };
  const bare = await sameBytesServer({
    calculate: await sample(`Bearer ${key}`),
    401: await sample(`Bearer ${wrongKeyLike(key)}`),
    403: await sample(`Bearer ${disabled.key}`),
  });

  process.on('message', (message: unknown) => {
    if (message !== 'stop') return;
    void (async () => {
      await bare.close();
      await app.close();
      await access.stop();
      await db.close();
      removeDir(dir);
      process.exit(0);
    })();
  });
  process.send?.({ port: portOf(app.server), barePort: portOf(bare.server), key, disabledKey: disabled.key });
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
