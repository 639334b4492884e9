import { describe, expect, it } from 'vitest';
import { combine, dataQualityFor } from '../../src/core/combine.js';
import type { ScoredCheck } from '../../src/core/combine.js';
import type { CheckName } from '../../src/core/index.js';

const WEIGHTS: Record<CheckName, number> = { temperature: 0.2, soiltemp: 0.2, rain: 0.3, wind: 0.1, humidity: 0.2 };
const scored = (scores: Partial<Record<CheckName, number>>): ScoredCheck[] =>
  (Object.keys(WEIGHTS) as CheckName[])
    .filter((name) => scores[name] !== undefined)
    .map((name) => ({ name, weight: WEIGHTS[name], score: scores[name] ?? 0 }));

describe('minimum model', () => {
  it.each([
    // all five OK: 0.75·80 + 0.25·(0.2·80 + 0.2·100 + 0.3·100 + 0.1·100 + 0.2·100) = 60 + 24 = 84
    [{ temperature: 80, soiltemp: 100, rain: 100, wind: 100, humidity: 100 }, 'full', 84, 'OK', 'temperature'],
    // a BLOCK caps at 39: blend = 0.75·30 + 0.25·79 = 42.25
    [{ temperature: 100, soiltemp: 100, rain: 30, wind: 100, humidity: 100 }, 'full', 39, 'BLOCK', 'rain'],
    // a WARNING caps at 69: wmean = (0.2·65 + 0.3·100 + 0.1·100)/0.6 = 88.33, blend = 48.75 + 22.08 = 70.83 -> 69
    [{ temperature: 65, rain: 100, wind: 100 }, 'partial', 69, 'WARNING', 'temperature'],
    // below the cap the blend stands: wmean = 86.67, blend = 45 + 21.67 = 66.67 -> 67
    [{ temperature: 60, rain: 100, wind: 100 }, 'partial', 67, 'WARNING', 'temperature'],
    // weights renormalise over executed checks: (0.2·70 + 0.3·100)/0.5 = 88 -> 0.75·70 + 0.25·88 = 74.5 -> 75 (rounded half up)
    [{ temperature: 70, rain: 100 }, 'partial', 75, 'OK', 'temperature'],
    // data-quality caps
    [{ temperature: 100, soiltemp: 100, rain: 100, wind: 100, humidity: 100 }, 'full', 100, 'OK', 'temperature'],
    [{ temperature: 100, soiltemp: 100, rain: 100, wind: 100, humidity: 100 }, 'partial', 95, 'OK', 'temperature'],
    [{ temperature: 100, rain: 100 }, 'minimal', 85, 'OK', 'temperature'],
    // pure BLOCK stays far below the cap
    [{ temperature: 0, rain: 0 }, 'minimal', 0, 'BLOCK', 'temperature'],
  ] as const)('%j with %s data gives %d (%s), limited by %s', (scores, quality, index, status, limiting) => {
    expect(combine(scored(scores), quality)).toEqual({ indexScore: index, mainStatus: status, limitingCheck: limiting });
  });

  it('breaks ties for the limiting check by check order (temperature, soiltemp, rain, wind, humidity)', () => {
    expect(combine(scored({ temperature: 50, rain: 40, humidity: 40 }), 'partial').limitingCheck).toBe('rain');
    expect(combine(scored({ soiltemp: 40, rain: 40, wind: 40 }), 'partial').limitingCheck).toBe('soiltemp');
  });

  it('caps the index at 69 (WARNING at best) when a check failed internally', () => {
    const allOk = scored({ temperature: 100, soiltemp: 100, rain: 100, humidity: 100 });
    expect(combine(allOk, 'full')).toEqual({ indexScore: 100, mainStatus: 'OK', limitingCheck: 'temperature' });
    expect(combine(allOk, 'full', true)).toEqual({ indexScore: 69, mainStatus: 'WARNING', limitingCheck: 'temperature' });
    // A lower index and a BLOCK stay as they are.
    expect(combine(scored({ temperature: 50, rain: 100 }), 'partial', true).indexScore).toBe(
      combine(scored({ temperature: 50, rain: 100 }), 'partial').indexScore,
    );
    expect(combine(scored({ temperature: 10, rain: 100 }), 'partial', true).mainStatus).toBe('BLOCK');
  });

  it('returns 0 / BLOCK with no limiting check when no check ran', () => {
    expect(combine([], 'full')).toEqual({ indexScore: 0, mainStatus: 'BLOCK', limitingCheck: null });
  });
});

describe('data quality', () => {
  it.each([
    [17, 'full'],
    [16, 'partial'],
    [3, 'partial'],
    [2, 'minimal'],
  ] as const)('%d valid fields of 17 is %s', (count, quality) => {
    expect(dataQualityFor(count, 2, 17)).toBe(quality);
  });
});
