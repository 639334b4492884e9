/**
 * Realistic days replayed through the MQTT side (FakeClock, one reading every 10 minutes) with the lawn
 * memory unit: the published `lawn` state and `mowable` match the values worked out by hand from the
 * documented formulas (docs/model.md, "Lawn memory"), and a restart in the middle restores the balances
 * from SQLite.
 */
import { durationDe } from '../../src/core/duration.js';
import { describe, expect, it } from 'vitest';
import { BLADE_STORAGE_MM, DEW_RATE_MM_H } from '../../src/core/lawn/blades.js';
import { referenceEtMmPerHour } from '../../src/core/lawn/evaporation.js';
import { dryingRateMmH } from '../../src/core/drying.js';
import { FakeClock, waitUntil } from '../helpers/mqttHarness.js';
import { replay, type Weather } from './lawnHarness.js';
import { lawnDaemonPerTest, SUNNY as sunny } from '../helpers/lawnReplay.js';

const HOUR = 3_600_000;
const shower: Weather = { temperature: 15, humidity: 95, wind_speed: 5, solar: 100, rainMm: 4 };
const dewNight: Weather = { temperature: 12, humidity: 95, wind_speed: 3, solar: 0 };
const morning: Weather = { temperature: 16, humidity: 70, wind_speed: 5, solar: 300 };
const et = (w: Weather) =>
  referenceEtMmPerHour({ temperatureC: w.temperature, humidityPct: w.humidity, windKmh: w.wind_speed, solarWm2: w.solar })!;
/** The blades dry by the one drying model (wet canopy, src/core/drying.ts); the soil loses ET0. */
const dry = (w: Weather) =>
  dryingRateMmH({ temperatureC: w.temperature, humidityPct: w.humidity, windKmh: w.wind_speed, solarWm2: w.solar });
const iso = (ms: number) => new Date(ms).toISOString();

describe('lawn memory replays', () => {
  const lawns = lawnDaemonPerTest();

  it('an 8 mm shower then sun: wet while it rains, dry when ET0 has taken the film; a restart in between keeps the balance', async () => {
    const clock = new FakeClock(Date.parse('2026-06-15T08:00:00Z'));
    let lawn = await lawns.start(clock);
    replay(lawn, clock, '2026-06-15T08:00:00Z', '2026-06-15T11:50:00Z', () => sunny);
    // 23 steps of 10 min of sun from field capacity: 28 − Kc·ET0·t / (5 mm per %) = 28 − 0.95·0.3648·23/6 / 5.
    expect(lawn.state()!.lawn).toMatchObject({ blades_wet: false, drying_minutes_left: null, soil_water_estimate: 27.7 });
    expect(28 - (0.95 * et(sunny) * (23 / 6)) / 5).toBeCloseTo(27.73, 2);

    replay(lawn, clock, '2026-06-15T12:00:00Z', '2026-06-15T12:10:00Z', () => shower);
    expect(lawn.state()).toMatchObject({ mowable: false, main_status: 'BLOCK', lawn: { blades_wet: true, soil_soft: true } });

    replay(lawn, clock, '2026-06-15T12:20:00Z', '2026-06-15T13:00:00Z', () => sunny);
    // By hand: 11:50–12:00 sun (4 mm fill the storage, then 10 min of sun), 12:00–12:20 two steps of
    // shower weather, then 12:20–13:00 four steps of sun.
    const water1300 = BLADE_STORAGE_MM - (2 * dry(shower)) / 6 - (4 * dry(sunny)) / 6;
    const before = lawn.state()!.lawn;
    expect(before.blade_water_mm).toBeCloseTo(water1300, 3);
    expect(before.drying_minutes_left).toBe(Math.ceil((water1300 / dry(sunny)) * 60));
    const left = Math.ceil((water1300 / dry(sunny)) * 60);
    expect(before.summary).toBe(`Halme nass, trocken in etwa ${durationDe(left)} beim jetzigen Wetter`);
    expect(before.derived_inputs).toContain('blade_drying_minutes');
    expect(lawn.state()!.mowable).toBe(false);

    // A cut reported at 13:00 for 09:00 (the robot's run): 4 h at 20 °C ≈ 4 · 15/24 = 2.5 degree-days (20 min of it at 15 °C: 2.43).
    expect(lawn.unit.handleMowed('garden', Buffer.from('{"at": "2026-06-15T09:00:00Z", "source": "robot"}'), false)).toBe(true);
    const cut = lawn.unit.status('garden', clock.now())!;
    expect(cut).toMatchObject({ last_cut_at: '2026-06-15T09:00:00.000Z', last_cut_source: 'robot', gdd_since_cut: 2.4 });

    // Restart in the middle of the sequence: the balance and the cut come back from SQLite, not reset.
    await lawns.stop();
    lawn = await lawns.start(clock);
    await waitUntil(() => lawn!.state()?.lawn !== undefined, 'the first state after the restart');
    expect(lawn.state()!.lawn.blade_water_mm).toBeCloseTo(water1300, 3);
    expect(lawn.state()!.lawn.soil_water_estimate).toBe(before.soil_water_estimate);
    expect(lawn.state()!.lawn).toMatchObject({
      last_cut_at: cut.last_cut_at,
      last_cut_source: 'robot',
      gdd_since_cut: cut.gdd_since_cut,
      mow_need: cut.mow_need,
    });

    replay(lawn, clock, '2026-06-15T13:10:00Z', '2026-06-15T15:30:00Z', () => sunny);
    const dryAt = Date.parse('2026-06-15T13:00:00Z') + (water1300 / dry(sunny)) * HOUR;
    const after = lawn.state()!.lawn;
    expect(after.blades_wet).toBe(false);
    expect(Math.abs(Date.parse(after.dry_since as string) - dryAt)).toBeLessThan(1000);
    expect(after.summary).toBe(`Halme trocken seit ${new Date(dryAt + 2 * HOUR).toISOString().slice(11, 16)} Uhr`);
    expect(lawn.state()!.mowable).toBe(true);
  });

  it('a dew morning and quiet hours at sunset (Berlin, 21 June: sunset 21:33 CEST)', async () => {
    const clock = new FakeClock(Date.parse('2026-06-21T00:00:00Z'));
    const lawn = await lawns.start(clock);
    replay(lawn, clock, '2026-06-21T00:00:00Z', '2026-06-21T03:50:00Z', () => dewNight);
    replay(lawn, clock, '2026-06-21T04:00:00Z', '2026-06-21T04:00:00Z', () => morning);
    // 24 calm humid steps of 10 min: 4 h of dew at 0.04 mm/h.
    expect(lawn.state()!.lawn).toMatchObject({ blades_wet: true, blade_water_mm: expect.closeTo(4 * DEW_RATE_MM_H, 3) });
    expect(lawn.state()).toMatchObject({ mowable: false });
    expect(lawn.state()!.input).toMatchObject({ blade_drying_minutes: Math.ceil(((4 * DEW_RATE_MM_H) / dry(morning)) * 60) });

    replay(lawn, clock, '2026-06-21T04:10:00Z', '2026-06-21T18:50:00Z', () => morning);
    const dryAt = Date.parse('2026-06-21T04:00:00Z') + ((4 * DEW_RATE_MM_H) / dry(morning)) * HOUR;
    expect(Math.abs(Date.parse(lawn.state()!.lawn.dry_since as string) - dryAt)).toBeLessThan(1000);
    expect(lawn.state()).toMatchObject({ mowable: true });

    replay(lawn, clock, '2026-06-21T19:00:00Z', '2026-06-21T19:10:00Z', () => morning);
    expect(lawn.state()).toMatchObject({
      mowable: false,
      mowable_reason: 'quiet hours: night ban from 21:03 (30 min before sunset) to 05:13 (30 min after sunrise)',
    });
    // Quiet hours hold the flag, not the index.
    expect(lawn.state()!.main_status).toBe('OK');
  });

  it('a 10-day drought empties the soil bucket to below its readily available water, never below the wilting point', async () => {
    const clock = new FakeClock(Date.parse('2026-07-01T00:00:00Z'));
    const lawn = await lawns.start(clock);
    const hot = (at: number): Weather => {
      const hour = new Date(at).getUTCHours() + 2;
      const sun = Math.max(0, Math.sin(((hour - 5) / 16) * Math.PI));
      return { temperature: 16 + 12 * sun, humidity: 75 - 35 * sun, wind_speed: 10, solar: 850 * sun };
    };
    const soil: number[] = [];
    for (let day = 1; day <= 10; day++) {
      replay(
        lawn,
        clock,
        iso(Date.parse('2026-07-01T00:00:00Z') + (day - 1) * 24 * HOUR),
        iso(Date.parse('2026-07-01T00:00:00Z') + day * 24 * HOUR - 30 * 60_000),
        hot,
        30,
      );
      soil.push(lawn.state()!.lawn.soil_water_estimate as number);
      if (day === 3) expect(lawn.state()!.lawn.drought).toBe(false);
    }
    for (let i = 1; i < soil.length; i++) expect(soil[i]!).toBeLessThan(soil[i - 1]!);
    // Loam: field capacity 28 %, wilting point 12 %, p 0.4 → stress below 28 − 0.4·16 = 21.6 %.
    expect(soil[9]!).toBeLessThan(21.6);
    expect(soil[9]!).toBeGreaterThanOrEqual(12);
    expect(lawn.state()!.lawn.drought).toBe(true);
  });
});
