import { describe, expect, it } from 'vitest';
import { calculate, FIELD_NAMES, MFI_VERSION } from '../../src/core/index.js';
import { contextAt, GOOD_DAY, resultFor, skippedCheck, SPRING_NOON_MS } from './helpers.js';

describe('calculate: basics', () => {
  it('rates a dry, mild, calm day with firm soil clearly OK with full data quality', () => {
    const result = resultFor(GOOD_DAY);
    expect(result.main_status).toBe('OK');
    expect(result.index_score).toBeGreaterThanOrEqual(90);
    expect(result.data_quality).toBe('full');
    expect(result.score_basis).toEqual({ checks_used: 5, checks_total: 5, limiting_check: expect.any(String) });
    expect(result.mfi_version).toBe(MFI_VERSION);
    expect(result.available_fields).toEqual(FIELD_NAMES);
    expect(result.missing_fields).toEqual([]);
    for (const check of Object.values(result.checks)) {
      expect(check?.executed).toBe(true);
      expect(check?.status).toBe('OK');
    }
  });

  it('returns MISSING_REQUIRED_FIELDS with the exact message when both required fields are missing', () => {
    const outcome = calculate({ humidity: 50 }, contextAt(SPRING_NOON_MS));
    expect(outcome).toEqual({
      ok: false,
      error: {
        code: 'MISSING_REQUIRED_FIELDS',
        missing: ['temperature', 'precipitation_rate'],
        message: 'Missing or invalid required field(s): temperature, precipitation_rate.',
      },
    });
  });

  it('treats an invalid required value like a missing one', () => {
    const outcome = calculate({ temperature: '12,5', precipitation_rate: 0 }, contextAt(SPRING_NOON_MS));
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.message).toBe('Missing or invalid required field(s): temperature.');
  });

  it('rates rain falling now as BLOCK with the rain check limiting', () => {
    const result = resultFor({ ...GOOD_DAY, precipitation_rate: 1.5, minutes_since_rain: 0 });
    expect(result.main_status).toBe('BLOCK');
    expect(result.score_basis.limiting_check).toBe('rain');
    expect(result.checks.rain?.reasons.join(' ')).toContain('Es regnet');
  });

  it('skips checks whose required input is missing, with the spec shape', () => {
    const result = resultFor({ temperature: 18, precipitation_rate: 0 });
    expect(result.data_quality).toBe('minimal');
    expect(result.checks.wind).toEqual(skippedCheck('wind_speed'));
    expect(result.score_basis.checks_used).toBe(2);
    expect(result.index_score).toBeLessThanOrEqual(85);
    expect(result.checks.rain?.data_confidence).toBe('low');
  });
});
