/**
 * GET /v1/stations, /v1/stations/{id} and /v1/stations/{id}/history against
 * the real pipeline: readings handed to the MQTT service, stored in SQLite
 * minute buckets, downsampled by the endpoint. The expected values are
 * computed here from the stored buckets and the readings we sent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../src/history/windows.js';
import { addKey } from '../helpers/httpApp.js';
import { startStationsHarness, type StationsHarness } from '../helpers/statusPage.js';
import { reading, waitUntil } from '../helpers/mqttHarness.js';

let harness: StationsHarness | undefined;
afterEach(async () => {
  await harness?.cleanup();
  harness = undefined;
});

interface Sent {
  timeMs: number;
  temperature: number;
  humidity: number;
  rainMm: number;
}

/** One reading every `everyMinutes` for `hours`, ending at the clock's start + hours; returns what was sent. */
function feed(h: StationsHarness, hours: number, everyMinutes: number): Sent[] {
  const sent: Sent[] = [];
  const count = (hours * 60) / everyMinutes;
  for (let i = 0; i < count; i++) {
    h.clock.advance(everyMinutes * MINUTE_MS);
    const temperature = 12 + 8 * Math.sin(i / 17);
    const humidity = Math.round(60 + 30 * Math.cos(i / 11));
    const rainMm = i % 23 < 4 ? 0.2 * ((i % 5) + 1) : 0;
    const outcome = h.daemon.service.acceptReading(
      'garden',
      reading({ temperature, humidity, wind_speed: 4, precipitation_rate: rainMm > 0 ? 1 : 0 }, rainMm),
      'test',
    );
    expect(outcome).toBe('accepted');
    sent.push({ timeMs: h.clock.now(), temperature, humidity, rainMm });
  }
  return sent;
}

async function getJson(h: StationsHarness, url: string, headers: Record<string, string> = {}) {
  const response = await h.http.app.inject({ method: 'GET', url, headers });
  return { statusCode: response.statusCode, body: response.json() as Record<string, any> };
}

describe('GET /v1/stations', () => {
  it('lists the stations with index, mowable, last reading and availability; offline once the reading is stale', async () => {
    harness = await startStationsHarness({ freshnessMinutes: 20 });
    const h = harness;
    feed(h, 1, 5);
    await waitUntil(() => typeof h.daemon.service.stationState('garden')?.index_score === 'number', 'a calculated state');
    const { statusCode, body } = await getJson(h, '/v1/stations');
    expect(statusCode).toBe(200);
    expect(body).toMatchObject({ status: 'ok', message: '', generated_at: new Date(h.clock.now()).toISOString() });
    const state = h.daemon.service.stationState('garden')!;
    expect(body.stations).toEqual([
      {
        id: 'garden',
        name: 'Garden',
        index: state.index_score,
        status: state.main_status,
        mowable: state.mowable,
        mowable_reason: state.mowable_reason,
        mowable_reason_de: state.mowable_reason_de,
        last_reading_at: new Date(h.clock.now()).toISOString(),
        last_reading_age_seconds: 0,
        availability: 'online',
        origin: 'measured',
        topics_heard: null,
        forecast_problem: null,
        plan_notify: null,
      },
    ]);
    h.clock.advance(21 * MINUTE_MS);
    const later = await getJson(h, '/v1/stations');
    expect(later.body.stations[0]).toMatchObject({ availability: 'offline', last_reading_age_seconds: 21 * 60 });
  });

  it("gives a station's checks with their German reasons, data quality and missing fields", async () => {
    harness = await startStationsHarness();
    const h = harness;
    feed(h, 1, 5);
    await waitUntil(() => typeof h.daemon.service.stationState('garden')?.index_score === 'number', 'a calculated state');
    const { statusCode, body } = await getJson(h, '/v1/stations/garden');
    expect(statusCode).toBe(200);
    const state = h.daemon.service.stationState('garden')! as Record<string, any>;
    expect(body.station).toMatchObject({
      id: 'garden',
      index: state.index_score,
      data_quality: state.data_quality,
      missing_fields: state.missing_fields,
      forecast: null,
      error: null,
    });
    expect(body.station.checks.map((check: { name: string }) => check.name)).toEqual([
      'temperature',
      'soiltemp',
      'rain',
      'wind',
      'humidity',
    ]);
    const temperature = body.station.checks[0];
    expect(temperature).toMatchObject({
      executed: true,
      status: state.checks.temperature.status,
      score: state.checks.temperature.score,
      reasons: state.checks.temperature.reasons,
    });
    expect(body.station.checks[1]).toMatchObject({ name: 'soiltemp', executed: false, score: null });
  });

  it('answers an unknown station with 404 in the error envelope', async () => {
    harness = await startStationsHarness();
    for (const url of ['/v1/stations/nowhere', '/v1/stations/nowhere/history', `/v1/stations/${'x'.repeat(100)}/history`]) {
      const { statusCode, body } = await getJson(harness, url);
      expect(statusCode, url).toBe(404);
      expect(body).toEqual({ status: 'error', mfi: null, message: 'Unknown station. GET /v1/stations lists the configured ones.' });
    }
  });
});

describe('GET /v1/stations/{id}/history', () => {
  it('sums the stored rain buckets and averages the readings per step', async () => {
    harness = await startStationsHarness();
    const h = harness;
    const sent = feed(h, 6, 3);
    await h.daemon.service.flush();
    const { statusCode, body } = await getJson(h, '/v1/stations/garden/history?hours=6&step=30m');
    expect(statusCode).toBe(200);
    const history = body.history;
    expect(history.step_minutes).toBe(30);
    expect(history.time).toHaveLength(12);
    const firstMs = history.time[0] * 1000;
    expect(firstMs % (30 * MINUTE_MS)).toBe(0);
    expect(Date.parse(history.to)).toBeGreaterThan(h.clock.now());
    // Rain: from the stored minute buckets, independently grouped here.
    const buckets = h.recorder.history!.buckets('garden', firstMs, Date.parse(history.to) - 1);
    const rainPerStep = history.time.map((time: number) => {
      const inStep = buckets.filter(
        (bucket) => bucket.minute * MINUTE_MS >= time * 1000 && bucket.minute * MINUTE_MS < time * 1000 + 30 * MINUTE_MS,
      );
      return inStep.some((bucket) => bucket.rainObserved)
        ? Math.round(inStep.reduce((sum, bucket) => sum + bucket.rainMm, 0) * 100) / 100
        : null;
    });
    expect(history.rain_mm).toEqual(rainPerStep);
    expect(history.rain_mm.filter((mm: number | null) => mm !== null && mm > 0).length).toBeGreaterThan(0);
    // Temperature and humidity: means of the readings in each step (float32 in the ring: compare to 0.1).
    history.time.forEach((time: number, step: number) => {
      const inStep = sent.filter((s) => s.timeMs >= time * 1000 && s.timeMs < time * 1000 + 30 * MINUTE_MS);
      if (inStep.length === 0) {
        expect(history.temperature[step]).toBeNull();
        return;
      }
      const meanTemp = inStep.reduce((sum, s) => sum + s.temperature, 0) / inStep.length;
      const meanHum = inStep.reduce((sum, s) => sum + s.humidity, 0) / inStep.length;
      expect(history.temperature[step]).toBeCloseTo(meanTemp, 1);
      expect(Math.abs(history.humidity[step] - meanHum)).toBeLessThanOrEqual(0.5);
      expect(history.dew_point[step]).toBeLessThan(history.temperature[step] + 0.1);
    });
    // The index: the last step holds the current state's index.
    expect(history.index.at(-1)).toBe(h.daemon.service.stationState('garden')!.index_score);
    expect(history.index.filter((value: number | null) => value !== null).length).toBeGreaterThan(8);
  });

  it('only reads: the current index is recorded before any request, and reading the history changes nothing', async () => {
    harness = await startStationsHarness();
    const h = harness;
    feed(h, 1, 5);
    await waitUntil(
      () => h.daemon.service.stationState('garden')?.last_reading_at === new Date(h.clock.now()).toISOString(),
      'the last state',
    );
    const nowMinute = Math.floor(h.clock.now() / MINUTE_MS);
    const snapshot = () => {
      const rows: string[] = [];
      h.recorder.forEachMinute('garden', nowMinute - 120, nowMinute + 1, (minute, value) =>
        rows.push(`${minute}:${value('index')}:${value('temperature')}`),
      );
      return rows;
    };
    const before = snapshot();
    expect(before.at(-1)).toBe(`${nowMinute}:${h.daemon.service.stationState('garden')!.index_score}:${before.at(-1)!.split(':')[2]}`);
    for (const url of [
      '/v1/stations/garden/history?hours=2&step=10m',
      '/v1/stations/garden',
      '/v1/stations',
      '/v1/stations/garden/history?hours=1&step=1m',
    ]) {
      expect((await getJson(h, url)).statusCode, url).toBe(200);
    }
    expect(snapshot()).toEqual(before);
  });

  it('keeps every series across a restart (SQLite): rain and temperature from the minutes, the others per 10-minute slot', async () => {
    harness = await startStationsHarness();
    const first = harness;
    feed(first, 2, 5);
    const query = '/v1/stations/garden/history?hours=3&step=1h';
    const before = (await getJson(first, query)).body.history;
    await first.stop();
    harness = await startStationsHarness({ dbPath: first.dbPath, startMs: first.clock.now() });
    // The same series as before the restart, from the stored slots: an hour is the mean of its 10-minute means,
    // which weigh a slot with one reading like one with two (the first and last slot), hence the tolerance.
    const after = (await getJson(harness, query)).body.history;
    await first.cleanup();
    expect(after.time).toEqual(before.time);
    expect(after.rain_mm).toEqual(before.rain_mm);
    for (const series of ['temperature', 'humidity', 'dew_point'] as const) {
      after[series].forEach((value: number | null, step: number) => {
        if (before[series][step] === null) return expect(value).toBeNull();
        expect(Math.abs(value! - before[series][step])).toBeLessThanOrEqual(series === 'humidity' ? 2 : 0.5);
      });
    }
    expect(before.index.filter((value: number | null) => value !== null).length).toBeGreaterThan(1);
    expect(after.index.map((value: number | null) => value === null)).toEqual(before.index.map((value: number | null) => value === null));
  });

  it.each([
    ['hours=0', 'Invalid hours'],
    ['hours=337', 'Invalid hours'],
    ['hours=1.5', 'Invalid hours'],
    ['hours=abc', 'Invalid hours'],
    ['hours=1&hours=2', 'Invalid hours'],
    ['step=0m', 'Invalid step'],
    ['step=10', 'Invalid step'],
    ['step=25h', 'Invalid step'],
    ['step=-5m', 'Invalid step'],
    ['hours=336&step=1m', 'Too many points'],
    ['hours=336&step=6m', 'Too many points'],
  ])('refuses %s with a 400 naming the rule', async (query, start) => {
    harness ??= await startStationsHarness();
    const { statusCode, body } = await getJson(harness, `/v1/stations/garden/history?${query}`);
    expect(statusCode).toBe(400);
    expect(body.status).toBe('error');
    expect(body.mfi).toBeNull();
    expect(body.message).toMatch(new RegExp(`^${start}: hours must be a whole number from 1 to 336; step must be`));
  });

  it('answers 14 days at 10-minute steps with 2016 points, and defaults to 48 h at 10 min', async () => {
    harness = await startStationsHarness();
    const wide = await getJson(harness, '/v1/stations/garden/history?hours=336&step=10m');
    expect(wide.statusCode).toBe(200);
    expect(wide.body.history.time).toHaveLength(2016);
    const defaults = await getJson(harness, '/v1/stations/garden/history');
    expect(defaults.body.history).toMatchObject({ step_minutes: 10 });
    expect(defaults.body.history.time).toHaveLength(288);
  });
});

describe('http.statusPage access', () => {
  it('key: the endpoints need an enabled key as Bearer header; calculate keeps its own rules', async () => {
    harness = await startStationsHarness({ env: { MOWABILITY_HTTP_STATUS_PAGE: 'key' } });
    const { key } = await addKey(harness.http, 'viewer', { allowGet: true });
    for (const url of ['/v1/stations', '/v1/stations/garden', '/v1/stations/garden/history']) {
      expect(await getJson(harness, url), url).toEqual({
        statusCode: 401,
        body: { status: 'error', mfi: null, message: 'No API key provided.' },
      });
      expect((await getJson(harness, url, { authorization: 'Bearer wrong-key' })).statusCode).toBe(401);
      // A key in the URL is not accepted here: it would end up in browser history and logs.
      expect((await getJson(harness, `${url}?api_key=${key}`)).statusCode).toBe(401);
      expect((await getJson(harness, url, { authorization: `Bearer ${key}` })).statusCode).toBe(200);
    }
    const h = harness;
    const disabled = await addKey(h.http, 'disabled');
    await h.http.store.setKeyDisabled(disabled.id, true);
    await waitUntil(() => h.http.access.lookupKey(disabled.key)?.disabled === true, 'the key disabled');
    expect(await getJson(h, '/v1/stations', { authorization: `Bearer ${disabled.key}` })).toEqual({
      statusCode: 403,
      body: { status: 'error', mfi: null, message: 'API key is disabled.' },
    });
  });

  it('open: no key needed for the page endpoints, but still for POST /v1/calculate', async () => {
    harness = await startStationsHarness();
    expect((await getJson(harness, '/v1/stations')).statusCode).toBe(200);
    const calculate = await harness.http.app.inject({
      method: 'POST',
      url: '/v1/calculate',
      payload: { temperature: 18, precipitation_rate: 0 },
    });
    expect(calculate.statusCode).toBe(401);
  });

  it('off: neither the page nor its endpoints exist', async () => {
    harness = await startStationsHarness({ env: { MOWABILITY_HTTP_STATUS_PAGE: 'off' } });
    for (const url of ['/', '/stations/garden', '/v1/stations', '/v1/stations/garden/history', '/assets/app.js']) {
      expect(await getJson(harness, url), url).toEqual({ statusCode: 404, body: { status: 'error', mfi: null, message: 'Not found.' } });
    }
  });
});
