/**
 * The golden tables' one shape and one assertion (test/core/golden*.test.ts): a situation a
 * greenkeeper judges, with the status, limiting check, key reason and exact index the model must give.
 */
import { expect } from 'vitest';
import type { CalculationContext, CalculationResult, CheckName, Status } from '../../src/core/index.js';
import { resultFor } from './helpers.js';

export interface GoldenCase {
  name: string;
  input: Record<string, number | string>;
  context: CalculationContext;
  status: Status;
  limiting: CheckName;
  /** German key reason expected in the limiting check. */
  reason: string;
  /** Exact index_score, checked by hand against the combination rule in docs/model.md. */
  index: number;
}

/** `it.each` rows: the case's name, then the case. */
export function goldenRows(cases: readonly GoldenCase[]): Array<[string, GoldenCase]> {
  return cases.map((golden) => [golden.name, golden]);
}

/** Calculates the case and checks status, limiting check, its reason and the index; returns the result. */
export function expectGolden(golden: GoldenCase): CalculationResult {
  const result = resultFor(golden.input, golden.context);
  expect(result.main_status).toBe(golden.status);
  expect(result.score_basis.limiting_check).toBe(golden.limiting);
  expect(result.checks[golden.limiting]?.reasons.join(' ')).toContain(golden.reason);
  expect(result.index_score).toBe(golden.index);
  return result;
}
