/**
 * The modelled-station unit inside the station pipeline (embedded broker off, readings through
 * acceptReading) against the fake Open-Meteo on loopback: a provider down at the first start, an
 * outage caught up from past hours with no hole, the provider's bad answers (refused, counted,
 * logged once), 429 with Retry-After, a timeout, a compressed body, nulls at the edge of the
 * range, an answer with hourly values only and one missing variables.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../src/history/windows.js';
import type { StationConfig } from '../../src/ingest/types.js';
import { ModelledStationUnit } from '../../src/modelled/modelledUnit.js';
import { StationPipeline } from '../../src/station/pipeline.js';
import { Database } from '../../src/store/database.js';
import { LogThrottle } from '../../src/util/logThrottle.js';
import { FakeClock, testMqttConfig, waitUntil } from '../helpers/mqttHarness.js';
import { type Reply, useFakeOpenMeteo } from './fakeModelledServer.js';

const HOUR_MS = 60 * MINUTE_MS;
const NOW = Date.parse('2026-06-15T10:20:00Z');
const home = {
  id: 'home',
  name: 'Home',
  format: 'open-meteo',
  topic: 'mowability-modelled/home',
  location: { latitude: 52.52, longitude: 13.41 },
} as StationConfig;

interface Harness {
  pipeline: StationPipeline;
  database: Database;
  unit: ModelledStationUnit;
  warnings: string[];
  state(): Record<string, unknown> & {
    modelled: { status: string; message: string; failed_rounds: number; last_error: string | null };
    input: Record<string, number>;
  };
}

describe('modelled station unit', () => {
  let harness: Harness | undefined;
  const clock = new FakeClock(NOW);
  const openMeteo = useFakeOpenMeteo(clock, NOW);

  afterEach(async () => {
    await harness?.pipeline.stop();
    await harness?.database.close();
    harness = undefined;
  });

  /** A closed `gate` answers like a pipeline that is not running yet. */
  async function start(
    options: {
      script?: Reply[];
      fallback?: Reply;
      retries?: number;
      timeoutSeconds?: number;
      intervalMinutes?: number;
      gate?: { open: boolean };
      openMeteoUrl?: string;
    } = {},
  ): Promise<Harness> {
    openMeteo.fake.script.push(...(options.script ?? []));
    if (options.fallback) openMeteo.fake.fallback = options.fallback;
    const warnings: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        const line = JSON.parse(chunk.toString()) as { level: number; msg: string };
        if (line.level === 40) warnings.push(line.msg);
        done();
      },
    });
    const logger = pino({ level: 'info' }, sink);
    let pipeline: StationPipeline | undefined;
    const unit = new ModelledStationUnit({
      stations: [home],
      settings: {
        openMeteoUrl: options.openMeteoUrl ?? openMeteo.fake.baseUrl,
        intervalMinutes: options.intervalMinutes ?? 60,
        timeoutSeconds: options.timeoutSeconds ?? 5,
        retries: options.retries ?? 0,
      },
      accept: (id, reading, origin) =>
        ((options.gate?.open ?? true) ? pipeline?.acceptReading(id, reading, origin) : undefined) ?? 'not_running',
      logger,
      now: () => clock.now(),
      userAgent: 'test',
      retryBackoffMs: 10,
      roundBackoffMs: 20,
      random: () => 0.5,
    });
    const database = await Database.open(openMeteo.temp.dbPath);
    const config = testMqttConfig({ stations: [home], broker: { enabled: false }, station: { recomputeDebounceMs: 100 } });
    const log = logger.child({ module: 'mqtt' });
    const built = new StationPipeline({
      config,
      database,
      logger,
      log,
      throttle: new LogThrottle(log, 60_000, clock),
      clock,
      units: [unit],
    });
    pipeline = built;
    await built.start();
    const state = () => {
      built.recomputeAll();
      return built.stationState('home') as unknown as ReturnType<Harness['state']>;
    };
    harness = { pipeline: built, database, unit, warnings, state };
    return harness;
  }

  /** Hours (epoch ms) between `fromMs` and `toMs` whose minute holds no rain observation. */
  function holes(h: Harness, fromMs: number, toMs: number): string[] {
    const observed = new Set(
      h.pipeline.history
        .buckets('home', fromMs, toMs)
        .filter((row) => row.rainObserved)
        .map((row) => row.minute * MINUTE_MS),
    );
    const missing: string[] = [];
    for (let t = Math.ceil(fromMs / HOUR_MS) * HOUR_MS; t <= toMs; t += HOUR_MS)
      if (!observed.has(t)) missing.push(new Date(t).toISOString());
    return missing;
  }

  it('says "no data yet (provider unreachable)" while the provider is down at the first start, then backfills with no hole', async () => {
    const h = await start({ fallback: { kind: 'status', status: 503 } });
    await waitUntil(() => openMeteo.fake.requests.length >= 3, 'retries with back-off');
    expect(h.state().modelled).toMatchObject({ status: 'no_data_provider_unreachable' });
    expect(h.state().modelled.message).toBe('no data yet: the weather provider Open-Meteo is unreachable since 10:20, retrying');
    expect(h.state()).toMatchObject({
      mowable: false,
      mowable_reason: 'the weather provider Open-Meteo is unreachable since 10:20, retrying',
    });
    expect(h.state().index_score).toBeNull();
    expect(h.pipeline.history.lastReadingAtMs('home')).toBeNull();
    expect(h.warnings.filter((line) => line.includes('Open-Meteo did not deliver'))).toHaveLength(1);

    clock.advance(3 * HOUR_MS);
    openMeteo.fake.fallback = { kind: 'ok' };
    await waitUntil(() => h.state().modelled.status === 'ok', 'the provider back');
    expect(openMeteo.fake.requests.at(-1)!.url.searchParams.get('past_days')).toBe('14');
    expect(holes(h, clock.now() - 14 * 24 * HOUR_MS + HOUR_MS, clock.now())).toEqual([]);
    expect(typeof h.state().index_score).toBe('number');
    expect(h.unit.counters).toMatchObject({ modelledFetchErrors: expect.any(Number), modelledAnswersRefused: 0 });
  });

  it('hands in an answer that came before the pipeline ran a second later, without asking Open-Meteo again', async () => {
    const gate = { open: false };
    const h = await start({ gate });
    await waitUntil(() => h.unit.counters.modelledFetches > 0, 'the first round (its readings not taken)');
    expect(h.pipeline.history.lastReadingAtMs('home')).toBeNull();
    gate.open = true;
    await waitUntil(() => h.state().modelled.status === 'ok', 'the kept answer handed in');
    expect(holes(h, NOW - 24 * HOUR_MS, NOW)).toEqual([]);
    expect(openMeteo.fake.requests).toHaveLength(1);
    expect(h.unit.counters.modelledFetches).toBe(1);
  });

  it('fills an outage from past hours when the provider answers again: no hole', async () => {
    const h = await start({ intervalMinutes: 0.005 });
    await waitUntil(() => h.state().modelled.status === 'ok', 'the backfill');
    openMeteo.fake.fallback = { kind: 'status', status: 502 };
    await waitUntil(() => h.state().modelled.status === 'provider_unreachable', 'the outage seen');
    clock.advance(7 * HOUR_MS);
    openMeteo.fake.fallback = { kind: 'ok' };
    const fetchesBefore = h.unit.counters.modelledFetches;
    await waitUntil(() => h.state().modelled.status === 'ok' && h.unit.counters.modelledFetches > fetchesBefore, 'the catch-up');
    expect(Number(openMeteo.fake.requests.at(-1)!.url.searchParams.get('past_hours'))).toBeGreaterThanOrEqual(8);
    expect(holes(h, NOW - 24 * HOUR_MS, clock.now())).toEqual([]);
    expect(h.state().history_coverage).toMatchObject({ rain_12h: 1, rain_24h: 1 });
  });

  it('refuses malformed and oversize answers, counts them and logs the outage once', async () => {
    const h = await start({
      script: [
        { kind: 'body', text: '<html>busy</html>' },
        { kind: 'oversize', bytes: 3 * 1024 * 1024 },
        { kind: 'body', text: '{"hourly": {"time": [1, 2]}}' },
      ],
    });
    await waitUntil(() => h.state().modelled.status === 'ok', 'a good answer after three bad ones');
    expect(h.unit.counters.modelledAnswersRefused).toBe(3);
    expect(h.warnings.filter((line) => line.includes('Open-Meteo did not deliver'))).toHaveLength(1);
    expect(h.warnings[0]).toContain('not valid JSON');
  });

  it("drops out-of-range values like a station's, and counts them", async () => {
    const h = await start({ script: [{ kind: 'outOfRange' }] });
    await waitUntil(() => h.state().modelled.status === 'ok', 'the first answer');
    expect(h.pipeline.stationCounts().get('home')).toMatchObject({ rejected: 0, droppedValues: 2 });
    // The implausible current temperature is not used; the last hour's (plausible) one is.
    expect(h.state().input.temperature).toBeLessThan(40);
    expect(h.state().input.humidity).toBeLessThanOrEqual(100);
  });

  it('honours 429 with Retry-After and reads a compressed body', async () => {
    const h = await start({ retries: 1, script: [{ kind: 'status', status: 429, retryAfter: '0' }, { kind: 'gzip' }] });
    await waitUntil(() => h.state().modelled.status === 'ok', 'data after the 429');
    expect(openMeteo.fake.requests).toHaveLength(2);
    expect(h.state().input.soil_moisture).toBe(24);
  });

  it('gives up on an answer that does not come, and says so', async () => {
    const h = await start({ timeoutSeconds: 1, fallback: { kind: 'hang' } });
    await waitUntil(() => h.state().modelled.status === 'no_data_provider_unreachable', 'the timeout');
    // The technical detail is last_error; the message is the one outage sentence.
    expect(h.state().modelled).toMatchObject({
      message: 'no data yet: the weather provider Open-Meteo is unreachable since 10:20, retrying',
      last_error: expect.stringContaining('no answer within 1000 ms'),
    });
  });

  it('refuses a redirect to another host and says so in its status; that host is never asked', async () => {
    // The configured provider (127.0.0.2) sends every request on to another host (the fake, on 127.0.0.1).
    const redirecting = createServer((request, response) => {
      response.writeHead(302, { location: `${openMeteo.fake.baseUrl}${request.url ?? '/'}` });
      response.end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.2', resolve));
    try {
      const h = await start({ retries: 1, openMeteoUrl: `http://127.0.0.2:${(redirecting.address() as AddressInfo).port}` });
      await waitUntil(() => h.state().modelled.status === 'no_data_provider_unreachable', 'the refused redirect');
      expect(h.state().modelled.message).toContain(
        `HTTP 302 redirect to another host (${new URL(openMeteo.fake.baseUrl).host}) refused; set forecast.openMeteoUrl`,
      );
      expect(openMeteo.fake.requests).toHaveLength(0);
    } finally {
      redirecting.closeAllConnections();
      await new Promise((resolve) => redirecting.close(resolve));
    }
  });

  it('leaves hours with nulls at the edge of the range for the next round, and takes hourly-only answers', async () => {
    const h = await start({ intervalMinutes: 0.005, script: [{ kind: 'edgeNulls', hours: 2 }, { kind: 'hourlyOnly' }] });
    await waitUntil(() => h.unit.counters.modelledFetches >= 2 && h.state().modelled.status === 'ok', 'two answers handed in');
    expect(holes(h, NOW - 24 * HOUR_MS, NOW)).toEqual([]);
  });

  it('works with variables missing from the answer (no soil moisture)', async () => {
    const h = await start({ fallback: { kind: 'missing', variables: ['soil_moisture_3_to_9cm', 'wind_gusts_10m'] } });
    await waitUntil(() => typeof h.state().index_score === 'number', 'an index');
    expect(h.state().input.soil_moisture).toBeUndefined();
    expect(h.state().input.temperature).toBeTypeOf('number');
  });
});
