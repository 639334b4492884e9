/**
 * The fast-check set-ups the model's property tests share (test/core/properties*.test.ts): valid
 * field values, a valid input, a calculation context over time zones and lawn profiles, and a
 * calculation that must succeed.
 */
import fc from 'fast-check';
import { FIELD_SPECS, REQUIRED_FIELDS, calculate } from '../../src/core/index.js';
import type { CalculationContext, CalculationResult, FieldName, FieldSpec } from '../../src/core/index.js';

export function specOf(name: FieldName): FieldSpec {
  const spec = FIELD_SPECS.find((candidate) => candidate.name === name);
  if (spec === undefined) throw new Error(name);
  return spec;
}

/** A valid value of one field, its range ends included (narrowed by min/max when given). */
export const valueOf = (name: FieldName, min = specOf(name).min, max = specOf(name).max): fc.Arbitrary<number> =>
  fc.oneof(fc.double({ min, max, noNaN: true }), fc.constantFrom(min, max));

/** Only valid numbers, one per field drawn by `value`; the required fields are always present. */
export function validInputOf(value: (spec: FieldSpec) => fc.Arbitrary<number>): fc.Arbitrary<Partial<Record<FieldName, number>>> {
  return fc.record(Object.fromEntries(FIELD_SPECS.map((spec) => [spec.name, value(spec)])) as Record<FieldName, fc.Arbitrary<number>>, {
    requiredKeys: [...REQUIRED_FIELDS],
  });
}

/** A calculation context: a time in [from, to], one of the zones, either hemisphere, any forced season and lawn profile. */
export function contextOf(from: number, to: number, timeZones: readonly string[]): fc.Arbitrary<CalculationContext> {
  return fc.record({
    nowMs: fc.integer({ min: from, max: to }),
    timeZone: fc.constantFrom(...timeZones),
    hemisphere: fc.constantFrom('north' as const, 'south' as const),
    forcedSeason: fc.option(fc.constantFrom('spring' as const, 'summer' as const, 'autumn' as const, 'winter' as const), {
      nil: undefined,
    }),
    lawn: fc.option(
      fc.record({
        soilType: fc.constantFrom('sand' as const, 'loam' as const, 'clay' as const),
        mowerClass: fc.constantFrom('robot' as const, 'walk' as const, 'ride_on' as const),
      }),
      { nil: undefined },
    ),
  });
}

/** The result of a calculation that must succeed (throws the error message otherwise). */
export function mustResult(input: Record<string, unknown>, context: CalculationContext): CalculationResult {
  const outcome = calculate(input, context);
  if (!outcome.ok) throw new Error(outcome.error.message);
  return outcome.result;
}
