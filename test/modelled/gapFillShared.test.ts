/**
 * Gap filling against the fake Open-Meteo, beyond the fields: one request per round serves the
 * gap filling and the station's Open-Meteo forecast (the requests are counted at the fake), and
 * `gapFill.rain: "model"` replaces a broken gauge's rain with the model's (rain windows from the
 * model, the gauge's rain left out, `rain_source` in the state).
 */
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { buildStationUnits } from '../../src/daemon.js';
import type { StationForecastConfig } from '../../src/forecast/forecastSettings.js';
import type { Reading, StationConfig } from '../../src/ingest/types.js';
import { GapFillUnit } from '../../src/modelled/gapFill.js';
import { StationPipeline } from '../../src/station/pipeline.js';
import { Database } from '../../src/store/database.js';
import { LogThrottle } from '../../src/util/logThrottle.js';
import { FakeClock, testMqttConfig, waitUntil } from '../helpers/mqttHarness.js';
import { usePipelineOnFakeOpenMeteo } from './fakeModelledServer.js';

const NOW = Date.parse('2026-06-15T10:20:00Z');
const base: StationConfig = {
  id: 'garden',
  name: 'Garden',
  format: 'json',
  topic: 'garden/weather',
  fields: { temperature: 'temp', precipitation_rate: 'rate', humidity: 'hum', wind_speed: 'wind' },
  location: { latitude: 52.52, longitude: 13.41 },
};

/** A reading whose gauge says 6 mm fell since the last one and it rains 12 mm/h. */
function gaugeReading(atMs: number): Reading {
  const values = { temperature: 20, precipitation_rate: 12, humidity: 55, wind_speed: 8 };
  return { values, rainCounters: [], rainDeltaMm: 6, payloadTimeMs: atMs, fingerprint: `gauge:${atMs}`, dropped: [] };
}

type State = Record<string, unknown> & {
  input: Record<string, number>;
  rain_source?: string;
  forecast?: { available: boolean; source: string };
};

describe("gap filling: one request with the forecast, and the model's rain for a broken gauge", () => {
  const clock = new FakeClock(NOW);
  const openMeteo = usePipelineOnFakeOpenMeteo(clock, NOW);
  const slot = openMeteo.slot;

  /** The station's units as the daemon builds them (stationUnits(): gap filling carries the forecast, wired as src/daemon.ts wires it). */
  async function start(
    station: StationConfig & { forecast?: StationForecastConfig },
    gate = { open: true },
  ): Promise<{ gapFill: GapFillUnit; state: () => State }> {
    const logger = pino({ level: 'silent' });
    const forecast = {
      openMeteoUrl: openMeteo.fake.baseUrl,
      intervalMinutes: 60,
      modelledIntervalMinutes: 60,
      timeoutSeconds: 5,
      retries: 0,
      rainLeadMinutes: 20,
    };
    const config = { ...testMqttConfig({ stations: [station], broker: { enabled: false }, history: { freshnessMinutes: 30 } }), forecast };
    slot.database = await Database.open(openMeteo.temp.dbPath);
    let built: StationPipeline | undefined;
    const units = buildStationUnits({
      config,
      logger,
      clock,
      store: slot.database,
      // A closed gate answers like a pipeline that is not running yet.
      readings: (id, reading, origin) => (gate.open ? built?.acceptReading(id, reading, origin) : undefined) ?? 'not_running',
    });
    const gapFill = units.find((unit): unit is GapFillUnit => unit instanceof GapFillUnit)!;
    const log = logger.child({ module: 'mqtt' });
    built = new StationPipeline({ config, database: slot.database!, logger, log, throttle: new LogThrottle(log), clock, units });
    slot.pipeline = built;
    await built.start();
    const p = built;
    return {
      gapFill,
      state: () => {
        p.recomputeAll();
        return p.stationState('garden') as unknown as State;
      },
    };
  }

  it('fetches the forecast with the gap filling: one request, not two', async () => {
    const { gapFill, state } = await start({ ...base, gapFill: { source: 'open-meteo' }, forecast: { source: 'open-meteo' } });
    slot.pipeline!.acceptReading('garden', gaugeReading(NOW), 'test');
    await waitUntil(
      () => gapFill.counters.gapFillFetches > 0 && state().forecast?.available === true,
      'the filled fields and the forecast',
    );
    await slot.pipeline!.stop();
    slot.pipeline = undefined;
    expect(openMeteo.fake.requests).toHaveLength(1);
    const params = openMeteo.fake.requests[0]!.url.searchParams;
    expect(params.has('current') && params.has('hourly')).toBe(true);
    expect(state).toBeDefined();
  });

  it('asks for the current conditions alone when the forecast comes from elsewhere (the control)', async () => {
    const { gapFill } = await start({ ...base, gapFill: { source: 'open-meteo' } });
    slot.pipeline!.acceptReading('garden', gaugeReading(NOW), 'test');
    await waitUntil(() => gapFill.counters.gapFillFetches > 0, 'the filled fields');
    expect(openMeteo.fake.requests[0]!.url.searchParams.has('hourly')).toBe(false);
  });

  it("takes the model's rain instead of a broken gauge's, and says so in the state", async () => {
    const { gapFill, state } = await start({ ...base, gapFill: { source: 'open-meteo', rain: 'model' } });
    slot.pipeline!.acceptReading('garden', gaugeReading(NOW - 60_000), 'test');
    await waitUntil(() => gapFill.counters.gapFillFetches > 0 && state().input.rain_24h !== undefined, "the model's rain windows");
    const modelled = state();
    expect(modelled.rain_source).toBe('model');
    // The model: 0.8 mm in the hour before 03:00 UTC, dry since; the gauge's 6 mm and 12 mm/h are left out.
    expect(modelled.input.rain_24h).toBeCloseTo(0.8, 5);
    expect(modelled.input.precipitation_rate).toBe(0);
    expect(modelled.input.rain_14d).toBeCloseTo(14 * 0.8, 5);
    // The backfill is the model's past, not rain that just fell: mowable is not held off by it.
    expect(modelled.main_status).toBe('OK');
    expect(openMeteo.fake.requests[0]!.url.searchParams.get('past_days')).toBe('14');
  });

  it("hands in its first answer a second later when it came before the pipeline ran: the model's rain at once, one request", async () => {
    const gate = { open: false };
    const { gapFill, state } = await start({ ...base, gapFill: { source: 'open-meteo', rain: 'model' } }, gate);
    await waitUntil(() => gapFill.counters.gapFillFetches > 0, 'the first round (its readings not taken)');
    gate.open = true;
    slot.pipeline!.acceptReading('garden', gaugeReading(NOW - 60_000), 'test');
    // The interval is 60 min: only the kept answer, handed in a second later, brings the rain.
    await waitUntil(() => state().input.rain_24h !== undefined, "the model's rain from the kept answer");
    expect(state().input.rain_24h).toBeCloseTo(0.8, 5);
    // The slow start cost no second request.
    expect(openMeteo.fake.requests).toHaveLength(1);
    expect(gapFill.counters.gapFillFetches).toBe(1);
  });

  it("keeps the gauge's rain by default (the control)", async () => {
    const { gapFill, state } = await start({ ...base, gapFill: { source: 'open-meteo' } });
    slot.pipeline!.acceptReading('garden', gaugeReading(NOW - 60_000), 'test');
    await waitUntil(() => gapFill.counters.gapFillFetches > 0, 'the filled fields');
    expect(state().rain_source).toBe('gauge');
    expect(state().input.precipitation_rate).toBe(12);
  });
});
