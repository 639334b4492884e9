import { describe, expect, it } from 'vitest';
import { NO_WETNESS_EVIDENCE_CAP, WETNESS_EVIDENCE_FIELDS, lacksWetnessEvidence, lacksWetnessEvidenceIn } from '../../src/core/evidence.js';
import { parseDenseInput } from '../../src/core/parse.js';
import { resultFor } from './helpers.js';

describe('wetness evidence (D7)', () => {
  it('is missing with only the required fields and non-wetness fields', () => {
    expect(lacksWetnessEvidence({ temperature: 20, precipitation_rate: 0, wind_speed: 5, soil_temperature: 14, rain_14d: 10 })).toBe(true);
  });

  it.each(WETNESS_EVIDENCE_FIELDS.map((name) => [name]))('is present with %s alone', (name) => {
    expect(lacksWetnessEvidence({ temperature: 20, precipitation_rate: 0, [name]: 0 })).toBe(false);
    expect(lacksWetnessEvidenceIn(parseDenseInput({ temperature: 20, precipitation_rate: 0, [name]: 0 }).mask)).toBe(false);
    // An invalid value is no evidence.
    expect(lacksWetnessEvidenceIn(parseDenseInput({ temperature: 20, precipitation_rate: 0, [name]: -1 }).mask)).toBe(true);
  });

  it.each([
    // [extra input, index, status]
    [{}, NO_WETNESS_EVIDENCE_CAP, 'WARNING'],
    [{ wind_speed: 8, solar: 600, soil_temperature: 15, rain_14d: 10 }, NO_WETNESS_EVIDENCE_CAP, 'WARNING'],
    [{ humidity: 50 }, 95, 'OK'],
    [{ rain_24h: 0 }, 95, 'OK'],
    [{ minutes_since_rain: 3000 }, 95, 'OK'],
  ])('a mild dry day with %j scores %d (%s)', (extra, index, status) => {
    const result = resultFor({ temperature: 20, precipitation_rate: 0, ...extra });
    expect(result.index_score).toBe(index);
    expect(result.main_status).toBe(status);
  });

  it('says why in the rain check', () => {
    expect(resultFor({ temperature: 20, precipitation_rate: 0, wind_speed: 4 }).checks.rain?.reasons.join(' ')).toContain(
      'Keine Angaben zu Luftfeuchte',
    );
    expect(resultFor({ temperature: 20, precipitation_rate: 0, humidity: 50 }).checks.rain?.reasons.join(' ')).not.toContain(
      'Keine Angaben zu Luftfeuchte',
    );
  });
});
