import { describe, expect, it } from 'vitest';
import { calculateWith } from '../../src/core/calculate.js';
import { CHECK_REGISTRY } from '../../src/core/checks/registry.js';
import { rainCheck } from '../../src/core/checks/rain.js';
import type { CheckDefinition } from '../../src/core/checks/types.js';
import { CHECK_NAMES, FIELD_NAMES, calculate } from '../../src/core/index.js';
import { contextAt, GOOD_DAY, resultFor, skippedCheck, SPRING_NOON_MS, SUMMER_NOON_MS, WINTER_NOON_MS } from './helpers.js';

const RESULT_KEYS = [
  'mfi_version',
  'season',
  'season_source',
  'index_score',
  'main_status',
  'data_quality',
  'score_basis',
  'available_fields',
  'missing_fields',
  'checks',
  'protocol',
  'rain_source_info',
  'calculated_at',
];

describe('result shape', () => {
  it('lists the result fields in the spec table order', () => {
    expect(Object.keys(resultFor(GOOD_DAY))).toEqual(RESULT_KEYS);
    expect(Object.keys(resultFor({ temperature: 10, precipitation_rate: 0 }))).toEqual(
      RESULT_KEYS.filter((key) => key !== 'rain_source_info'),
    );
  });

  it('always has five check entries in order, executed ones with the spec keys and no skipped_reason', () => {
    const result = resultFor(GOOD_DAY);
    expect(Object.keys(result.checks)).toEqual(CHECK_NAMES);
    for (const check of Object.values(result.checks)) {
      expect(Object.keys(check ?? {})).toEqual(['executed', 'status', 'score', 'data_confidence', 'reasons', 'skipped_parts', 'meta']);
      expect(check?.reasons.length).toBeGreaterThan(0);
    }
  });

  it('reports skipped checks in the check entry and in protocol.skipped_checks', () => {
    const result = resultFor({ temperature: 10, precipitation_rate: 0, wind_gusts: 30, dew_point: 5 });
    expect(result.checks.humidity).toEqual(skippedCheck('humidity'));
    expect(result.protocol.skipped_checks).toEqual([
      { check: 'soiltemp', reason: 'Required field soil_temperature is missing or invalid.', missing: ['soil_temperature'] },
      { check: 'wind', reason: 'Required field wind_speed is missing or invalid.', missing: ['wind_speed'] },
      { check: 'humidity', reason: 'Required field humidity is missing or invalid.', missing: ['humidity'] },
    ]);
    expect(result.score_basis.checks_used).toBe(2);
    expect(result.data_quality).toBe('partial');
  });

  it('lists checks with omitted sub-analyses in protocol.partial_checks', () => {
    const result = resultFor({ temperature: 15, precipitation_rate: 0, soil_temperature: 12 }, contextAt(SPRING_NOON_MS));
    expect(result.protocol.partial_checks).toEqual([
      { check: 'temperature', parts: ['frost_history', 'growth_phase'] },
      { check: 'soiltemp', parts: ['load_bearing'] },
      { check: 'rain', parts: ['dry_down', 'rain_cumulative', 'residual_moisture', 'sml'] },
    ]);
    expect(result.protocol).not.toHaveProperty('calculation_error');
    expect(resultFor(GOOD_DAY).protocol.partial_checks).toEqual([]);
  });

  it('ignores unknown keys such as api_key, season and __proto__', () => {
    const input = JSON.parse(
      '{"temperature": 20, "precipitation_rate": 0, "api_key": "secret", "season": "winter", "__proto__": {"humidity": 99}, "constructor": 5}',
    ) as Record<string, unknown>;
    const result = resultFor(input, contextAt(SUMMER_NOON_MS));
    expect(result.season).toBe('summer');
    expect(result.available_fields).toEqual(['temperature', 'precipitation_rate']);
    expect(JSON.stringify(result)).not.toContain('secret');
  });

  it('lists invalid and out-of-range values as missing', () => {
    const result = resultFor({
      temperature: '21.5',
      precipitation_rate: ' 0 ',
      humidity: 101,
      wind_speed: '5 km/h',
      solar: true,
      rain_1h: [1],
    });
    expect(result.available_fields).toEqual(['temperature', 'precipitation_rate']);
    expect(result.missing_fields).toEqual(FIELD_NAMES.slice(2));
    expect(result.checks.temperature?.meta.temperature).toBe(21.5);
  });
});

describe('rain_source_info', () => {
  it('is absent without rain_1h, rain_12h or rain_24h, even with rain_14d', () => {
    expect(resultFor({ temperature: 10, precipitation_rate: 0, rain_14d: 20, minutes_since_rain: 100 })).not.toHaveProperty(
      'rain_source_info',
    );
  });

  it.each([
    [{ rain_1h: 0 }, ['rain_1h'], 'rain_1h', ['rain_12h', 'rain_24h']],
    [{ rain_12h: 1 }, ['rain_12h'], 'rain_12h', ['rain_1h', 'rain_24h']],
    [{ rain_1h: 0, rain_24h: 4 }, ['rain_1h', 'rain_24h'], 'rain_24h', ['rain_12h']],
    [{ rain_1h: 0, rain_12h: 1, rain_24h: 4 }, ['rain_1h', 'rain_12h', 'rain_24h'], 'rain_24h', []],
  ])('for %j uses %j with cumulative source %s', (windows, used, source, notProvided) => {
    const info = resultFor({ temperature: 10, precipitation_rate: 0, ...windows }).rain_source_info;
    expect(info).toEqual({
      windows_used: used,
      cumulative_source: source,
      not_provided: notProvided,
      note: expect.stringContaining('time slices'),
    });
  });

  it('ignores an invalid window value', () => {
    expect(resultFor({ temperature: 10, precipitation_rate: 0, rain_1h: -1, rain_24h: 'x' })).not.toHaveProperty('rain_source_info');
  });
});

describe('time, season and context', () => {
  it('formats calculated_at in the context time zone', () => {
    const nowMs = Date.UTC(2026, 6, 1, 22, 30, 5);
    expect(resultFor(GOOD_DAY, contextAt(nowMs, { timeZone: 'Europe/Berlin' })).calculated_at).toBe('2026-07-02 00:30:05');
    expect(resultFor(GOOD_DAY, contextAt(nowMs, { timeZone: 'UTC' })).calculated_at).toBe('2026-07-01 22:30:05');
    expect(resultFor(GOOD_DAY, contextAt(nowMs, { timeZone: 'Invalid/Zone' })).calculated_at).toBe('2026-07-01 22:30:05');
  });

  it('writes each calculated_at whole when consecutive calls share a minute, a second or neither', () => {
    // The last minute's text is kept between calls: every field that differs has to be written anew.
    const cases: Array<[number, string]> = [
      [Date.UTC(2026, 6, 1, 22, 30, 5), '2026-07-01 22:30:05'],
      [Date.UTC(2026, 6, 1, 22, 30, 59), '2026-07-01 22:30:59'],
      [Date.UTC(2026, 6, 1, 22, 31, 59), '2026-07-01 22:31:59'],
      [Date.UTC(2026, 6, 1, 23, 31, 59), '2026-07-01 23:31:59'],
      [Date.UTC(2026, 6, 2, 23, 31, 59), '2026-07-02 23:31:59'],
      [Date.UTC(2026, 7, 2, 23, 31, 59), '2026-08-02 23:31:59'],
      [Date.UTC(2027, 7, 2, 23, 31, 59), '2027-08-02 23:31:59'],
      [Date.UTC(2027, 7, 2, 23, 31, 0), '2027-08-02 23:31:00'],
    ];
    for (const [nowMs, text] of cases) expect(resultFor(GOOD_DAY, contextAt(nowMs, { timeZone: 'UTC' })).calculated_at).toBe(text);
  });

  it('takes the season from the local month and the hemisphere', () => {
    // 31 August 23:30 UTC is 1 September in Berlin: autumn there, summer in UTC.
    const nowMs = Date.UTC(2026, 7, 31, 23, 30);
    expect(resultFor(GOOD_DAY, contextAt(nowMs, { timeZone: 'Europe/Berlin' })).season).toBe('autumn');
    expect(resultFor(GOOD_DAY, contextAt(nowMs, { timeZone: 'UTC' })).season).toBe('summer');
    const south = resultFor(GOOD_DAY, contextAt(WINTER_NOON_MS, { timeZone: 'Australia/Melbourne', hemisphere: 'south' }));
    expect(south.season).toBe('summer');
    expect(south.season_source).toBe('auto');
    expect(south.checks.temperature?.meta.season).toBe('summer');
  });

  it('uses a forced season as manual, and ignores an invalid forced season', () => {
    const forced = resultFor(GOOD_DAY, contextAt(SUMMER_NOON_MS, { forcedSeason: 'winter' }));
    expect(forced.season).toBe('winter');
    expect(forced.season_source).toBe('manual');
    expect(forced.checks.temperature?.meta.season).toBe('winter');
    // Model 1.1 (D4): dormancy comes from the soil (15 °C here), not from the season.
    expect(forced.checks.temperature?.reasons.join(' ')).not.toContain('Winterruhe');
    const bogus = resultFor(GOOD_DAY, { ...contextAt(SUMMER_NOON_MS), forcedSeason: 'monsoon' as never });
    expect(bogus.season).toBe('summer');
    expect(bogus.season_source).toBe('auto');
  });

  it('defaults the lawn profile to loam and walk-behind and ignores invalid profile values', () => {
    const result = resultFor(GOOD_DAY, contextAt(SPRING_NOON_MS, { lawn: { soilType: 'peat' as never } }));
    expect(result.checks.soiltemp?.meta).toMatchObject({ soil_type: 'loam', mower_class: 'walk' });
    const robot = resultFor(GOOD_DAY, contextAt(SPRING_NOON_MS, { lawn: { soilType: 'sand', mowerClass: 'robot' } }));
    expect(robot.checks.soiltemp?.meta).toMatchObject({ soil_type: 'sand', mower_class: 'robot' });
  });

  it('never throws on a broken context', () => {
    const outcome = calculate(GOOD_DAY, { nowMs: Number.NaN, timeZone: 42 as never, hemisphere: 'east' as never, lawn: null as never });
    expect(outcome.ok).toBe(true);
    if (outcome.ok) {
      expect(outcome.result.calculated_at).toBe('1970-01-01 00:00:00');
      expect(outcome.result.season).toBe('winter');
    }
    const hostile = Object.defineProperty({}, 'nowMs', {
      get() {
        throw new Error('boom');
      },
    }) as never;
    expect(calculate(GOOD_DAY, hostile).ok).toBe(true);
    expect(calculate(GOOD_DAY, undefined as never).ok).toBe(true);
  });

  it('never throws on hostile input objects', () => {
    const proxy = new Proxy(
      { temperature: 10, precipitation_rate: 0 },
      {
        get() {
          throw new Error('boom');
        },
      },
    );
    const outcome = calculate(proxy, contextAt(SPRING_NOON_MS));
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.missing).toEqual(['temperature', 'precipitation_rate']);
    expect(calculate(null as never, contextAt(SPRING_NOON_MS)).ok).toBe(false);
  });
});

describe('a failing check', () => {
  const throwingWind: CheckDefinition = {
    name: 'wind',
    weight: 0.1,
    requiredFields: ['wind_speed'],
    skippedReason: 'Required field wind_speed is missing or invalid.',
    evaluate() {
      throw new TypeError('cannot read properties of undefined (secret internals)');
    },
  };
  const registry = CHECK_REGISTRY.map((check) => (check.name === 'wind' ? throwingWind : check));

  it('skips a check of an injected registry that requires a field the input cannot have', () => {
    const unknownField = { ...throwingWind, requiredFields: ['wind_speed', 'no_such_field'] } as unknown as CheckDefinition;
    const outcome = calculateWith(
      CHECK_REGISTRY.map((check) => (check.name === 'wind' ? unknownField : check)),
      GOOD_DAY,
      contextAt(SPRING_NOON_MS),
    );
    expect(outcome.ok && outcome.result.protocol.skipped_checks).toEqual([
      { check: 'wind', reason: throwingWind.skippedReason, missing: ['no_such_field'] },
    ]);
  });

  it('is reported as not executed while the calculation completes', () => {
    const outcome = calculateWith(registry, GOOD_DAY, contextAt(SPRING_NOON_MS));
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const { result } = outcome;
    expect(result.checks.wind).toMatchObject({ executed: false, status: null, score: null, data_confidence: null, reasons: [], meta: {} });
    expect(result.checks.wind?.skipped_reason).toMatch(/internal/i);
    expect(result.protocol.calculation_error).toBe("Check 'wind' failed with an internal error (TypeError) and was not executed.");
    expect(result.protocol.calculation_error).not.toContain('secret');
    expect(result.protocol.calculation_error).not.toMatch(/\bat\b.*:\d+/);
    expect(result.score_basis.checks_used).toBe(4);
    // The four remaining checks are OK, but the failed one might have blocked: WARNING at best.
    expect(result.index_score).toBe(69);
    expect(result.main_status).toBe('WARNING');
    expect(result.protocol.skipped_checks.map((entry) => entry.check)).toEqual(['wind']);
  });

  it('never lets a failed rain check leave an OK index behind', () => {
    const throwingRain: CheckDefinition = {
      ...rainCheck,
      evaluate() {
        throw new RangeError('boom');
      },
    };
    const withFailingRain = CHECK_REGISTRY.map((check) => (check.name === 'rain' ? throwingRain : check));
    // Raining hard: the real rain check would BLOCK; without it the other checks are all OK.
    const input = { ...GOOD_DAY, precipitation_rate: 5 };
    const healthy = calculateWith(CHECK_REGISTRY, input, contextAt(SPRING_NOON_MS));
    expect(healthy.ok && healthy.result.main_status).toBe('BLOCK');
    const outcome = calculateWith(withFailingRain, input, contextAt(SPRING_NOON_MS));
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const { result } = outcome;
    expect(result.checks.rain).toMatchObject({ executed: false, score: null, status: null });
    expect(result.protocol.calculation_error).toBe("Check 'rain' failed with an internal error (RangeError) and was not executed.");
    expect(
      Object.values(result.checks)
        .filter((check) => check?.executed)
        .every((check) => check?.status === 'OK'),
    ).toBe(true);
    expect(result.index_score).toBeLessThanOrEqual(69);
    expect(result.main_status).toBe('WARNING');
  });

  it('keeps a lower index when the remaining checks already give less than the cap', () => {
    const outcome = calculateWith(registry, { ...GOOD_DAY, temperature: 31 }, contextAt(SPRING_NOON_MS));
    // The same combination without the wind check at all (no failure, so no cap).
    const healthy = calculateWith(
      CHECK_REGISTRY.filter((check) => check.name !== 'wind'),
      { ...GOOD_DAY, temperature: 31 },
      contextAt(SPRING_NOON_MS),
    );
    expect(outcome.ok && healthy.ok).toBe(true);
    if (!outcome.ok || !healthy.ok) return;
    expect(outcome.result.index_score).toBeLessThan(69);
    expect(outcome.result.index_score).toBe(healthy.result.index_score);
  });

  it('gives BLOCK with no limiting check when every check fails', () => {
    const broken = CHECK_REGISTRY.map((check) => ({
      ...check,
      evaluate: () => {
        throw new Error('x');
      },
    }));
    const outcome = calculateWith(broken, GOOD_DAY, contextAt(SPRING_NOON_MS));
    expect(outcome.ok && outcome.result.score_basis).toEqual({ checks_used: 0, checks_total: 5, limiting_check: null });
    expect(outcome.ok && outcome.result.main_status).toBe('BLOCK');
  });
});
