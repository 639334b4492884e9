/**
 * The golden tables in test/fixtures/golden: every case of every table through one runner
 * (test/core/golden.ts), and the facts a table row cannot state.
 */
import { describe, expect, it } from 'vitest';
import { expectGolden, goldenCaseNamed, goldenTables } from './golden.js';
import { resultFor } from './helpers.js';

const TABLES = goldenTables();

describe('golden tables', () => {
  it('reads the seasons and the tables of model 1.1, 1.2 and 1.3, none empty', () => {
    expect(TABLES.map(({ table, cases }) => [table, cases.length > 0])).toEqual([
      ['model-1.1', true],
      ['model-1.2', true],
      ['model-1.3', true],
      ['seasons', true],
    ]);
  });

  describe.each(TABLES.map(({ table, cases }) => [table, cases] as const))('%s', (_table, cases) => {
    it.each(cases.map((golden) => [golden.name, golden] as const))('%s', (_name, golden) => {
      const result = expectGolden(golden);
      expect(result.mfi_version).toBe('1.3.0');
    });
  });
});

describe('golden situations: what a row cannot state', () => {
  it('flags the minimal data basis with a German reason in the rain check', () => {
    const result = resultFor({ temperature: 20, precipitation_rate: 0 });
    expect(result.data_quality).toBe('minimal');
    expect(result.checks.rain?.reasons.join(' ')).toContain('Eingeschränkte Datenbasis');
    expect(resultFor({ temperature: 20, precipitation_rate: 0, humidity: 50 }).checks.rain?.reasons.join(' ')).not.toContain(
      'Eingeschränkte Datenbasis',
    );
  });

  it('names a fact once: the wet soil in one check, the frost in one reason', () => {
    const softLoam = goldenCaseNamed('soft soil: the same lawn, robot mower');
    const { nowMs, timeZone, hemisphere } = softLoam.context;
    const soft = resultFor(softLoam.input, { nowMs, timeZone, hemisphere });
    const all = Object.values(soft.checks).flatMap((check) => check?.reasons ?? []);
    expect(all.filter((reason) => reason.includes('Bodenfeuchte'))).toHaveLength(1);
    const frostCase = goldenCaseNamed('ground frost: calm October night, 2 m minimum +0.5 °C, 08:30 with first sun');
    const frost = resultFor(frostCase.input, frostCase.context).checks.temperature!.reasons;
    expect(frost.filter((reason) => reason.includes('Bodenfrost'))).toHaveLength(1);
  });
});
