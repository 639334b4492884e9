import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DRY_SPELL_RAIN_14D_MM } from '../../src/core/drought.js';
import { NO_WETNESS_EVIDENCE_CAP, lacksWetnessEvidence } from '../../src/core/evidence.js';
import { FIELD_SPECS, REQUIRED_FIELDS, calculate, parseInput, statusForScore } from '../../src/core/index.js';
import type { FieldName, FieldSpec } from '../../src/core/index.js';
import { contextOf, mustResult, specOf, validInputOf } from '../helpers/calculationProperties.js';

const NUM_RUNS = 500;

const junk = fc.oneof(
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, true, false, null, undefined),
  fc.constantFrom('', ' ', '12,5', '12,5abc', '0x10', 'NaN', 'Infinity', '1e999', 'abc', '--1', '1..2'),
  fc.double({ min: -1e6, max: 1e6, noNaN: true }).filter((value) => Math.abs(value) > 5000),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }),
  fc.string({ maxLength: 6 }),
);

function validNumber(spec: FieldSpec): fc.Arbitrary<number> {
  return fc.oneof(
    fc.double({ min: spec.min, max: spec.max, noNaN: true }),
    fc.integer({ min: Math.ceil(spec.min), max: Math.floor(spec.max) }),
    fc.constantFrom(spec.min, spec.max),
  );
}

function validValue(spec: FieldSpec): fc.Arbitrary<number | string> {
  return fc.oneof({ weight: 4, arbitrary: validNumber(spec) }, { weight: 1, arbitrary: validNumber(spec).map((value) => ` ${value} `) });
}

/** Any mix of valid, invalid, out-of-range and missing fields, plus hostile extra keys. */
const anyInput: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(
    fc.record(
      Object.fromEntries(
        FIELD_SPECS.map((spec) => [spec.name, fc.oneof({ weight: 3, arbitrary: validValue(spec) }, { weight: 1, arbitrary: junk })]),
      ),
      // Required fields are usually present (but may hold junk, including undefined) so most runs compute a result.
      { requiredKeys: [...REQUIRED_FIELDS] },
    ),
    fc.record({ api_key: fc.string(), season: fc.constantFrom('summer', 'winter', 'x'), constructor: junk }, { requiredKeys: [] }),
  )
  .map(([fields, extra]) => ({ ...extra, ...fields }));

/** Only valid numbers; the two required fields are always present. */
const validInput = validInputOf(validNumber);

const anyContext = contextOf(0, 4_102_444_800_000, [
  'UTC',
  'Europe/Berlin',
  'America/New_York',
  'Australia/Sydney',
  'Asia/Kolkata',
  'Invalid/Zone',
  '',
]);

function raisedPair(field: FieldName, floor: number = specOf(field).min) {
  const spec = specOf(field);
  return fc.tuple(validInput, validNumber(spec), fc.double({ min: 0, max: 1, noNaN: true })).map(([input, fallback, share]) => {
    const baseValue = Math.max(floor, input[field] ?? fallback);
    const raisedValue = Math.min(spec.max, baseValue + share * (spec.max - baseValue));
    return { base: { ...input, [field]: baseValue }, raised: { ...input, [field]: raisedValue } };
  });
}

describe('calculate over the whole input space', () => {
  it('never throws and returns well-formed scores', () => {
    let computed = 0;
    fc.assert(
      fc.property(anyInput, anyContext, (input, context) => {
        const outcome = calculate(input, context);
        if (!outcome.ok) {
          expect(outcome.error.code).toBe('MISSING_REQUIRED_FIELDS');
          expect(outcome.error.missing.length).toBeGreaterThan(0);
          expect(outcome.error.message).toBe(`Missing or invalid required field(s): ${outcome.error.missing.join(', ')}.`);
          return;
        }
        const { result } = outcome;
        computed += 1;
        expect(Number.isInteger(result.index_score)).toBe(true);
        expect(result.index_score).toBeGreaterThanOrEqual(0);
        expect(result.index_score).toBeLessThanOrEqual(100);
        expect(result.main_status).toBe(statusForScore(result.index_score));
        expect(result.available_fields.length + result.missing_fields.length).toBe(FIELD_SPECS.length);
        expect(result.calculated_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

        const executed = Object.entries(result.checks).filter(([, check]) => check?.executed);
        expect(result.score_basis.checks_used).toBe(executed.length);
        for (const [, check] of executed) {
          expect(Number.isInteger(check?.score)).toBe(true);
          expect(check?.score).toBeGreaterThanOrEqual(0);
          expect(check?.score).toBeLessThanOrEqual(100);
          expect(check?.status).toBe(statusForScore(check?.score ?? -1));
          expect(check?.reasons.length).toBeGreaterThan(0);
        }
        const lowest = Math.min(...executed.map(([, check]) => check?.score ?? 101));
        const limiting = result.score_basis.limiting_check;
        expect(limiting).not.toBeNull();
        expect(result.checks[limiting ?? 'rain']?.executed).toBe(true);
        expect(result.checks[limiting ?? 'rain']?.score).toBe(lowest);
        // The minimum model: never better than the worst check's band.
        // blend >= min, and every cap (39, 69, data quality >= 85) lies at or above the min of its band.
        // Without any wetness evidence (model 1.1, D7) the index is capped at 69.
        const evidenceCap = lacksWetnessEvidence(parseInput(input).values) ? NO_WETNESS_EVIDENCE_CAP : 100;
        expect(result.index_score).toBeGreaterThanOrEqual(Math.min(lowest, 85, evidenceCap));
        if (lowest < 40) expect(result.main_status).toBe('BLOCK');
        if (lowest < 70) expect(result.index_score).toBeLessThanOrEqual(69);
        expect(JSON.parse(JSON.stringify(result))).toEqual(result);
      }),
      { numRuns: NUM_RUNS },
    );
    // Guard against a generator that only ever produces input errors.
    expect(computed).toBeGreaterThan(NUM_RUNS / 4);
  });

  it('is deterministic for equal input and context', () => {
    fc.assert(
      fc.property(anyInput, anyContext, (input, context) => {
        expect(calculate(structuredClone(input), { ...context })).toEqual(calculate(input, context));
      }),
      { numRuns: 300 },
    );
  });
});

describe('monotonicity', () => {
  const indexNeverRises = (field: FieldName, floor?: number) => () => {
    fc.assert(
      fc.property(raisedPair(field, floor), anyContext, ({ base, raised }, context) => {
        // Rain that ends a dry spell rightly raises the index (D1): start outside one.
        const rain14d = base.rain_14d === undefined ? {} : { rain_14d: Math.max(base.rain_14d, DRY_SPELL_RAIN_14D_MM) };
        expect(mustResult({ ...raised, ...rain14d }, context).index_score).toBeLessThanOrEqual(
          mustResult({ ...base, ...rain14d }, context).index_score,
        );
      }),
      { numRuns: 300 },
    );
  };

  it('more precipitation_rate never raises the index', indexNeverRises('precipitation_rate'));
  it('more rain in the last hour never raises the index', indexNeverRises('rain_1h'));
  it('more rain in the last 12 hours never raises the index', indexNeverRises('rain_12h'));
  it('more rain in the last 24 hours never raises the index', indexNeverRises('rain_24h'));
  // Below DRY_SPELL_RAIN_14D_MM a lawn without a soil sensor is in a dry spell, and rain that ends it
  // rightly raises the index (model 1.1, D1); from there on more rain never helps.
  it('more rain in the last 14 days never raises the index (outside a dry spell)', indexNeverRises('rain_14d', DRY_SPELL_RAIN_14D_MM));
  it('higher humidity never raises the index', indexNeverRises('humidity'));
  it('stronger gusts never raise the index', indexNeverRises('wind_gusts'));

  it('more rain never raises the rain score', () => {
    for (const field of ['precipitation_rate', 'rain_1h', 'rain_12h', 'rain_24h', 'rain_14d'] as const) {
      fc.assert(
        fc.property(raisedPair(field), anyContext, ({ base, raised }, context) => {
          expect(mustResult(raised, context).checks.rain?.score).toBeLessThanOrEqual(mustResult(base, context).checks.rain?.score ?? -1);
        }),
        { numRuns: 200 },
      );
    }
  });

  it('more minutes_since_rain never lowers the rain score or the index', () => {
    fc.assert(
      fc.property(raisedPair('minutes_since_rain'), anyContext, ({ base, raised }, context) => {
        const before = mustResult(base, context);
        const after = mustResult(raised, context);
        expect(after.checks.rain?.score).toBeGreaterThanOrEqual(before.checks.rain?.score ?? 101);
        expect(after.index_score).toBeGreaterThanOrEqual(before.index_score);
      }),
      { numRuns: 300 },
    );
  });

  it('wetter soil above field capacity never raises the index', () => {
    fc.assert(
      fc.property(
        validInput,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        anyContext,
        (input, a, b, context) => {
          const soilType = context.lawn?.soilType ?? 'loam';
          const fieldCapacity = { sand: 12, loam: 28, clay: 38 }[soilType];
          // From w = 0.85 (minus the robot shift margin) up to 100 %.
          const low = 0.85 * fieldCapacity;
          const [drier, wetter] = [low + Math.min(a, b) * (100 - low), low + Math.max(a, b) * (100 - low)];
          const before = mustResult({ ...input, soil_moisture: drier }, context);
          const after = mustResult({ ...input, soil_moisture: wetter }, context);
          expect(after.index_score).toBeLessThanOrEqual(before.index_score);
        },
      ),
      { numRuns: 300 },
    );
  });
});
