import { describe, expect, it } from 'vitest';
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
    // loam, field capacity 28 %: [soil_moisture, score, load class]
    [23.8, 100, 'low'],
    [28, 80, 'moderate'],
    [30.8, 50, 'high'],
    [33.6, 25, 'very_high'],
    [36.4, 10, 'saturated'],
    [45, 10, 'saturated'],
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
    const check = checkFor('soiltemp', { soil_temperature: 15, soil_moisture: 38 });
    expect(check.status).toBe('BLOCK');
    expect(check.reasons[0]).toContain('Boden wassergesättigt</b> (38 % Bodenfeuchte, Lehmboden) – Gefahr von Bodenverdichtung und Fahrspuren.');
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
