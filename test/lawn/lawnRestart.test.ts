/**
 * Restarts and outages through the MQTT side (FakeClock, a reading every 10 minutes). A crash after the
 * last save, with the history holding later readings, is caught up from SQLite to the state of an
 * uninterrupted run; a 6-hour outage leaves the blades unknown until they would have dried, drains the
 * soil and adds no ET or degree-days for the unobserved time (docs/model.md, "Gaps and restarts").
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BLADE_STORAGE_MM } from '../../src/core/lawn/blades.js';
import { dryingRateMmH } from '../../src/core/drying.js';
import { referenceEtMmPerHour, type EtWeather } from '../../src/core/lawn/evaporation.js';
import { MAX_WEATHER_CARRY_MS } from '../../src/core/lawn/memory.js';
import { soilProfile, stepSoil } from '../../src/core/lawn/soilBucket.js';
import { FakeClock, mqttTempDir, startMqttDaemon, testMqttConfig } from '../helpers/mqttHarness.js';
import { garden, replay, startLawnDaemon, type LawnDaemon, type Weather } from './lawnHarness.js';

const HOUR = 3_600_000;
const loam = soilProfile('loam', 'cool_season');
/** Humidity, wind and sun steady (the history keeps only rain and temperature per minute); the temperature climbs, showers at :20 and :40. */
const morning = (at: number): Weather => {
  const minutes = (at - Date.parse('2026-06-15T06:00:00Z')) / 60_000;
  return {
    temperature: 12 + minutes / 30,
    humidity: 80,
    wind_speed: 6,
    solar: 350,
    rainMm: minutes % 60 === 20 || minutes % 60 === 40 ? 0.6 : 0,
  };
};
const sunny: Weather = { temperature: 20, humidity: 60, wind_speed: 10, solar: 600 };
const etWeather = (w: Weather): EtWeather => ({
  temperatureC: w.temperature,
  humidityPct: w.humidity,
  windKmh: w.wind_speed,
  solarWm2: w.solar,
});

describe('lawn memory across restarts', () => {
  let temps: Array<ReturnType<typeof mqttTempDir>> = [];
  let running: Array<{ stop(): Promise<void> }> = [];
  const tempDb = () => {
    const temp = mqttTempDir();
    temps.push(temp);
    return temp.dbPath;
  };
  const started = <T extends { stop(): Promise<void> }>(daemon: T): T => {
    running.push(daemon);
    return daemon;
  };
  const stop = async (daemon: { stop(): Promise<void> }) => {
    running = running.filter((d) => d !== daemon);
    await daemon.stop();
  };

  beforeEach(() => {
    temps = [];
    running = [];
  });
  afterEach(async () => {
    for (const daemon of running) await daemon.stop();
    for (const temp of temps) temp.cleanup();
  });

  it('a crash after the last save, with later readings in the history: restored state equals an uninterrupted run', async () => {
    const cut = Buffer.from('{"at": "2026-06-15T06:30:00Z", "source": "robot"}');
    // Uninterrupted: 06:00–09:00.
    const clockA = new FakeClock(Date.parse('2026-06-15T06:00:00Z'));
    const uninterrupted = started(await startLawnDaemon(tempDb(), clockA));
    replay(uninterrupted, clockA, '2026-06-15T06:00:00Z', '2026-06-15T06:50:00Z', morning);
    uninterrupted.unit.handleMowed('garden', cut, false);
    replay(uninterrupted, clockA, '2026-06-15T07:00:00Z', '2026-06-15T09:00:00Z', morning);
    const expected = uninterrupted.unit.status('garden', clockA.now());

    // Interrupted: the lawn memory is saved at 07:00; the history goes on to 09:00 without it (the crash).
    const dbPath = tempDb();
    const clockB = new FakeClock(Date.parse('2026-06-15T06:00:00Z'));
    const before = started(await startLawnDaemon(dbPath, clockB));
    replay(before, clockB, '2026-06-15T06:00:00Z', '2026-06-15T06:50:00Z', morning);
    before.unit.handleMowed('garden', cut, false);
    replay(before, clockB, '2026-06-15T07:00:00Z', '2026-06-15T07:00:00Z', morning);
    await stop(before);
    const historyOnly = started(await startMqttDaemon(dbPath, testMqttConfig({ stations: [garden] }), clockB));
    replay({ daemon: historyOnly }, clockB, '2026-06-15T07:10:00Z', '2026-06-15T09:00:00Z', morning);
    await stop(historyOnly);

    const after = started(await startLawnDaemon(dbPath, clockB));
    const restored = after.unit.status('garden', clockB.now());
    expect(restored).toEqual(expected);
    // Not trivially equal: the showers after the save are in it.
    expect(restored!.blades_wet).toBe(true);
    expect(restored!.gdd_since_cut).toBeGreaterThan(0);
  });

  it('a 6-hour outage: blades unknown until the upper bound has dried, soil drained, no ET or degree-days for the gap', async () => {
    const clock = new FakeClock(Date.parse('2026-06-15T04:00:00Z'));
    let lawn: LawnDaemon = started(await startLawnDaemon(tempDb(), clock));
    replay(lawn, clock, '2026-06-15T04:00:00Z', '2026-06-15T04:00:00Z', () => sunny);
    lawn.unit.handleMowed('garden', Buffer.from('{"at": "2026-06-15T04:00:00Z"}'), false);
    replay(lawn, clock, '2026-06-15T04:10:00Z', '2026-06-15T04:50:00Z', () => sunny);
    replay(lawn, clock, '2026-06-15T05:00:00Z', '2026-06-15T05:50:00Z', () => ({ ...sunny, rainMm: 2 }));
    replay(lawn, clock, '2026-06-15T06:00:00Z', '2026-06-15T06:00:00Z', () => sunny);
    const saved = lawn.unit.status('garden', clock.now())!;
    expect(saved.blades_wet).toBe(true);
    const path = temps[0]!.dbPath;
    await stop(lawn);

    // Back at 12:00: nothing is known of 06:00–12:00.
    clock.ms = Date.parse('2026-06-15T12:00:00Z');
    lawn = started(await startLawnDaemon(path, clock));
    expect(lawn.unit.status('garden', clock.now())).toMatchObject({ blades_wet: null, soil_water_estimate: saved.soil_water_estimate });
    replay(lawn, clock, '2026-06-15T12:00:00Z', '2026-06-15T12:00:00Z', () => sunny);
    const first = lawn.state()!.lawn;
    expect(first).toMatchObject({ blades_wet: null, blade_water_mm: null, wet_spell_hours: 0 });
    expect(first.summary).toBe('Halme: unbekannt nach einer Lücke in den Messungen, bis sie beim beobachteten Wetter getrocknet wären');
    expect(first.derived_inputs).not.toContain('blade_drying_minutes');
    expect(lawn.state()!.input.blade_drying_minutes).toBeUndefined();
    // Soil: ET for the 30 min the 06:00 weather is carried, drainage over all 6 h (saved value is rounded to 0.1).
    const carriedH = MAX_WEATHER_CARRY_MS / HOUR;
    const expectedSoil = (theta: number) =>
      stepSoil(stepSoil(theta, loam, 0, referenceEtMmPerHour(etWeather(sunny)), carriedH), loam, 0, undefined, 6 - carriedH);
    expect(first.soil_water_estimate as number).toBeCloseTo(expectedSoil(saved.soil_water_estimate as number), 1);
    expect(first.soil_water_estimate as number).toBeLessThan(saved.soil_water_estimate as number);
    // Degree-days: 2 h at 20 °C before the outage, 30 min of it after, none for the rest of the gap (not 6 h: 5.0).
    expect(saved.gdd_since_cut).toBe(Math.round(((15 * 2) / 24) * 10) / 10);
    expect(first.gdd_since_cut).toBe(Math.round(((15 * 2.5) / 24) * 10) / 10);
    // The upper bound (the full storage) dries at the wet-canopy rate of the sun: then the blades are known again, dry since then.
    replay(lawn, clock, '2026-06-15T12:10:00Z', '2026-06-15T15:00:00Z', () => sunny);
    const dryAt = Date.parse('2026-06-15T12:00:00Z') + (BLADE_STORAGE_MM / dryingRateMmH(etWeather(sunny))) * HOUR;
    const later = lawn.state()!.lawn;
    expect(later.blades_wet).toBe(false);
    expect(Math.abs(Date.parse(later.dry_since as string) - dryAt)).toBeLessThan(1000);
  });
});
