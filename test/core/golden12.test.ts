/**
 * Golden situations of model 1.2, one (or more) per disagreement with a greenkeeper's judgement. Each
 * case notes the 1.1 result it replaces (computed with the 1.1 core); docs/model.md works the first by hand.
 */
import { describe, expect, it } from 'vitest';
import type { CalculationContext } from '../../src/core/index.js';
import { expectGolden, goldenRows, type GoldenCase } from './golden.js';
import { resultFor } from './helpers.js';


const berlin = (iso: string, extra: Partial<CalculationContext> = {}): CalculationContext => ({
  nowMs: Date.parse(iso), timeZone: 'Europe/Berlin', hemisphere: 'north', ...extra,
});

const SOFT_LOAM = {
  temperature: 22, precipitation_rate: 0, humidity: 55, wind_speed: 8, solar: 600, soil_temperature: 16, soil_moisture: 32,
  rain_1h: 0, rain_12h: 0, rain_24h: 0, rain_14d: 45, minutes_since_rain: 2880,
};

const CASES: GoldenCase[] = [
  {
    // 1.1: 36 BLOCK, „Abtrocknung dauert ca. 2,5 Stunden“ while the humidity check said the sun speeds drying.
    name: 'drying: 1.5 mm shower ended 45 min ago, then strong May sun and a fresh breeze',
    input: { temperature: 17, precipitation_rate: 0, humidity: 55, wind_speed: 18, solar: 700, rain_1h: 1.5, rain_12h: 1.5, rain_24h: 1.5, rain_14d: 15, minutes_since_rain: 45 },
    context: berlin('2026-05-12T09:00:00Z'),
    status: 'WARNING', limiting: 'rain', reason: 'trocken in ca. 30 Minuten bei jetzigem Wetter (Verdunstung 0,56 mm/h)', index: 59,
  },
  {
    // 1.1: 39 BLOCK, „noch nass … ca. 3 Stunden“ whatever the sun.
    name: 'drying: sprinkler run an hour ago in full July sun',
    input: { temperature: 27, precipitation_rate: 0, humidity: 40, wind_speed: 10, solar: 800, soil_temperature: 20, rain_24h: 0, rain_14d: 20, minutes_since_rain: 5000, minutes_since_irrigation: 60 },
    context: berlin('2026-07-14T11:00:00Z'),
    status: 'WARNING', limiting: 'rain', reason: 'Bewässerung vor 60 Minuten', index: 69,
  },
  {
    // 1.1: 49 WARNING („Bodenfrost möglich“): 320 W/m² counted as thawed at once.
    name: 'ground frost: calm October night, 2 m minimum +0.5 °C, 08:30 with first sun',
    input: { temperature: 2.5, precipitation_rate: 0, humidity: 85, wind_speed: 4, solar: 320, min_temp_3h: 0.5, min_temp_3d: 0.5, rain_24h: 0, rain_14d: 20, minutes_since_rain: 3000 },
    context: berlin('2026-10-10T08:30:00Z'),
    status: 'BLOCK', limiting: 'temperature', reason: 'am Boden etwa -2,5 °C', index: 39,
  },
  {
    // 1.1: 39 BLOCK („Boden nass“ twice, from soiltemp and rain).
    name: 'soft soil: loam 4 points above field capacity two days after heavy rain, walk-behind mower',
    input: SOFT_LOAM,
    context: berlin('2026-06-12T11:00:00Z', { lawn: { mowerClass: 'walk' } }),
    status: 'WARNING', limiting: 'soiltemp', reason: 'Boden sehr feucht, eingeschränkt befahrbar', index: 61,
  },
  {
    // 1.1: 58 WARNING.
    name: 'soft soil: the same lawn, robot mower',
    input: SOFT_LOAM,
    context: berlin('2026-06-12T11:00:00Z', { lawn: { mowerClass: 'robot' } }),
    status: 'WARNING', limiting: 'soiltemp', reason: 'Boden sehr feucht, eingeschränkt befahrbar', index: 66,
  },
  {
    // 1.1: 29 BLOCK („Boden wassergesättigt“ twice).
    name: 'soft soil: the same lawn, ride-on mower',
    input: SOFT_LOAM,
    context: berlin('2026-06-12T11:00:00Z', { lawn: { mowerClass: 'ride_on' } }),
    status: 'BLOCK', limiting: 'soiltemp', reason: 'Boden nass', index: 39,
  },
];

describe('golden situations of model 1.2', () => {
  it.each(goldenRows(CASES))('%s', (_name, golden) => {
    const result = expectGolden(golden);
    expect(result.mfi_version).toBe('1.2.0');
  });

  it('names a fact once: the wet soil in one check, the frost in one reason', () => {
    const soft = resultFor(SOFT_LOAM, berlin('2026-06-12T11:00:00Z'));
    const all = Object.values(soft.checks).flatMap((check) => check?.reasons ?? []);
    expect(all.filter((reason) => reason.includes('Bodenfeuchte'))).toHaveLength(1);
    const frost = resultFor(CASES[2]!.input, CASES[2]!.context).checks.temperature!.reasons;
    expect(frost.filter((reason) => reason.includes('Bodenfrost'))).toHaveLength(1);
  });
});
