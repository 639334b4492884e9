import { describe, expect, it } from 'vitest';
import { trafficScore } from '../../../src/core/softSoil.js';
import { checkFor } from '../helpers.js';

describe('soiltemp check', () => {
  it.each([
    [-5, 10, 'BLOCK'],
    [0, 10, 'BLOCK'],
    [0.5, 25, 'BLOCK'],
    [1, 40, 'WARNING'],
    [4.4, 55, 'WARNING'],
    [8, 74, 'OK'],
    [10, 85, 'OK'],
    [12, 100, 'OK'],
    [22, 100, 'OK'],
    [25, 90, 'OK'],
    [29, 70, 'OK'],
    [30, 63, 'WARNING'],
    [32, 50, 'WARNING'],
    [35, 30, 'BLOCK'],
    [60, 30, 'BLOCK'],
  ])('soil %d °C scores %d (%s)', (soilTemperature, score, status) => {
    const check = checkFor('soiltemp', { soil_temperature: soilTemperature });
    expect(check.score).toBe(score);
    expect(check.status).toBe(status);
  });

  it.each([
    // loam, field capacity 28 %, saturation 46 %, walk-behind mower: [soil_moisture, score, load class].
    // Model 1.2 (src/core/softSoil.ts): above field capacity at the breakpoints of s = (θ − 28)/18.
    [23.8, 100, 'low'],
    [28, 80, 'moderate'],
    [28.9, 65, 'high'], // s 0.05; 1.1: 70
    [33.4, 50, 'high'], // s 0.3; 1.1: 27
    [37, 40, 'high'], // s 0.5; 1.1: 10
    [40.6, 25, 'very_high'], // s 0.7; 1.1: 10
    [46, 10, 'saturated'], // s 1; 1.1: 10
  ])('loam at %d %% moisture scores %d', (soilMoisture, score, loadClass) => {
    const check = checkFor('soiltemp', { soil_temperature: 15, soil_moisture: soilMoisture });
    expect(check.score).toBe(score);
    expect(check.meta.soil_moisture_load_class).toBe(loadClass);
  });

  it.each([
    [5, 45],
    [9.8, 45],
    [12.6, 82],
    [14, 100],
  ])('drought at %d %% moisture (loam) scores %d and is never a BLOCK', (soilMoisture, score) => {
    const check = checkFor('soiltemp', { soil_temperature: 15, soil_moisture: soilMoisture });
    expect(check.score).toBe(score);
    expect(check.status).not.toBe('BLOCK');
    if (score < 100) expect(check.reasons.join(' ')).toContain('Trockenstress');
  });

  it.each([
    ['sand', 'walk', 12, 80],
    ['clay', 'walk', 38, 80],
    ['loam', 'robot', 28, 87],
    ['loam', 'ride_on', 23.8, 87],
    ['loam', 'ride_on', 28, 50],
  ] as const)('%s soil with a %s mower at %d %% scores %d', (soilType, mowerClass, soilMoisture, score) => {
    const check = checkFor('soiltemp', { soil_temperature: 15, soil_moisture: soilMoisture }, 'summer', { soilType, mowerClass });
    expect(check.score).toBe(score);
  });

  it('names wet soil with the German template', () => {
    // 1.1: "Boden wassergesättigt" (score 10); 1.2: s = 0.56, BLOCK for a walk-behind mower.
    const check = checkFor('soiltemp', { soil_temperature: 15, soil_moisture: 38 });
    expect(check.status).toBe('BLOCK');
    expect(check.reasons[0]).toContain('Boden nass</b> (38 % Bodenfeuchte, Lehmboden) – Gefahr von Bodenverdichtung und Fahrspuren.');
  });

  it.each([
    // Loam 4 points above field capacity two days after heavy rain (s = 0.22): a weight question (model 1.2).
    // [mower, score, status]; 1.1: robot 52 WARNING, walk 39 BLOCK, ride-on 19 BLOCK.
    ['robot', 61, 'WARNING'],
    ['walk', 55, 'WARNING'],
    ['ride_on', 32, 'BLOCK'],
  ] as const)('soft loam (32 %%) for a %s mower scores %d (%s)', (mowerClass, score, status) => {
    const check = checkFor('soiltemp', { soil_temperature: 15, soil_moisture: 32 }, 'summer', { mowerClass });
    expect(check.score).toBe(score);
    expect(check.status).toBe(status);
  });

  it('never rates wetter soil better, for any mower (monotone in θ)', () => {
    for (const mowerClass of ['robot', 'walk', 'ride_on'] as const) {
      let previous = 101;
      for (let theta = 10; theta <= 50; theta += 0.25) {
        const score = trafficScore(theta, { soilType: 'loam', mowerClass });
        expect(score).toBeLessThanOrEqual(previous + 1e-9);
        previous = score;
      }
    }
  });

  it('never rates a heavier mower better on the same soil', () => {
    for (let theta = 10; theta <= 50; theta += 0.5) {
      const lawn = (mowerClass: 'robot' | 'walk' | 'ride_on') => trafficScore(theta, { soilType: 'clay', mowerClass });
      expect(lawn('walk')).toBeLessThanOrEqual(lawn('robot'));
      expect(lawn('ride_on')).toBeLessThanOrEqual(lawn('walk'));
    }
  });

  it('skips the load-bearing part without soil moisture and never estimates it', () => {
    const check = checkFor('soiltemp', { soil_temperature: 15 });
    expect(check.skipped_parts).toEqual({ load_bearing: { reason: expect.any(String), missing: ['soil_moisture'] } });
    expect(check.data_confidence).toBe('medium');
    expect(check.meta).toMatchObject({ soil_temp: 15, soil_moisture: null, soil_moisture_load_class: null });
  });

  it('is skipped without soil_temperature even when soil moisture is present', () => {
    const check = checkFor('soiltemp', { soil_moisture: 20 });
    expect(check.executed).toBe(false);
    expect(check.skipped_reason).toBe('Required field soil_temperature is missing or invalid.');
  });
});
