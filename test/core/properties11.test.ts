/** Properties of model 1.1 (issue 10). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DRY_SPELL_RAIN_14D_MM } from '../../src/core/drought.js';
import { WETNESS_EVIDENCE_FIELDS } from '../../src/core/evidence.js';
import { FIELD_SPECS, calculate } from '../../src/core/index.js';
import type { CalculationContext, CalculationResult, FieldName, FieldSpec } from '../../src/core/index.js';
import { HEAT_STRESS_FROM_C } from '../../src/core/turf.js';

const NUM_RUNS = 300;

function specOf(name: FieldName): FieldSpec {
  const spec = FIELD_SPECS.find((candidate) => candidate.name === name);
  if (spec === undefined) throw new Error(name);
  return spec;
}

const valueOf = (name: FieldName, min = specOf(name).min, max = specOf(name).max): fc.Arbitrary<number> =>
  fc.oneof(fc.double({ min, max, noNaN: true }), fc.constantFrom(min, max));

/** Valid numbers for every field; the two required ones always present. */
const validInput = fc.record(
  Object.fromEntries(FIELD_SPECS.map((spec) => [spec.name, valueOf(spec.name)])) as Record<FieldName, fc.Arbitrary<number>>,
  { requiredKeys: ['temperature', 'precipitation_rate'] },
);

const context: fc.Arbitrary<CalculationContext> = fc.record({
  nowMs: fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2035, 0, 1) }),
  timeZone: fc.constantFrom('UTC', 'Europe/Berlin', 'Australia/Perth', 'Europe/Lisbon'),
  hemisphere: fc.constantFrom('north' as const, 'south' as const),
  forcedSeason: fc.option(fc.constantFrom('spring' as const, 'summer' as const, 'autumn' as const, 'winter' as const), { nil: undefined }),
  lawn: fc.option(
    fc.record({ soilType: fc.constantFrom('sand' as const, 'loam' as const, 'clay' as const), mowerClass: fc.constantFrom('robot' as const, 'walk' as const, 'ride_on' as const) }),
    { nil: undefined },
  ),
});

function mustResult(input: Record<string, unknown>, ctx: CalculationContext): CalculationResult {
  const outcome = calculate(input, ctx);
  if (!outcome.ok) throw new Error(outcome.error.message);
  return outcome.result;
}

function checkScores(result: CalculationResult): Record<string, number | null> {
  return Object.fromEntries(Object.entries(result.checks).map(([name, check]) => [name, check?.score ?? null]));
}

describe('model 1.1 properties', () => {
  it('more minutes since rain never lowers any check score or the index', () => {
    fc.assert(
      fc.property(validInput, valueOf('minutes_since_rain'), fc.double({ min: 0, max: 1, noNaN: true }), context, (input, base, share, ctx) => {
        const max = specOf('minutes_since_rain').max;
        const before = mustResult({ ...input, minutes_since_rain: base }, ctx);
        const after = mustResult({ ...input, minutes_since_rain: base + share * (max - base) }, ctx);
        const scoresBefore = checkScores(before);
        for (const [name, score] of Object.entries(checkScores(after))) {
          if (score !== null) expect(score, name).toBeGreaterThanOrEqual(scoresBefore[name] ?? 101);
        }
        expect(after.index_score).toBeGreaterThanOrEqual(before.index_score);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('a long dry spell without a soil sensor is never OK in summer heat', () => {
    fc.assert(
      fc.property(
        validInput,
        fc.double({ min: 0, max: DRY_SPELL_RAIN_14D_MM, maxExcluded: true, noNaN: true }),
        fc.double({ min: HEAT_STRESS_FROM_C, max: 60, noNaN: true }),
        context,
        (input, rain14d, temperature, ctx) => {
          const { soil_moisture: _dropped, rain_1h: _r1, rain_12h: _r12, rain_24h: _r24, ...rest } = input;
          const result = mustResult({ ...rest, temperature, rain_14d: rain14d }, { ...ctx, forcedSeason: 'summer' });
          expect(result.main_status).toBe('BLOCK');
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it('removing optional inputs never lifts the index above 69 without humidity, rain windows and minutes_since_rain', () => {
    const optional = FIELD_SPECS.filter((spec) => !spec.required).map((spec) => spec.name);
    fc.assert(
      fc.property(validInput, fc.subarray(optional), context, (input, removed, ctx) => {
        const thin: Record<string, number> = { ...input };
        for (const name of [...WETNESS_EVIDENCE_FIELDS, ...removed]) delete thin[name];
        expect(mustResult(thin, ctx).index_score).toBeLessThanOrEqual(69);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
