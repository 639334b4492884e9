/**
 * `mowability status` against a running daemon: the live values come from it (the database lags
 * up to history.flushIntervalSeconds behind), and without --config the daemon's (or the
 * database's) stations are listed as stations, never as "no longer configured".
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { daemonUrl, renderStatus } from '../../src/cli/statusReport.js';
import { loadConfig } from '../../src/config/load.js';
import { startDaemon, type RunningDaemon } from '../../src/daemon.js';
import { reading } from '../helpers/mqttHarness.js';
import { Database } from '../../src/store/database.js';
import { HistoryStore } from '../../src/store/historyStore.js';
import { runCliInProcess } from '../helpers/httpCli.js';
import { captureLogger } from '../helpers/httpLogCapture.js';
import { makeTempDir } from '../helpers/httpTempDir.js';
import { freePort } from '../../bench/lib/mosquitto.js';
import { samplePlan, samplePlanState } from '../../bench/lib/samplePlan.js';
import type { StationUnit } from '../../src/station/unit.js';
import type { PlanNotifySummary } from '../../src/http/planView.js';
import { GARDEN, feedThroughBroker, startStationsHarness, type StationsHarness } from '../helpers/statusPage.js';

describe('mowability status with a running daemon', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let configFile: string;
  let env: Record<string, string>;
  let daemon: RunningDaemon | undefined;
  const cli = (...argv: string[]) => runCliInProcess(argv, env);

  beforeEach(async () => {
    temp = makeTempDir();
    configFile = join(temp.dir, 'config.json');
    writeFileSync(
      configFile,
      JSON.stringify({
        stations: [
          {
            id: 'garden',
            name: 'Garden',
            format: 'json',
            topic: 'garden/weather',
            fields: { temperature: 'temp', humidity: 'hum', precipitation_rate: 'rate' },
          },
        ],
      }),
    );
    env = {
      MOWABILITY_DB_PATH: temp.dbPath,
      MOWABILITY_TIMEZONE: 'UTC',
      MOWABILITY_HTTP_HOST: '127.0.0.1',
      MOWABILITY_HTTP_PORT: String(await freePort()),
    };
  });
  afterEach(async () => {
    await daemon?.stop();
    daemon = undefined;
    temp.cleanup();
  });

  async function serve(): Promise<RunningDaemon> {
    daemon = await startDaemon({
      config: loadConfig({ env: { ...env, MOWABILITY_CONFIG: configFile } }),
      logger: captureLogger('warn').logger,
    });
    return daemon;
  }

  it('shows what the daemon computes now, although the database has not been written yet', async () => {
    const running = await serve();
    expect(running.station.acceptReading('garden', reading({ temperature: 21, humidity: 50, precipitation_rate: 0 }), 'test')).toBe(
      'accepted',
    );
    const json = await cli('status', '--json', '--config', configFile);
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report).toMatchObject({ source: 'daemon', daemon: { url: daemonUrl(loadConfig({ env })), answered: true } });
    const [garden] = report.stations;
    // The database does not have the reading yet (written every flush interval); the daemon does.
    expect(garden.last_reading_at).toBeNull();
    expect(garden.live.last_reading_at).not.toBeNull();
    expect(garden.live.availability).toBe('online');
    const text = await cli('status', '--config', configFile);
    expect(text.stdout).toContain(`Live from the running daemon at ${daemonUrl(loadConfig({ env }))}.`);
    expect(text.stdout).toMatch(/last reading: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d\d:\d\d \(0 min ago\)/);
  });

  it("without --config lists the daemon's stations as stations", async () => {
    await serve();
    const text = await cli('status');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('garden (Garden,');
    expect(text.stdout).toContain('No configuration file given');
    expect(text.stdout).not.toContain('no longer configured');
  });

  it("daemon not running, without --config: the database's stations, its age, and why the daemon was not asked", async () => {
    const db = await Database.open(temp.dbPath);
    try {
      const noChanges = { buckets: [], counters: [], latest: [], duplicates: null };
      await new HistoryStore(db).save({
        histories: [
          { station: 'garden', changes: { ...noChanges, latest: [{ field: 'humidity', value: 40, atMs: Date.now() - 60_000 }] } },
        ],
        states: [],
      });
    } finally {
      await db.close();
    }
    const text = await cli('status');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      `The daemon did not answer at ${daemonUrl(loadConfig({ env }))}: nothing listens there (is the daemon running?).`,
    );
    expect(text.stdout).toMatch(/Showing the database instead, last written \d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d\d:\d\d \(0 min ago\)/);
    expect(text.stdout).toContain('garden (garden, unknown)');
    expect(text.stdout).not.toContain('no longer configured');
    expect(JSON.parse((await cli('status', '--json')).stdout)).toMatchObject({ source: 'database', unconfigured_with_history: [] });
  });

  it('reaches a daemon listening on all interfaces over loopback', () => {
    expect(daemonUrl({ http: { ...loadConfig({ env }).http, host: '0.0.0.0', port: 8080 } })).toBe('http://127.0.0.1:8080');
    expect(daemonUrl({ http: { ...loadConfig({ env }).http, host: '::', port: 8080 } })).toBe('http://[::1]:8080');
  });
});

describe('renderStatus: where the values come from', () => {
  const base = {
    database: '/var/lib/mowability/mowability.db',
    database_exists: true,
    stations: [],
    unconfigured_with_history: [],
    unmatched_uploads: [],
  };

  it('says "live" and nothing about a daemon that did not answer when the daemon answered and MQTT is off', () => {
    const text = renderStatus({ ...base, source: 'daemon', daemon: { url: 'http://127.0.0.1:8080', answered: true } }, Date.now());
    expect(text).toContain('Live from the running daemon at http://127.0.0.1:8080.');
    expect(text).not.toContain('did not answer');
    expect(text).not.toContain('Showing the database instead');
  });

  it('adds the MQTT line to a live answer and keeps the database fallback for a daemon that did not answer', () => {
    const live = renderStatus(
      {
        ...base,
        source: 'daemon',
        daemon: { url: 'http://127.0.0.1:8080', answered: true },
        mqtt: { status: 'error', message: 'not connected' },
      },
      Date.now(),
    );
    expect(live).toContain('MQTT: error: not connected');
    const fallback = renderStatus(
      { ...base, source: 'database', daemon: { url: 'http://127.0.0.1:8080', answered: false, reason: 'connection refused' } },
      Date.now(),
    );
    expect(fallback).toContain('The daemon did not answer at http://127.0.0.1:8080: connection refused.');
    expect(fallback).toContain('Showing the database instead');
  });
});

describe('mowability status: the plan notifications', () => {
  let harness: StationsHarness | undefined;
  let temp: ReturnType<typeof makeTempDir>;
  afterEach(async () => {
    await harness?.cleanup();
    harness = undefined;
    temp.cleanup();
  });

  it('says when the plan notify calls fail: how many of all, when the last failed and why', async () => {
    temp = makeTempDir();
    const startMs = Date.parse('2026-06-15T10:00:00Z');
    const lastErrorAt = new Date(startMs - 5 * 60_000).toISOString();
    // The planner unit's part of the state, as planUnit.ts publishes it with plan.notifyService set and Home Assistant refusing.
    const planner: StationUnit = {
      name: 'test-planner',
      stateFragment: (_station, nowMs) => ({
        plan: {
          ...samplePlanState([samplePlan('garden', startMs)], nowMs),
          notify: {
            service: 'notify.mobile_app_phone',
            sent: 3,
            failed: 2,
            last_error: 'notify.mobile_app_phone via Home Assistant at http://ha.local:8123: Service notify.mobile_app_phone not found',
            last_error_at: lastErrorAt,
          },
        },
      }),
    };
    harness = await startStationsHarness({ units: [planner], startMs });
    await feedThroughBroker(harness, 1);
    const address = await harness.listen();
    const configFile = join(temp.dir, 'config.json');
    writeFileSync(configFile, JSON.stringify({ stations: [GARDEN] }));
    const env = {
      MOWABILITY_DB_PATH: harness.dbPath,
      MOWABILITY_TIMEZONE: 'UTC',
      MOWABILITY_HTTP_HOST: '127.0.0.1',
      MOWABILITY_HTTP_PORT: new URL(address).port,
      MOWABILITY_HTTP_STATUS_PAGE: 'open',
    };
    const text = await runCliInProcess(['status', '--config', configFile], env);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout, text.stdout).toContain('Live from the running daemon');
    expect(text.stdout).toMatch(
      / {2}plan notify: {2}notify\.mobile_app_phone: 2 of 5 calls failed, the last 2026-06-15 09:55:00 \+00:00 \([^)]+ ago\): its cause is in the state topic \(plan\.notify\)/,
    );
    const json = JSON.parse((await runCliInProcess(['status', '--json', '--config', configFile], env)).stdout);
    expect(json.stations[0].live.plan_notify).toMatchObject({ service: 'notify.mobile_app_phone', sent: 3, failed: 2 });
  });
});

describe('renderStatus: the plan notifications', () => {
  const station = {
    id: 'garden',
    name: 'Garden',
    format: 'json',
    last_reading_at: null,
    mowable: null,
    latest: {},
    history_minutes: 0,
    history_since: null,
    uploads_refused: [],
  };
  const report = (plan_notify: PlanNotifySummary | undefined) => ({
    database: '/var/lib/mowability/mowability.db',
    database_exists: true,
    source: 'daemon' as const,
    daemon: { url: 'http://127.0.0.1:8080', answered: true },
    unconfigured_with_history: [],
    unmatched_uploads: [],
    stations: [
      {
        ...station,
        live: {
          index: 80,
          status: 'OK',
          mowable: true,
          mowable_reason: null,
          last_reading_at: null,
          availability: 'online' as const,
          ...(plan_notify && { plan_notify }),
        },
      },
    ],
  });
  const nowMs = Date.parse('2026-06-15T10:00:00Z');

  it('names the failing service with its cause, and says nothing while every call went through', () => {
    const failing = renderStatus(
      report({
        service: 'notify.phone',
        sent: 0,
        failed: 1,
        last_error: 'notify.phone via HA: refused',
        last_error_at: '2026-06-15T09:00:00Z',
      }),
      nowMs,
    );
    expect(failing).toContain(
      '  plan notify:  notify.phone: 1 of 1 call failed, the last 2026-06-15 09:00:00 +00:00 (60 min ago): notify.phone via HA: refused',
    );
    const recovered = renderStatus(
      report({ service: 'notify.phone', sent: 4, failed: 1, last_error: null, last_error_at: '2026-06-15T09:00:00Z' }),
      nowMs,
    );
    expect(recovered).toContain('  plan notify:  notify.phone: 1 of 5 calls failed (the last one went through)');
    expect(
      renderStatus(report({ service: 'notify.phone', sent: 4, failed: 0, last_error: null, last_error_at: null }), nowMs),
    ).not.toContain('plan notify');
    expect(renderStatus(report(undefined), nowMs)).not.toContain('plan notify');
  });
});
