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
    [45, 78, 'OK'],
    [50, 70, 'OK'],
    [50.1, 69, 'WARNING'],
    [55, 60, 'WARNING'],
    [58, 54, 'WARNING'],
    [64, 42, 'WARNING'],
    [64.9, 40, 'WARNING'],
    [65, 39, 'BLOCK'],
    [70, 23, 'BLOCK'],
    [75, 5, 'BLOCK'],
    [150, 5, 'BLOCK'],
  ])('gusts of %d km/h at calm mean wind score %d (%s)', (gust, score, status) => {
    const check = checkFor('wind', { wind_speed: 10, wind_gusts: gust });
    expect(check.score).toBe(score);
    expect(check.status).toBe(status);
    expect(check.data_confidence).toBe('high');
  });

  it.each([
    // The reviewer's cases at a mean wind of 20 km/h: DWD > 50 km/h is WARNING, ≥ 65 km/h (Sturmböen) BLOCK.
    [50, 70, 'OK', 'Wind 20 km/h (Bft 4), Böen 50 km/h – unkritisch.'],
    [58, 54, 'WARNING', '<b>Starke Böen bis 58 km/h</b> (Bft 7) – Vorsicht, herabfallende Äste, Schnittgut verweht.'],
    [64, 42, 'WARNING', '<b>Starke Böen bis 64 km/h</b> (Bft 8) – Vorsicht, herabfallende Äste, Schnittgut verweht.'],
    [65, 39, 'BLOCK', '<b>Sturmböen bis 65 km/h</b> (Bft 8) – Sicherheitsrisiko, Schnittgut verweht.'],
  ])('gusts of %d km/h at 20 km/h mean wind score %d (%s) with a matching reason', (gust, score, status, reason) => {
    const check = checkFor('wind', { wind_speed: 20, wind_gusts: gust });
    expect(check.score).toBe(score);
    expect(check.status).toBe(status);
    expect(check.reasons).toEqual([reason]);
  });

  it('gives every status a reason of the same band, for gusts and mean wind alike', () => {
    const storm = /Sturmböen|Sehr starker Wind/;
    const caution = /Starke Böen|Kräftiger Wind/;
    for (let wind = 0; wind <= 80; wind += 2.5) {
      for (const gust of [undefined, ...Array.from({ length: 81 }, (_, i) => i)]) {
        const check = checkFor('wind', gust === undefined ? { wind_speed: wind } : { wind_speed: wind, wind_gusts: gust });
        const first = check.reasons[0] ?? '';
        const label = `wind ${wind}, gust ${gust}: ${first}`;
        if (check.status === 'BLOCK') expect(first, label).toMatch(storm);
        if (check.status === 'WARNING') expect(first, label).toMatch(caution);
        if (check.status === 'OK') expect(first, label).toMatch(/unkritisch/);
        expect(check.reasons.join(' '), label).not.toMatch(check.status === 'OK' ? storm : /unkritisch/);
        const gustScore = check.meta.gust_score as number;
        if (Math.round(gustScore) < 70) expect(check.reasons.join(' '), label).toMatch(/[Bb]öen bis/);
      }
    }
  });

  it('keeps the gust score monotone and switches bands exactly at the DWD thresholds', () => {
    let previous = Number.POSITIVE_INFINITY;
    for (let gust = 0; gust <= 100; gust += 0.1) {
      const check = checkFor('wind', { wind_speed: 0, wind_gusts: Math.round(gust * 10) / 10 });
      const gustScore = check.meta.gust_score as number;
      expect(gustScore).toBeLessThanOrEqual(previous);
      previous = gustScore;
      const g = Math.round(gust * 10) / 10;
      expect(check.status, `gust ${g}`).toBe(g >= 65 ? 'BLOCK' : g > 50 ? 'WARNING' : 'OK');
    }
  });

  it('names a BLOCK-level mean wind as a safety risk, a WARNING-level one as a nuisance', () => {
    // Mean 50 km/h scores 30 (BLOCK); a measured gust of 50 km/h is raised to the mean and scores 70.
    expect(checkFor('wind', { wind_speed: 50, wind_gusts: 50 }).reasons).toEqual([
      '<b>Sehr starker Wind 50 km/h</b> (Bft 7) – Sicherheitsrisiko, herabfallende Äste, nicht mähen.',
    ]);
    // Mean 39 km/h scores 55 (WARNING).
    expect(checkFor('wind', { wind_speed: 39, wind_gusts: 45 }).reasons).toEqual([
      'Kräftiger Wind 39 km/h (Bft 6) – Schnittgut verweht, Arbeiten unangenehm.',
    ]);
  });

  it('estimates missing gusts as 1.5 × mean and flags it', () => {
    const check = checkFor('wind', { wind_speed: 40 });
    // gust 60 -> 70 − 30·10/15 = 50; mean 40 -> 55 − 25/11 = 52.7
    expect(check.meta).toMatchObject({ wind: 40, gust: 60, gust_estimated: true, gust_measured: null, gust_score: 50 });
    expect(check.score).toBe(50);
    expect(check.status).toBe('WARNING');
    expect(check.reasons[0]).toBe('<b>Starke Böen bis geschätzt 60 km/h</b> (Bft 7) – Vorsicht, herabfallende Äste, Schnittgut verweht.');
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
