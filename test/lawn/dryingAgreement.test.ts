/**
 * One drying model everywhere (docs/model.md, "Drying of the blades"): after a shower and then constant
 * sun, the HTTP answer for the station's input, the retained MQTT state (the lawn memory's blade-water
 * balance) and the status page's station endpoint agree on the drying for the same station and moment.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { INTERCEPTION_STORAGE_MM, dryingRateMmH } from '../../src/core/drying.js';
import { Database } from '../../src/store/database.js';
import { addKey } from '../helpers/httpApp.js';
import { testLawnUnit } from '../helpers/lawnUnit.js';
import { reading } from '../helpers/mqttHarness.js';
import { startStationsHarness, type StationsHarness } from '../helpers/statusPage.js';

const SUN = { temperature: 20, humidity: 50, wind_speed: 12, solar: 650 };
const MIN = 60_000;
const DERIVED = ['blade_drying_minutes', 'mow_need', 'wet_spell_hours'];

describe('drying agrees in HTTP, MQTT and the status page', () => {
  let harness: StationsHarness | undefined;
  let database: Database | undefined;
  afterEach(async () => {
    await harness?.cleanup();
    await database?.close();
    harness = undefined;
    database = undefined;
  });

  it('a shower, then constant sun: the same drying, the same phrase', async () => {
    const start = Date.parse('2026-06-15T09:00:00Z');
    const { mqttTempDir } = await import('../helpers/mqttHarness.js');
    const temp = mqttTempDir();
    database = await Database.open(temp.dbPath);
    const db = database;
    const unit = testLawnUnit({
      stations: [{ id: 'garden' }],
      database: db,
      now: () => harness?.clock.now() ?? start,
      quiet: { night: false },
    });
    harness = await startStationsHarness({ startMs: start, units: [unit], dbPath: temp.dbPath });
    const send = (atMs: number, rainMm: number) => {
      harness!.clock.ms = atMs;
      const values = { ...SUN, precipitation_rate: rainMm * 6 };
      expect(harness!.daemon.service.acceptReading('garden', reading(values, rainMm), 'test')).toBe('accepted');
    };
    for (let at = start; at <= start + 60 * MIN; at += 10 * MIN) send(at, 0);
    for (let at = start + 70 * MIN; at <= start + 90 * MIN; at += 10 * MIN) send(at, 1); // 3 mm
    for (let at = start + 100 * MIN; at <= start + 120 * MIN; at += 10 * MIN) send(at, 0);

    const state = harness.daemon.service.stationState('garden') as unknown as {
      input: Record<string, number>;
      checks: { rain: { status: string; reasons: string[]; meta: Record<string, unknown> } };
    };
    const mqttRain = state.checks.rain;
    expect(mqttRain.meta.drying_source).toBe('water_balance');
    const mqttLeft = mqttRain.meta.drying_minutes_left as number;
    // The film of the one model at the sun's rate, less what dried since the rain (within one reading interval).
    const totalMin = (INTERCEPTION_STORAGE_MM / dryingRateMmH({ temperatureC: 20, humidityPct: 50, windKmh: 12, solarWm2: 650 })) * 60;
    expect(mqttLeft).toBeGreaterThan(0);
    expect(mqttLeft).toBeLessThanOrEqual(Math.ceil(totalMin));

    // HTTP: the station's input as a client would send it (no lawn-memory fields): the stateless estimate.
    const body = Object.fromEntries(Object.entries(state.input).filter(([key]) => !DERIVED.includes(key)));
    const { key } = await addKey(harness.http);
    const response = await harness.http.app.inject({
      method: 'POST',
      url: '/v1/calculate',
      headers: { authorization: `Bearer ${key}` },
      payload: body,
    });
    expect(response.statusCode).toBe(200);
    const httpRain = (
      response.json() as { mfi: { checks: { rain: { status: string; reasons: string[]; meta: Record<string, unknown> } } } }
    ).mfi.checks.rain;
    expect(httpRain.meta.drying_source).toBe('rain');
    expect(httpRain.meta.drying_time_min).toBe(Math.round(totalMin));
    expect(Math.abs((httpRain.meta.drying_minutes_left as number) - mqttLeft)).toBeLessThanOrEqual(10);
    expect(httpRain.status).toBe(mqttRain.status);
    const phrase = /Rasen noch nass<?\/?b?>?, trocken in ca\. \d+ Minuten bei jetzigem Wetter \(Verdunstung [\d,]+ mm\/h\)\./;
    expect(httpRain.reasons.join(' ')).toMatch(phrase);
    expect(mqttRain.reasons.join(' ')).toMatch(phrase);

    // The page's station endpoint shows the MQTT state's reason, word for word.
    const page = await harness.http.app.inject({ method: 'GET', url: '/v1/stations/garden' });
    expect(page.statusCode).toBe(200);
    const mqttReason = mqttRain.reasons.find((reason) => reason.includes('trocken in ca.'))!;
    expect(page.body).toContain(JSON.stringify(mqttReason).slice(1, -1));
    temp.cleanup();
  });
});
