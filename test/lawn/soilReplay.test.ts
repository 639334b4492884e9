/**
 * The soil water bucket reaches the index through the MQTT side (FakeClock, readings every 10 or 30
 * minutes): without a soil-moisture sensor the estimate is fed to the core as `soil_moisture`, flagged
 * in derived_fields and `lawn.soil_moisture_source`; a sensor's reading always wins; a drought shows.
 */
import { describe, expect, it } from 'vitest';
import { initialLawnMemory } from '../../src/core/lawn/memory.js';
import { soilProfile } from '../../src/core/lawn/soilBucket.js';
import { SPIN_UP_MS } from '../../src/lawn/soilFeed.js';
import { Database } from '../../src/store/database.js';
import { FakeClock } from '../helpers/mqttHarness.js';
import { replay, type LawnDaemon, type Weather } from './lawnHarness.js';
import { lawnDaemonPerTest, SUNNY as sunny } from '../helpers/lawnReplay.js';
import { LawnMemoryStore } from '../../src/store/lawnMemoryStore.js';

const HOUR = 3_600_000;
const loam = soilProfile('loam', 'cool_season');
const downpour: Weather = { temperature: 15, humidity: 98, wind_speed: 5, solar: 50, rainMm: 5 };

/** A lawn memory that has run for longer than the spin-up (the daemon ran for weeks), at `soilPct`. */
async function seedMemory(dbPath: string, atMs: number, soilPct: number): Promise<void> {
  const database = await Database.open(dbPath);
  // Checkpoints older than 2 days are kept every 6 h (src/core/lawn/memory.ts), as a running memory has them.
  const oldest = Math.floor((atMs - SPIN_UP_MS - HOUR) / (6 * HOUR)) * 6 * HOUR;
  const gddCheckpoints: Array<[number, number]> = [];
  for (let ms = oldest; ms < atMs; ms += 6 * HOUR) gddCheckpoints.push([ms, 0]);
  const state = { ...initialLawnMemory(loam), soilPct, gddCheckpoints };
  await new LawnMemoryStore(database).saveBalances([{ station: 'garden', state }], atMs);
  await database.close();
}

describe('soil water estimate in the index', () => {
  const lawns = lawnDaemonPerTest();

  async function heavyRain(weather: (w: Weather) => Weather): Promise<LawnDaemon> {
    const clock = new FakeClock(Date.parse('2026-06-15T06:00:00Z'));
    await seedMemory(lawns.dbPath, clock.now(), 28);
    const lawn = await lawns.start(clock);
    replay(lawn, clock, '2026-06-15T06:00:00Z', '2026-06-15T07:50:00Z', () => weather(sunny));
    // 30 mm in an hour, then four hours of sun: the surface dries, the root zone is still draining.
    replay(lawn, clock, '2026-06-15T08:00:00Z', '2026-06-15T08:50:00Z', () => weather(downpour));
    replay(lawn, clock, '2026-06-15T09:00:00Z', '2026-06-15T13:00:00Z', () => weather(sunny));
    return lawn;
  }

  it('heavy rain fills the bucket: without a sensor the index shows soft soil, flagged as estimated', async () => {
    const daemon = await heavyRain((w) => w);
    const state = daemon.state()!;
    const estimate = state.lawn.soil_water_estimate as number;
    // 28 % + 30 mm / 5 mm per % = 34 % at 09:00, minus ET and drainage (τ 24 h) since: still well above θ_FC.
    expect(estimate).toBeGreaterThan(31);
    expect(state.lawn).toMatchObject({ soil_soft: true, soil_moisture_source: 'estimated' });
    expect(state.lawn.derived_inputs).toContain('soil_moisture');
    expect(state.input.soil_moisture).toBeCloseTo(estimate, 1);
    expect(state.derived_fields).toContain('soil_moisture');
    // The core rated it as an estimate: not a measured field, the rain check's soil load from the balance.
    expect(state.available_fields).not.toContain('soil_moisture');
    const rain = (state.checks as Record<string, { reasons: string[]; meta: Record<string, unknown> }>).rain!;
    expect(rain.meta.soil_load_source).toBe('soil_water_balance');
    expect(rain.reasons.join(' ')).toMatch(
      /Boden (nass|sehr feucht, eingeschränkt befahrbar|wassergesättigt) \(geschätzt: [\d,]+ % Bodenfeuchte nach Wasserbilanz, Lehmboden\)/,
    );
    expect(state.mowable).toBe(false);
  });

  it('a soil-moisture sensor wins: the estimate is ignored, its reading rated as measured', async () => {
    const daemon = await heavyRain((w) => ({ ...w, soil_moisture: 24 }));
    const state = daemon.state()!;
    expect(state.lawn).toMatchObject({ soil_soft: true, soil_moisture_source: 'sensor' });
    expect(state.lawn.derived_inputs).not.toContain('soil_moisture');
    expect(state.input.soil_moisture).toBe(24);
    expect(state.derived_fields).not.toContain('soil_moisture');
    expect(state.available_fields).toContain('soil_moisture');
    const rain = (state.checks as Record<string, { meta: Record<string, unknown> }>).rain!;
    expect(rain.meta.soil_load_source).toBe('soil_moisture');
  });

  it('a fresh memory is not fed to the index until it has run for the spin-up time', async () => {
    const clock = new FakeClock(Date.parse('2026-06-15T06:00:00Z'));
    const lawn = await lawns.start(clock);
    replay(lawn, clock, '2026-06-15T06:00:00Z', '2026-06-15T08:50:00Z', () => downpour);
    expect(lawn.state()!.lawn).toMatchObject({ soil_soft: true, soil_moisture_source: null });
    expect(lawn.state()!.input.soil_moisture).toBeUndefined();
    expect(lawn.state()!.derived_fields).not.toContain('soil_moisture');
  });

  it('a drought: once the bucket has used its readily available water, the index caps at WARNING (estimated)', async () => {
    const start = Date.parse('2026-07-01T04:00:00Z');
    const clock = new FakeClock(start);
    await seedMemory(lawns.dbPath, start, 23);
    const lawn = await lawns.start(clock);
    // Warm dry days (max 25 °C, below the heat threshold): only the drought caps the temperature check.
    const day = (at: number): Weather => {
      const sun = Math.max(0, Math.sin(((new Date(at).getUTCHours() + 2 - 5) / 16) * Math.PI));
      return { temperature: 14 + 11 * sun, humidity: 75 - 35 * sun, wind_speed: 10, solar: 850 * sun };
    };
    const iso = (ms: number) => new Date(ms).toISOString();
    replay(lawn, clock, iso(start), iso(start + 8 * HOUR), day, 30);
    const temperature = () => (lawn!.state()!.checks as Record<string, { score: number; reasons: string[] }>).temperature!;
    expect(lawn.state()!.lawn.drought).toBe(false);
    expect(temperature().score).toBeGreaterThan(60);
    // Loam: FC 28 %, WP 12 %, p 0.4 → stress below 21.6 %; about 0.9 % a day at these conditions.
    replay(lawn, clock, iso(start + 8.5 * HOUR), iso(start + 3 * 24 * HOUR + 8 * HOUR), day, 30);
    const state = lawn.state()!;
    expect(state.lawn).toMatchObject({ drought: true, soil_moisture_source: 'estimated' });
    expect(state.lawn.soil_water_estimate as number).toBeLessThan(21.6);
    expect(temperature().score).toBe(60);
    expect(temperature().reasons[0]).toMatch(/^Trockenphase \(geschätzte Bodenfeuchte [\d,]+ % nach Wasserbilanz\)/);
    expect(state.main_status).toBe('WARNING');
  });
});
