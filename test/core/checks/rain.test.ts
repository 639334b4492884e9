import { describe, expect, it } from 'vitest';
import { INTERCEPTION_STORAGE_MM, MIN_DRYING_RATE_MM_H, dryingMinutesFor } from '../../../src/core/drying.js';
import { checkFor, subScore } from '../helpers.js';

describe('rain check: precipitation now', () => {
  it.each([
    [0, 100],
    [0.1, 30],
    [0.19, 30],
    [0.2, 10],
    [1.99, 10],
    [2, 0],
    [40, 0],
  ])('rate %d mm/h gives the precipitation sub-score %d', (rate, score) => {
    const check = checkFor('rain', { precipitation_rate: rate, minutes_since_rain: 99999 });
    expect(subScore(check, 'precipitation')).toBe(score);
    expect(check.score).toBe(score);
  });

  it('blocks while it rains, with the German template', () => {
    const check = checkFor('rain', { precipitation_rate: 0.6 });
    expect(check.status).toBe('BLOCK');
    expect(check.reasons[0]).toBe('<b>Es regnet</b> (0,6 mm/h) – nicht mähen.');
    // minutes_since_rain is estimated as 0 while it rains.
    expect(check.meta).toMatchObject({ minutes_since_rain: 0, minutes_since_rain_source: 'estimated', limiting_factor: 'precipitation' });
  });
});

describe('rain check: dry_down (surface wetness)', () => {
  // Model 1.2: the film of INTERCEPTION_STORAGE_MM dries at the wet-canopy rate of now (src/core/drying.ts).
  const SUNNY = { temperature: 24, humidity: 50, wind_speed: 15, solar: 700 };
  const sunnyMinutes = dryingMinutesFor(INTERCEPTION_STORAGE_MM, { temperatureC: 24, humidityPct: 50, windKmh: 15, solarWm2: 700 });

  it.each([
    // [minutes left to dry, sub-score]: the breakpoints of BLADE_DRYING_CURVE, 1.1 in the comment.
    [240, 15], // 1.1: 0 min after light rain 15
    [120, 20], // 1.1: 37.5 min 20
    [60, 40], // 1.1: 75 min 40
    [20, 55], // 1.1: 112.5 min 55
    [0, 70], // 1.1: 150 min 70
    [-60, 90], // 1.1: 225 min 90
    [-120, 100], // 1.1: 300 min 100
  ])('%d minutes left to dry in sun and wind scores %d', (left, score) => {
    const check = checkFor('rain', { ...SUNNY, minutes_since_rain: Math.max(0, sunnyMinutes - left) });
    if (sunnyMinutes - left >= 0) expect(subScore(check, 'surface_wetness')).toBeCloseTo(score, 0);
    expect(check.meta.drying_time_min).toBe(Math.round(sunnyMinutes));
  });

  it('dries in about an hour in summer sun and wind, in most of a day on a still humid night', () => {
    const sunny = checkFor('rain', { ...SUNNY, minutes_since_rain: 60 });
    const night = checkFor('rain', { temperature: 12, humidity: 95, solar: 0, wind_speed: 0, minutes_since_rain: 60 });
    expect(sunny.meta.drying_time_min).toBeGreaterThan(55);
    expect(sunny.meta.drying_time_min).toBeLessThan(80);
    expect(night.meta.drying_time_min).toBe(Math.round((INTERCEPTION_STORAGE_MM / MIN_DRYING_RATE_MM_H) * 60));
    expect(subScore(sunny, 'surface_wetness')).toBeGreaterThan(subScore(night, 'surface_wetness'));
  });

  it('holds the same film after light and heavy rain (thatch and soil are the residual and cumulative models)', () => {
    const light = checkFor('rain', { ...SUNNY, minutes_since_rain: 30, rain_12h: 1 });
    const heavy = checkFor('rain', { ...SUNNY, minutes_since_rain: 30, rain_12h: 40 });
    expect(light.meta.drying_time_min).toBe(heavy.meta.drying_time_min);
  });

  it('uses the German wet-lawn template with natural durations', () => {
    const check = checkFor('rain', { minutes_since_rain: 45, humidity: 70, solar: 200, wind_speed: 5 });
    expect(check.reasons.join(' ')).toMatch(
      /^Letzter Regen vor 45 Minuten – <b>Rasen noch nass<\/b>, trocken in ca\. [0-9,]+ (Minuten|Stunden) bei jetzigem Wetter \(Verdunstung [0-9,]+ mm\/h\)\.$/,
    );
    expect(check.meta.drying_source).toBe('rain');
    expect(check.meta.drying_minutes_left).toBeGreaterThan(0);
  });

  it.each([
    // [input, estimated minutes]
    [{ rain_1h: 0.4 }, 30],
    [{ rain_1h: 0, rain_12h: 1 }, 360],
    [{ rain_1h: 0, rain_12h: 0, rain_24h: 1 }, 720],
    [{ rain_24h: 0 }, 1440],
  ])('estimates minutes_since_rain from the rain windows %j', (input, minutes) => {
    const check = checkFor('rain', input);
    expect(check.meta.minutes_since_rain).toBe(minutes);
    expect(check.meta.minutes_since_rain_source).toBe('estimated');
    expect(check.data_confidence).toBe('medium');
  });

  it('skips dry_down when nothing tells when it last rained', () => {
    const check = checkFor('rain', {});
    expect(check.skipped_parts.dry_down?.missing).toEqual(['minutes_since_rain', 'rain_1h', 'rain_12h', 'rain_24h']);
    expect(check.meta.models_executed).toEqual([]);
    expect(check.data_confidence).toBe('low');
  });
});

describe('rain check: cumulative', () => {
  it.each([
    [0, 100],
    [2, 100],
    [5, 85],
    [10, 65],
    [20, 40],
    [30, 20],
    [40, 10],
    [300, 10],
  ])('%d mm in the last hour scores %d', (rain, score) => {
    const check = checkFor('rain', { rain_1h: rain, minutes_since_rain: 99999 });
    expect(check.meta.rain_cumulative).toBe(rain);
    expect(subScore(check, 'cumulative')).toBe(score);
  });

  it('weights older time slices less', () => {
    // 1 + 0.6·(6 − 1) + 0.3·(16 − 6) = 7 mm
    const check = checkFor('rain', { rain_1h: 1, rain_12h: 6, rain_24h: 16 });
    expect(check.meta.rain_cumulative).toBe(7);
    expect(subScore(check, 'cumulative')).toBe(77);
  });

  it('treats a narrower window as the lower bound of a broader one and says so', () => {
    const check = checkFor('rain', { rain_1h: 0, rain_12h: 8, rain_24h: 3 });
    // rain_24h is raised to 8: 0 + 0.6·8 + 0.3·0 = 4.8
    expect(check.meta.rain_cumulative).toBe(4.8);
    expect(check.meta.windows_inconsistent).toBe(true);
    expect(check.reasons.join(' ')).toContain('Regenfenster widersprüchlich');
  });

  it('assumes all rain of a broader window fell recently when narrower windows are missing', () => {
    expect(checkFor('rain', { rain_24h: 12 }).meta.rain_cumulative).toBe(12);
    expect(checkFor('rain', { rain_12h: 10, rain_24h: 12 }).meta.rain_cumulative).toBe(10.6);
  });
});

describe('rain check: residual_moisture', () => {
  it.each([
    // Loam (the default lawn): hold 240 min, clear 300 min; doubled after ≥ 20 mm in 24 h (model 1.1, D3).
    [4.9, 4.9, 100, 100],
    [5, 5, 240, 55],
    [5, 5, 270, 78],
    [5, 5, 300, 100],
    [5, 20, 480, 55],
    [5, 20, 540, 78],
    [5, 20, 600, 100],
    // Heavy rain 12–24 h ago with a dry last 12 h still leaves the thatch and soil wet (doubled windows).
    [0, 19.9, 480, 100],
    [0, 20, 480, 55],
    [0, 30, 500, 63],
    [0, 30, 540, 78],
    [0, 30, 600, 100],
  ])('rain_12h %d, rain_24h %d, %d min after rain scores %d', (rain12h, rain24h, minutes, score) => {
    const check = checkFor('rain', { rain_12h: rain12h, rain_24h: rain24h, minutes_since_rain: minutes });
    expect(Math.round(subScore(check, 'residual'))).toBe(score);
    expect(check.meta.models_executed).toContain('residual_moisture');
  });

  it('penalises heavy rain 12–24 h ago even when the last 12 h were dry', () => {
    // 500 min after 30 mm: the cumulative model alone (0.3·30 = 9 mm -> 69) would leave it near OK.
    // Sunny, so the blades dried long ago (model 1.2 dries by the weather of now).
    const check = checkFor('rain', { rain_24h: 30, rain_12h: 0, minutes_since_rain: 500, humidity: 50, solar: 600, wind_speed: 10 });
    expect(check.score).toBe(63);
    expect(check.meta.limiting_factor).toBe('residual');
    expect(check.reasons[0]).toBe(
      'Ergiebiger Regen (30 mm in 24 Stunden) – Restfeuchte in Rasenfilz und Boden, nach Starkregen etwa einen Tag warten.',
    );
  });

  it('stays monotone around the new 24-hour trigger: more rain never raises, more time never lowers it', () => {
    const residualAt = (rain24h: number, minutes: number) =>
      subScore(checkFor('rain', { rain_12h: 0, rain_24h: rain24h, minutes_since_rain: minutes }), 'residual');
    for (const minutes of [0, 360, 700, 720, 900, 1200, 1440, 2000]) {
      for (let rain24h = 0; rain24h < 40; rain24h += 2.5) {
        expect(residualAt(rain24h + 2.5, minutes)).toBeLessThanOrEqual(residualAt(rain24h, minutes));
      }
    }
    for (const rain24h of [10, 20, 35]) {
      for (let minutes = 0; minutes < 2000; minutes += 100) {
        expect(residualAt(rain24h, minutes + 100)).toBeGreaterThanOrEqual(residualAt(rain24h, minutes));
      }
    }
  });

  it('names the 12-hour amount when only the 12-hour rule applies', () => {
    const check = checkFor('rain', { rain_12h: 8, rain_24h: 10, minutes_since_rain: 250 });
    expect(check.reasons.join(' ')).toContain('Ergiebiger Regen (8 mm in 12 Stunden) – Restfeuchte in Rasenfilz und Boden.');
  });
});

describe('rain check: sml (soil moisture load)', () => {
  it.each([
    // [season, rain_14d, API mm, score]
    ['spring', 50, 26, 68],
    ['summer', 50, 19, 82],
    ['winter', 50, 35.5, 49],
    ['autumn', 100, 52, 23],
    ['summer', 10, 3.8, 100],
  ] as const)('in %s, %d mm in 14 days gives API %d mm and score %d', (season, rain14d, api, score) => {
    const check = checkFor('rain', { rain_14d: rain14d, minutes_since_rain: 99999 }, season);
    expect(check.meta.api_mm).toBe(api);
    expect(Math.round(subScore(check, 'soil'))).toBe(score);
    expect(check.meta.soil_load_source).toBe('api_estimate');
  });

  it.each([
    ['sand', 85],
    ['loam', 68],
    ['clay', 55],
  ] as const)('scales the API curve for %s soil (score %d)', (soilType, score) => {
    const check = checkFor('rain', { rain_14d: 50, minutes_since_rain: 99999 }, 'spring', { soilType });
    expect(Math.round(subScore(check, 'soil'))).toBe(score);
  });

  it('prefers measured soil moisture, without the drought term', () => {
    // Saturated loam (46 %; 1.1 reached 10 already at 36.4 %, model 1.2 rates that 41.7, src/core/softSoil.ts).
    const wet = checkFor('rain', { soil_moisture: 46, rain_14d: 0, minutes_since_rain: 99999 });
    expect(subScore(wet, 'soil')).toBe(10);
    expect(wet.meta).toMatchObject({ soil_load: 'saturated', soil_load_source: 'soil_moisture', limiting_factor: 'soil' });
    const dry = checkFor('rain', { soil_moisture: 3, minutes_since_rain: 99999 });
    expect(subScore(dry, 'soil')).toBe(100);
  });

  it('names heavy antecedent rain in German', () => {
    const check = checkFor('rain', { rain_14d: 120, minutes_since_rain: 99999 }, 'autumn');
    expect(check.reasons.join(' ')).toContain('Viel Vorregen (120 mm in 14 Tagen) – Boden noch nicht ausreichend tragfähig.');
  });
});

describe('rain check: combination and meta', () => {
  it('lists the most severe sub-model first', () => {
    const check = checkFor(
      'rain',
      { soil_moisture: 38, rain_1h: 0, rain_12h: 8, rain_24h: 25, minutes_since_rain: 500, humidity: 50, solar: 600, wind_speed: 10 },
      'autumn',
    );
    expect(check.meta.limiting_factor).toBe('soil');
    expect(check.reasons[0]).toContain('Boden nass'); // 1.1: „Boden wassergesättigt“ (model 1.2: s = 0.56)
    // The measured soil moisture replaces the residual estimate (D3); the cumulative finding follows.
    expect(check.reasons[1]).toContain('Viel Regen in den letzten 24 Stunden');
    expect(check.meta.models_executed).not.toContain('residual_moisture');
  });

  it('takes the lowest sub-model and breaks ties in the documented order', () => {
    const check = checkFor('rain', { rain_1h: 0, rain_12h: 0, rain_24h: 0, rain_14d: 0, minutes_since_rain: 99999, humidity: 50 });
    expect(check.score).toBe(100);
    expect(check.meta.limiting_factor).toBe('precipitation');
    expect(check.data_confidence).toBe('high');
    expect(check.meta.models_executed).toEqual(['dry_down', 'residual_moisture', 'sml']);
  });

  it('carries the spec meta keys', () => {
    const check = checkFor('rain', { precipitation_rate: 0 });
    expect(Object.keys(check.meta)).toEqual(
      expect.arrayContaining(['rain_source', 'rain_cumulative', 'rain_rate', 'soil_load', 'limiting_factor', 'season', 'models_executed']),
    );
    expect(check.meta).toMatchObject({ rain_source: 'precipitation_rate', rain_cumulative: null, rain_rate: 0, soil_load: null });
  });
});

describe('rain check: residual moisture by soil type (D3)', () => {
  it.each([
    // [soil, minutes after 8 mm, residual sub-score]
    ['sand', 120, 55],
    ['sand', 150, 78],
    ['sand', 180, 100],
    ['loam', 240, 55],
    ['loam', 270, 78],
    ['loam', 300, 100],
    ['clay', 360, 55],
    ['clay', 450, 78],
    ['clay', 540, 100],
  ] as const)('%s, %d min after 8 mm: %d', (soilType, minutes, score) => {
    const check = checkFor('rain', { rain_12h: 8, rain_24h: 8, minutes_since_rain: minutes }, 'summer', { soilType });
    expect(Math.round(subScore(check, 'residual'))).toBe(score);
  });

  it('doubles the times after ≥ 20 mm in 24 h', () => {
    const at = (soilType: 'sand' | 'clay', minutes: number) =>
      subScore(checkFor('rain', { rain_12h: 20, rain_24h: 20, minutes_since_rain: minutes }, 'summer', { soilType }), 'residual');
    expect(at('sand', 240)).toBe(55);
    expect(at('sand', 360)).toBe(100);
    expect(at('clay', 720)).toBe(55);
    expect(at('clay', 1080)).toBe(100);
  });

  it('is replaced by a measured soil moisture', () => {
    const check = checkFor('rain', { rain_12h: 8, rain_24h: 8, minutes_since_rain: 120, soil_moisture: 20 }, 'summer', {
      soilType: 'clay',
    });
    expect(check.meta.models_executed).not.toContain('residual_moisture');
    expect(check.meta.sub_scores).not.toHaveProperty('residual');
    expect(check.skipped_parts).not.toHaveProperty('residual_moisture');
  });
});
