/**
 * The golden tables (test/fixtures/golden/*.json) and their one assertion: a situation a greenkeeper
 * judges, with the status, limiting check, key reason and exact index the model must give. Each file is
 * one table: the seasons, and one per model version's fixes (docs/model.md "Model 1.1", "Model 1.2").
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { CalculationContext, CalculationResult, CheckName, Status } from '../../src/core/index.js';
import { resultFor } from './helpers.js';

const DIR = fileURLToPath(new URL('../fixtures/golden/', import.meta.url));

export interface GoldenCase {
  name: string;
  /** Why the case is there, or the result an earlier model gave. */
  note?: string;
  input: Record<string, number | string>;
  context: CalculationContext;
  status: Status;
  limiting: CheckName;
  /** German key reason expected in the limiting check. */
  reason: string;
  /** Exact index_score, checked by hand against the combination rule in docs/model.md. */
  index: number;
}

interface GoldenRow extends Omit<GoldenCase, 'context'> {
  /** The calculation context, its instant as an ISO 8601 string. */
  context: Omit<CalculationContext, 'nowMs'> & { at: string };
}

function goldenCase(file: string, row: GoldenRow): GoldenCase {
  const { at, ...context } = row.context;
  const nowMs = Date.parse(at);
  for (const [field, ok] of Object.entries({
    name: typeof row.name === 'string',
    input: typeof row.input === 'object',
    at: Number.isFinite(nowMs),
    status: typeof row.status === 'string',
    limiting: typeof row.limiting === 'string',
    reason: typeof row.reason === 'string',
    index: Number.isInteger(row.index),
  })) {
    if (!ok) throw new Error(`${file}: case ${JSON.stringify(row.name)} has no valid ${field}`);
  }
  return { ...row, context: { ...context, nowMs } };
}

/** One golden table: its file name (without .json) and its cases. */
export interface GoldenTable {
  table: string;
  cases: GoldenCase[];
}

/** Every golden table in test/fixtures/golden, in file-name order. */
export function goldenTables(): GoldenTable[] {
  return readdirSync(DIR)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => {
      const parsed = JSON.parse(readFileSync(DIR + file, 'utf8')) as { cases: GoldenRow[] };
      return { table: file.replace(/\.json$/, ''), cases: parsed.cases.map((row) => goldenCase(file, row)) };
    });
}

/** The case of this name in any table; throws when there is none. */
export function goldenCaseNamed(name: string): GoldenCase {
  const found = goldenTables()
    .flatMap((table) => table.cases)
    .find((golden) => golden.name === name);
  if (!found) throw new Error(`no golden case named ${JSON.stringify(name)}`);
  return found;
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
