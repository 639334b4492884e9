import { describe, expect, it } from 'vitest';
import { checkFor } from '../helpers.js';

describe('wind check', () => {
  it.each([
    [0, 100],
    [15, 100],
    [20, 95],
    [29, 80],
    [39, 55],
    [50, 30],
    [62, 10],
    [75, 0],
    [120, 0],
  ])('mean wind %d km/h gives the mean score %d', (wind, score) => {
    const check = checkFor('wind', { wind_speed: wind, wind_gusts: 0 });
    expect(check.meta.mean_score).toBe(score);
  });

  it.each([
    [30, 100, 'OK'],
    [40, 85, 'OK'],
    [45, 70, 'OK'],
    [46, 67, 'WARNING'],
    [50, 55, 'WARNING'],
    [60, 32, 'BLOCK'],
    [65, 20, 'BLOCK'],
    [75, 5, 'BLOCK'],
    [150, 5, 'BLOCK'],
  ])('gusts of %d km/h at calm mean wind score %d (%s)', (gust, score, status) => {
    const check = checkFor('wind', { wind_speed: 10, wind_gusts: gust });
    expect(check.score).toBe(score);
    expect(check.status).toBe(status);
    expect(check.data_confidence).toBe('high');
  });

  it('estimates missing gusts as 1.5 × mean and flags it', () => {
    const check = checkFor('wind', { wind_speed: 40 });
    expect(check.meta).toMatchObject({ wind: 40, gust: 60, gust_estimated: true, gust_measured: null });
    expect(check.score).toBe(32);
    expect(check.data_confidence).toBe('medium');
  });

  it('never lets a gust below the mean lower the risk', () => {
    expect(checkFor('wind', { wind_speed: 55, wind_gusts: 10 }).meta.gust).toBe(55);
  });

  it('names storm gusts with the Beaufort number', () => {
    const check = checkFor('wind', { wind_speed: 30, wind_gusts: 80 });
    expect(check.reasons[0]).toBe('<b>Sturmböen bis 80 km/h</b> (Bft 9) – Sicherheitsrisiko, Schnittgut verweht.');
  });

  it('adds a leaf note in autumn on a windy but mowable day', () => {
    expect(checkFor('wind', { wind_speed: 22, wind_gusts: 30 }, 'autumn').reasons.join(' ')).toContain('Laub');
    expect(checkFor('wind', { wind_speed: 22, wind_gusts: 30 }, 'summer').reasons.join(' ')).not.toContain('Laub');
  });

  it('carries the spec meta keys', () => {
    expect(checkFor('wind', { wind_speed: 12, wind_gusts: 20 }).meta).toMatchObject({ wind: 12, gust: 20, season: 'summer' });
  });
});
