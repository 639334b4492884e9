/** Builds the real HTTP app on a real temp SQLite file for inject() tests. */
import pino, { type Logger } from 'pino';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppDeps } from '../../src/http/app.js';
import { loadConfig } from '../../src/config/load.js';
import type { AppConfig } from '../../src/config/schema.js';
import { Database } from '../../src/store/database.js';
import { ServiceStore, SETTING_MFI_VERSION } from '../../src/store/serviceStore.js';
import { AccessCache } from '../../src/store/accessCache.js';
import type { UsageGate } from '../../src/http/auth.js';
import type { Clock } from '../../src/util/clock.js';
import { MFI_VERSION } from '../../src/core/index.js';
import { makeTempDir, waitFor } from './httpTempDir.js';

export const FIXED_NOW_MS = Date.parse('2026-06-15T12:00:00Z');
/** Short, so changes made by another connection (the CLI) show up quickly in tests. */
export const TEST_CHANGE_POLL_INTERVAL_MS = 50;
/** Generous deadline for conditions that usually hold within milliseconds (busy CI machines). */
export const CHANGE_DEADLINE_MS = 10_000;

export interface HttpHarness {
  app: FastifyInstance;
  db: Database;
  store: ServiceStore;
  access: AccessCache;
  config: AppConfig;
  dir: string;
  /** The per-key usage an extension added (test/publicService/harness.ts), if any. */
  usage: (UsageGate & { flush(): Promise<void> }) | undefined;
  close(): Promise<void>;
}

export interface HarnessOptions {
  env?: Record<string, string>;
  logger?: Logger;
  overrides?: Partial<
    Pick<
      AppDeps,
      | 'accessLogger'
      | 'calculate'
      | 'checkConfig'
      | 'metrics'
      | 'acceptReading'
      | 'uploadCounters'
      | 'onUploadRefused'
      | 'stations'
      | 'statusPagePollMs'
      | 'clock'
      | 'usage'
      | 'publicRoutes'
      | 'sharedStores'
      | 'clockStatus'
      | 'unitRoutes'
      | 'healthClock'
      | 'connectionCounters'
    >
  >;
  /** Parts beyond a home install on the harness database (the public service: test/publicService/harness.ts). */
  extend?: HarnessExtension;
}

/** What an extension is built from: the harness's database, keys and configuration. */
export interface HarnessParts {
  db: Database;
  access: AccessCache;
  config: AppConfig;
  logger: Logger;
  clock: Clock;
}

export type HarnessExtension = (
  parts: HarnessParts,
) => Promise<{ deps: Partial<AppDeps>; usage?: HttpHarness['usage']; stop(): Promise<void> }>;

export async function startHttpHarness(options: HarnessOptions = {}): Promise<HttpHarness> {
  const temp = makeTempDir();
  const config = loadConfig({
    env: {
      MOWABILITY_DB_PATH: temp.dbPath,
      MOWABILITY_TIMEZONE: 'Europe/Berlin',
      MOWABILITY_LOG_LEVEL: 'silent',
      MOWABILITY_DB_CHANGE_POLL_INTERVAL_MS: String(TEST_CHANGE_POLL_INTERVAL_MS),
      // Every health request runs the checks (concurrent ones share a run): a test that changes the database sees it
      // in the next answer. test/http/healthCache.test.ts sets the shipped interval.
      MOWABILITY_HTTP_HEALTH_CACHE_MS: '0',
      ...options.env,
    },
  });
  const logger = options.logger ?? pino({ level: 'silent' });
  const clock = { now: () => FIXED_NOW_MS };
  const db = await Database.open(config.db.path);
  const store = new ServiceStore(db, clock);
  await store.setSetting(SETTING_MFI_VERSION, MFI_VERSION);
  const access = new AccessCache({ database: db, store, logger, pollIntervalMs: config.db.changePollIntervalMs });
  await access.start();
  const extension = await options.extend?.({ db, access, config, logger, clock });
  const usage = extension?.usage;
  const app = await buildApp({
    config,
    store,
    access,
    logger,
    clock,
    ...extension?.deps,
    ...options.overrides,
  });
  return {
    app,
    db,
    store,
    access,
    config,
    dir: temp.dir,
    usage,
    async close() {
      await app.close();
      await extension?.stop();
      await access.stop();
      await db.close();
      temp.cleanup();
    },
  };
}

/** Sets maintenance through the store and waits until the request path sees it. */
export async function setMaintenance(harness: HttpHarness, active: boolean): Promise<void> {
  await harness.store.setMaintenance(active);
  await waitFor(() => harness.access.maintenance === active, CHANGE_DEADLINE_MS);
}

/** Creates a key through the store and waits until the request path knows it. */
export async function addKey(
  harness: HttpHarness,
  owner = 'tester',
  options: { allowGet?: boolean } = {},
): Promise<{ id: number; key: string }> {
  const created = await harness.store.addKey(owner, options);
  await waitFor(() => harness.access.lookupKey(created.key) !== undefined, CHANGE_DEADLINE_MS);
  return created;
}

export const MINIMAL_INPUT = { temperature: 18, precipitation_rate: 0 };
