/** Properties of model 1.1 (docs/model.md, "Model 1.1"). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DRY_SPELL_RAIN_14D_MM } from '../../src/core/drought.js';
import { WETNESS_EVIDENCE_FIELDS } from '../../src/core/evidence.js';
import { FIELD_SPECS } from '../../src/core/index.js';
import type { CalculationResult } from '../../src/core/index.js';
import { contextOf, mustResult, specOf, validInputOf, valueOf } from '../helpers/calculationProperties.js';
import { HEAT_STRESS_FROM_C } from '../../src/core/turf.js';

const NUM_RUNS = 300;

/** Valid numbers for every field; the two required ones always present. */
const validInput = validInputOf((spec) => valueOf(spec.name));

const context = contextOf(Date.UTC(2020, 0, 1), Date.UTC(2035, 0, 1), ['UTC', 'Europe/Berlin', 'Australia/Perth', 'Europe/Lisbon']);

function checkScores(result: CalculationResult): Record<string, number | null> {
  return Object.fromEntries(Object.entries(result.checks).map(([name, check]) => [name, check?.score ?? null]));
}

describe('model 1.1 properties', () => {
  it('more minutes since rain never lowers any check score or the index', () => {
    fc.assert(
      fc.property(
        validInput,
        valueOf('minutes_since_rain'),
        fc.double({ min: 0, max: 1, noNaN: true }),
        context,
        (input, base, share, ctx) => {
          const max = specOf('minutes_since_rain').max;
          const before = mustResult({ ...input, minutes_since_rain: base }, ctx);
          const after = mustResult({ ...input, minutes_since_rain: base + share * (max - base) }, ctx);
          const scoresBefore = checkScores(before);
          for (const [name, score] of Object.entries(checkScores(after))) {
            if (score !== null) expect(score, name).toBeGreaterThanOrEqual(scoresBefore[name] ?? 101);
          }
          expect(after.index_score).toBeGreaterThanOrEqual(before.index_score);
        },
      ),
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
