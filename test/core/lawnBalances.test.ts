/**
 * The lawn memory's balances (src/core/lawn/): FAO-56 ET0 against the paper's worked example, tables of
 * blade and soil steps, and properties — drying is monotone in dry weather, more rain never dries faster,
 * the soil bucket stays between wilting point and saturation.
 */
import fc from 'fast-check';
import { dryingRateMmH } from '../../src/core/drying.js';
import { describe, expect, it } from 'vitest';
import { BLADE_STORAGE_MM, DEW_RATE_MM_H, DRY_BLADES, dryingMinutesLeft, stepBlades, type BladeState } from '../../src/core/lawn/blades.js';
import {
  penmanMonteithHourly,
  referenceEtMmPerHour,
  saturationVapourPressure,
  windAt2m,
  type EtWeather,
} from '../../src/core/lawn/evaporation.js';
import { degreeDays, mowNeed } from '../../src/core/lawn/growth.js';
import { gddSince, initialLawnMemory, stepLawnMemory } from '../../src/core/lawn/memory.js';
import { isSoilDrought, isSoilSoft, soilProfile, stepSoil } from '../../src/core/lawn/soilBucket.js';

const HOUR = 3_600_000;
const T0 = Date.parse('2026-06-15T12:00:00Z');
const sunny: EtWeather = { temperatureC: 20, humidityPct: 60, windKmh: 10, solarWm2: 600 };

describe('FAO-56 reference evapotranspiration', () => {
  it("reproduces FAO-56 example 19 (hourly ET0, 14–15 h at N'Diaye: 0.63 mm/h)", () => {
    const es = saturationVapourPressure(38);
    expect(es).toBeCloseTo(6.625, 2);
    const et0 = penmanMonteithHourly({ temperatureC: 38, es, ea: es * 0.52, u2: 3.3, rn: 1.749, g: 0.175, gamma: 0.0673 });
    expect(et0).toBeCloseTo(0.63, 2);
  });

  it('converts 10 m wind to 2 m (eq. 47) and falls back to 2 m/s without wind', () => {
    expect(windAt2m(3.6)).toBeCloseTo(0.748, 3);
    expect(windAt2m(undefined)).toBe(2);
  });

  it.each([
    ['sunny temperate afternoon', sunny, 0.3648],
    ['hot summer noon', { temperatureC: 26, humidityPct: 45, windKmh: 10, solarWm2: 750 }, 0.5391],
    ["humid night (condensation is the dew rule's job)", { temperatureC: 12, humidityPct: 80, windKmh: 5, solarWm2: 0 }, 0],
    [
      'no solar reading counts as dark',
      { temperatureC: 20, humidityPct: 60, windKmh: 10 },
      referenceEtMmPerHour({ temperatureC: 20, humidityPct: 60, windKmh: 10, solarWm2: 0 }),
    ],
  ])('%s', (_name, weather, expected) => {
    expect(referenceEtMmPerHour(weather as EtWeather)).toBeCloseTo(expected as number, 3);
  });

  it('needs humidity or a dew point', () => {
    expect(referenceEtMmPerHour({ temperatureC: 20, windKmh: 10, solarWm2: 600 })).toBeUndefined();
    expect(referenceEtMmPerHour({ temperatureC: 20, dewPointC: 12, solarWm2: 600 })).toBeGreaterThan(0);
  });
});

describe('blade water', () => {
  const step = (state: BladeState, rainMm: number, weather: EtWeather | undefined, hours = 1) =>
    stepBlades(state, { fromMs: T0, toMs: T0 + hours * HOUR, rainMm, weather });

  it.each([
    // Model 1.2: the wet-canopy rate of the one drying model (1.1: ET0, 0.3648 mm/h, off a 1.0 mm storage).
    ['8 mm fill the storage, an hour of sun takes the wet-canopy rate off', 8, sunny, 1, BLADE_STORAGE_MM - dryingRateMmH(sunny)],
    ['0.2 mm of drizzle in the sun evaporate within the hour', 0.2, sunny, 1, 0],
    ['dew on a calm humid night', 0, { temperatureC: 12, humidityPct: 95, windKmh: 3, solarWm2: 0 }, 8, 8 * DEW_RATE_MM_H],
    ['no dew in wind', 0, { temperatureC: 12, humidityPct: 95, windKmh: 15, solarWm2: 0 }, 8, 0],
    ['unknown weather: rain only', 0.5, undefined, 1, 0.5],
  ])('%s', (_name, rain, weather, hours, expected) => {
    expect(step(DRY_BLADES, rain, weather, hours).waterMm).toBeCloseTo(expected, 3);
  });

  it('dates the moment the film is gone', () => {
    const after = step({ waterMm: dryingRateMmH(sunny) / 2, drySinceMs: null }, 0, sunny, 1);
    expect(after).toEqual({ waterMm: 0, drySinceMs: T0 + 30 * 60_000 });
    expect(dryingMinutesLeft({ waterMm: dryingRateMmH(sunny), drySinceMs: null }, sunny)).toBe(60);
    expect(dryingMinutesLeft({ waterMm: 0.3, drySinceMs: null }, { temperatureC: 12, humidityPct: 95, windKmh: 2, solarWm2: 0 })).toBe(
      Number.POSITIVE_INFINITY,
    );
  });

  const weatherArb = fc.record({
    temperatureC: fc.double({ min: -5, max: 38, noNaN: true }),
    humidityPct: fc.double({ min: 10, max: 100, noNaN: true }),
    windKmh: fc.double({ min: 0, max: 60, noNaN: true }),
    solarWm2: fc.double({ min: 0, max: 1000, noNaN: true }),
  });

  it('property: without rain and outside dew weather the water never grows (monotone drying in dry weather)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: BLADE_STORAGE_MM, noNaN: true }),
        weatherArb,
        fc.double({ min: 0, max: 3, noNaN: true }),
        (water, weather, hours) => {
          fc.pre(weather.solarWm2 >= 20 || weather.windKmh >= 11 || weather.humidityPct < 90);
          expect(step({ waterMm: water, drySinceMs: null }, 0, weather, hours).waterMm).toBeLessThanOrEqual(water);
        },
      ),
    );
  });

  it('property: more rain never leaves less water (never dries faster), and water stays within the storage', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: BLADE_STORAGE_MM, noNaN: true }),
        fc.double({ min: 0, max: 20, noNaN: true }),
        fc.double({ min: 0, max: 20, noNaN: true }),
        weatherArb,
        (water, rain, extra, weather) => {
          const less = step({ waterMm: water, drySinceMs: null }, rain, weather);
          const more = step({ waterMm: water, drySinceMs: null }, rain + extra, weather);
          expect(more.waterMm).toBeGreaterThanOrEqual(less.waterMm);
          expect(more.waterMm).toBeLessThanOrEqual(BLADE_STORAGE_MM);
          expect(more.waterMm).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });
});

describe('soil bucket', () => {
  const loam = soilProfile('loam', 'cool_season');

  it.each([
    ['8 mm on loam at field capacity: +1.6 %, then drains (τ 24 h)', 28, 8, undefined, 0, 29.6],
    ['… after 24 h without ET: 28 + 1.6/e', 29.6, 0, undefined, 24, 28 + 1.6 / Math.E],
    ['a day of 0.2 mm/h ET0 at field capacity: −0.95·4.8/5', 28, 0, 0.2, 24, 28 - (0.95 * 4.8) / 5],
    ['100 mm on saturated clay: capped at saturation, then drains', 51, 100, undefined, 0, 51],
  ])('%s', (_name, theta, rain, et0, hours, expected) => {
    const profile = String(_name).includes('clay') ? soilProfile('clay', 'cool_season') : loam;
    expect(stepSoil(theta, profile, rain, et0, hours)).toBeCloseTo(expected, 3);
  });

  it('flags drought below the readily available water and softness above field capacity', () => {
    expect(isSoilDrought(28 - 6.3, loam)).toBe(false);
    expect(isSoilDrought(28 - 6.5, loam)).toBe(true);
    expect(isSoilSoft(29, loam)).toBe(true);
    expect(isSoilSoft(28, loam)).toBe(false);
  });

  it('property: θ stays between wilting point and saturation for every soil, rain and ET', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('sand', 'loam', 'clay' as const),
        fc.constantFrom('cool_season', 'warm_season' as const),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 200, noNaN: true }),
        fc.double({ min: 0, max: 2, noNaN: true }),
        fc.double({ min: 0, max: 240, noNaN: true }),
        (soil, turf, share, rain, et0, hours) => {
          const profile = soilProfile(soil, turf);
          const theta = profile.wiltingPct + share * (profile.saturationPct - profile.wiltingPct);
          const next = stepSoil(theta, profile, rain, et0, hours);
          expect(next).toBeGreaterThanOrEqual(profile.wiltingPct);
          expect(next).toBeLessThanOrEqual(profile.saturationPct);
        },
      ),
    );
  });

  it('property: more rain never leaves the soil drier', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 12, max: 46, noNaN: true }),
        fc.double({ min: 0, max: 50, noNaN: true }),
        fc.double({ min: 0, max: 50, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (theta, rain, extra, et0) => {
          expect(stepSoil(theta, loam, rain + extra, et0, 1)).toBeGreaterThanOrEqual(stepSoil(theta, loam, rain, et0, 1) - 1e-9);
        },
      ),
    );
  });
});

describe('growth since the cut', () => {
  it('counts degree-days above 5 °C and turns them into mow need by the one-third rule', () => {
    expect(degreeDays(15, 24)).toBe(10);
    expect(degreeDays(3, 24)).toBe(0);
    // 4 cm cut: due at 2 cm growth = 50 degree-days at 0.04 cm each.
    expect(mowNeed(25, 1, 4)).toBe(50);
    expect(mowNeed(50, 1, 4)).toBe(100);
    expect(mowNeed(80, 1, 4)).toBe(100);
    expect(mowNeed(25, 2, 4)).toBe(100);
  });

  it('counts degree-days from a cut reported later, by hourly checkpoints', () => {
    const profile = soilProfile('loam', 'cool_season');
    let memory = initialLawnMemory(profile);
    const weather = { temperatureC: 17, humidityPct: 60 };
    for (let minutes = 0; minutes <= 12 * 60; minutes += 10) {
      memory = stepLawnMemory(memory, { toMs: T0 + minutes * 60_000, rainMm: 0, weather }, profile);
    }
    // 12 h at 17 °C: 12 × 12/24 = 6 degree-days in all, 3 since the cut six hours in.
    expect(memory.gddTotal).toBeCloseTo(6, 6);
    expect(gddSince(memory, T0 + 6 * HOUR)).toBeCloseTo(3, 6);
  });
});

describe('stored size of the memory', () => {
  it('keeps hourly degree-day checkpoints for 2 days and 6-hourly ones up to 15 days, so the stored row stays small', () => {
    const profile = soilProfile('loam', 'cool_season');
    let memory = initialLawnMemory(profile);
    const weather = { temperatureC: 15, humidityPct: 60 };
    for (let minutes = 0; minutes <= 20 * 24 * 60; minutes += 30) {
      memory = stepLawnMemory(memory, { toMs: T0 + minutes * 60_000, rainMm: 0, weather }, profile);
    }
    const now = memory.atMs!;
    expect(memory.gddCheckpoints.every(([ms]) => ms >= now - 15 * 24 * HOUR)).toBe(true);
    expect(memory.gddCheckpoints.length).toBeLessThanOrEqual(48 + 13 * 4 + 2);
    expect(JSON.stringify(memory).length).toBeLessThan(3000);
    // A cut five days ago still counts from the nearest 6-hour checkpoint before it: 5 days · 10 GDD, within 6 h.
    expect(gddSince(memory, now - 5 * 24 * HOUR)).toBeGreaterThanOrEqual(50);
    expect(gddSince(memory, now - 5 * 24 * HOUR)).toBeLessThanOrEqual(52.5);
  });
});
