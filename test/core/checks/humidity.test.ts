import { describe, expect, it } from 'vitest';
import { checkFor } from '../helpers.js';

describe('humidity check', () => {
  it.each([
    [16, 15, 'BLOCK'],
    [14, 15, 'BLOCK'],
    [13.5, 25, 'BLOCK'],
    [13, 35, 'BLOCK'],
    [12.5, 45, 'WARNING'],
    [12, 55, 'WARNING'],
    [11.5, 65, 'WARNING'],
    [11, 75, 'OK'],
    [9, 90, 'OK'],
    [7, 100, 'OK'],
    [-20, 100, 'OK'],
  ])('at 15 °C a dew point of %d °C scores %d (%s)', (dewPoint, score, status) => {
    const check = checkFor('humidity', { temperature: 15, humidity: 80, dew_point: dewPoint });
    expect(check.score).toBe(score);
    expect(check.status).toBe(status);
    expect(check.meta.dew_point_source).toBe('measured');
  });

  it.each([
    // [dew point, solar, score]: +10 while DPD > 2 K and solar >= 300 W/m²
    [12, 300, 65],
    [12, 299, 55],
    [13, 900, 35],
    [7, 900, 100],
  ])('at 15 °C with dew point %d °C and solar %d W/m² scores %d', (dewPoint, solar, score) => {
    expect(checkFor('humidity', { temperature: 15, humidity: 70, dew_point: dewPoint, solar }).score).toBe(score);
  });

  it('computes the dew point with the Magnus formula when it is missing', () => {
    const check = checkFor('humidity', { temperature: 20, humidity: 50 });
    expect(check.meta.dew_point_source).toBe('magnus');
    expect(check.meta.dew_point as number).toBeCloseTo(9.26, 1);
    expect(check.meta.dew_point_depression as number).toBeCloseTo(10.74, 1);
    expect(check.data_confidence).toBe('medium');
  });

  it.each([
    [100, 'BLOCK'],
    [95, 'BLOCK'],
    [80, 'WARNING'],
    [70, 'OK'],
    [0, 'OK'],
  ])('relative humidity %d %% at 12 °C gives %s', (humidity, status) => {
    expect(checkFor('humidity', { temperature: 12, humidity }).status).toBe(status);
  });

  it('uses the German dew template and flags the dew risk', () => {
    const check = checkFor('humidity', { temperature: 8, humidity: 97 });
    expect(check.reasons[0]).toMatch(/^<b>Taupunktdifferenz nur 0,4 K<\/b> \(Luftfeuchte 97 %\) – Taubildung, Halme sind nass\.$/);
    expect(check.meta.dew_risk).toBe('high');
  });

  it.each([
    [14.5, 'Taubildung, Halme sind nass'],
    [12.5, 'Taubildung möglich, Halme trocknen langsam'],
    [11.2, 'keine Taubildung, Halme trocken'],
  ])('at 15 °C with dew point %d °C says „%s“', (dewPoint, text) => {
    expect(checkFor('humidity', { temperature: 15, humidity: 80, dew_point: dewPoint }).reasons[0]).toContain(text);
  });

  it('is high confidence with dew point, solar and wind and carries the spec meta keys', () => {
    const check = checkFor('humidity', { temperature: 20, humidity: 50, dew_point: 9, solar: 500, wind_speed: 10 });
    expect(check.data_confidence).toBe('high');
    expect(check.skipped_parts).toEqual({});
    expect(Object.keys(check.meta)).toEqual(
      expect.arrayContaining(['humidity', 'temperature', 'season', 'dew_point_depression', 'drying_potential']),
    );
    expect(check.meta.drying_potential as number).toBeGreaterThan(0);
    expect(check.meta.drying_potential as number).toBeLessThanOrEqual(1);
  });
});
