/**
 * Gap filling against the fake Open-Meteo: a station without a soil sensor gets the modelled soil
 * moisture (and soil temperature, radiation), listed in estimated_fields and derived_fields, with
 * "modelliert" in the checks they decide; a measured field is never overridden, not even once it
 * is stale; the lawn memory's estimate comes before the model's; rain is never filled.
 */
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { MINUTE_MS } from '../../src/history/windows.js';
import type { StationConfig } from '../../src/ingest/types.js';
import { GapFillUnit } from '../../src/modelled/gapFill.js';
import { StationPipeline } from '../../src/station/pipeline.js';
import type { StationUnit } from '../../src/station/unit.js';
import { Database } from '../../src/store/database.js';
import { LogThrottle } from '../../src/util/logThrottle.js';
import { FakeClock, reading, testMqttConfig, waitUntil } from '../helpers/mqttHarness.js';
import { usePipelineOnFakeOpenMeteo } from './fakeModelledServer.js';

const NOW = Date.parse('2026-06-15T10:20:00Z');
const garden: StationConfig = {
  id: 'garden',
  name: 'Garden',
  format: 'json',
  topic: 'garden/weather',
  fields: { temperature: 'temp', precipitation_rate: 'rate', humidity: 'hum', wind_speed: 'wind', wind_gusts: 'gust' },
  location: { latitude: 52.52, longitude: 13.41 },
  gapFill: { source: 'open-meteo' },
};

type State = Record<string, unknown> & {
  input: Record<string, number>;
  estimated_fields: string[];
  derived_fields: string[];
  checks: Record<string, { reasons: string[]; meta: Record<string, unknown> }>;
};

describe('gap filling', () => {
  const clock = new FakeClock(NOW);
  const openMeteo = usePipelineOnFakeOpenMeteo(clock, NOW);
  const slot = openMeteo.slot;

  async function start(before: StationUnit[] = []): Promise<{ unit: GapFillUnit; state: () => State }> {
    const logger = pino({ level: 'silent' });
    const unit = new GapFillUnit({
      stations: [garden],
      settings: { openMeteoUrl: openMeteo.fake.baseUrl, intervalMinutes: 60, timeoutSeconds: 5, retries: 0 },
      logger,
      now: () => clock.now(),
      userAgent: 'test',
      random: () => 0.5,
    });
    slot.database = await Database.open(openMeteo.temp.dbPath);
    const log = logger.child({ module: 'mqtt' });
    const config = testMqttConfig({ stations: [garden], broker: { enabled: false }, history: { freshnessMinutes: 30 } });
    slot.pipeline = new StationPipeline({
      config,
      database: slot.database!,
      logger,
      log,
      throttle: new LogThrottle(log, 60_000, clock),
      clock,
      units: [...before, unit],
    });
    await slot.pipeline.start();
    const p = slot.pipeline;
    return {
      unit,
      state: () => {
        p.recomputeAll();
        return p.stationState('garden') as unknown as State;
      },
    };
  }

  it('fills what the station does not measure, lists it, says "modelliert", and never overrides a measurement', async () => {
    const { unit, state } = await start();
    slot.pipeline!.acceptReading(
      'garden',
      reading({ temperature: 20, precipitation_rate: 0, humidity: 55, wind_speed: 8, wind_gusts: 30 }),
      'test',
    );
    await waitUntil(() => unit.counters.gapFillFetches > 0 && state().estimated_fields.length > 0, 'the modelled values');
    const filled = state();
    expect(filled.estimated_fields.sort()).toEqual(['soil_moisture', 'soil_temperature', 'solar']);
    expect(filled.input).toMatchObject({ soil_moisture: 24, soil_temperature: 15, wind_gusts: 30 });
    expect(filled.derived_fields).toEqual(expect.arrayContaining(['soil_moisture', 'soil_temperature', 'solar']));
    expect(filled.checks.soiltemp!.reasons.at(-1)).toContain('Bodentemperatur modelliert');
    expect(filled.checks.rain!.meta.modelled_fields).toEqual(expect.arrayContaining(['soil_moisture']));
    expect(filled.checks.rain!.reasons.join(' ')).toContain('Bodenfeuchte');
    expect(filled.checks.wind!.meta.modelled_fields).toBeUndefined();
    // Rain stays measured: no rain windows from the model.
    expect(filled.input.rain_24h).toBeUndefined();
    expect(openMeteo.fake.requests[0]!.url.searchParams.has('hourly')).toBe(false);

    // The gauge's gust value goes stale: it is still not replaced by the model's.
    clock.advance(40 * MINUTE_MS);
    slot.pipeline!.acceptReading('garden', reading({ temperature: 21, precipitation_rate: 0, humidity: 55, wind_speed: 8 }), 'test');
    expect(state().input.wind_gusts).toBeUndefined();
    expect(state().estimated_fields).not.toContain('wind_gusts');
  });

  it("takes the lawn memory's soil estimate before the model's", async () => {
    const lawn: StationUnit = { name: 'lawn-stand-in', extendInput: (_id, input) => ({ ...input, soil_moisture: 31 }) };
    const { unit, state } = await start([lawn]);
    slot.pipeline!.acceptReading(
      'garden',
      reading({ temperature: 20, precipitation_rate: 0, humidity: 55, wind_speed: 8, wind_gusts: 30 }),
      'test',
    );
    await waitUntil(() => unit.counters.gapFillFetches > 0 && state().estimated_fields.length > 0, 'the modelled values');
    expect(state().input.soil_moisture).toBe(31);
    expect(state().estimated_fields).not.toContain('soil_moisture');
  });

  it('stops using modelled values when the provider stays away, and says why', async () => {
    openMeteo.fake.fallback = { kind: 'status', status: 500 };
    const { unit, state } = await start();
    slot.pipeline!.acceptReading('garden', reading({ temperature: 20, precipitation_rate: 0, humidity: 55, wind_speed: 8 }), 'test');
    await waitUntil(() => unit.counters.gapFillFetchErrors > 0, 'the failed fetch');
    expect(state().estimated_fields).toEqual([]);
    expect(state().gap_fill).toMatchObject({ last_error: 'HTTP 500' });
  });
});
