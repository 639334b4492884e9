import { describe, expect, it } from 'vitest';
import { calculate } from '../../src/core/index.js';
import { buildStatePayload } from '../../src/station/statePayload.js';

const INPUT = { temperature: 35, precipitation_rate: 0, humidity: 30, soil_moisture: 8, soil_temperature: 33, rain_14d: 1 };
const CONTEXT = { nowMs: Date.parse('2026-07-15T12:00:00Z'), timeZone: 'Europe/Berlin', hemisphere: 'north' } as const;

/** The garden station's outcome for INPUT, and its state payload built with `extra` (mowable false, its reason). */
function gardenPayload(extra: Partial<Parameters<typeof buildStatePayload>[0]> = {}) {
  const outcome = calculate(INPUT, CONTEXT);
  if (!outcome.ok) throw new Error('expected a result');
  const payload = buildStatePayload({
    stationId: 'garden',
    stationName: 'Garden',
    outcome,
    assembly: { input: INPUT, withheld: {}, derived: [], coverage: {}, lastReadingAtMs: CONTEXT.nowMs },
    mowable: false,
    mowableReason: 'index below the threshold',
    ...extra,
  });
  return { result: outcome.result, payload };
}

describe('station state payload', () => {
  it('carries the checks reasons as plain text, the HTTP result keeps the spec emphasis', () => {
    const { result, payload } = gardenPayload();
    const httpReasons = Object.values(result.checks).flatMap((check) => check?.reasons ?? []);
    expect(httpReasons.some((reason) => reason.includes('<b>'))).toBe(true);
    const checks = payload.checks as Record<string, { reasons: string[] }>;
    const stateReasons = Object.values(checks).flatMap((check) => check.reasons);
    expect(stateReasons).toEqual(httpReasons.map((reason) => reason.replace(/<\/?b>/g, '')));
    expect(JSON.stringify(payload)).not.toMatch(/<\/?b>/);
  });

  it('no <b> anywhere: a hold\'s mowable_reason and the units\' fragments are plain text too; other "<" stays', () => {
    const { payload } = gardenPayload({
      // The lawn unit's hold reason (src/core/lawnWetness.ts) carries the spec's emphasis.
      mowableReason: '<b>Halme noch nass</b> (Wasserbilanz) – trocken in ca. 2 Stunden',
      // A stand-in fragment with markup (not the lawn unit's real shape: cast).
      fragments: { lawn: { note: '<b>Rasen überfällig</b>', list: ['<b>a</b>', 'index < 70'] } } as never,
    });
    expect(payload.mowable_reason).toBe('Halme noch nass (Wasserbilanz) – trocken in ca. 2 Stunden');
    expect(payload.lawn as unknown).toEqual({ note: 'Rasen überfällig', list: ['a', 'index < 70'] });
    expect(JSON.stringify(payload)).not.toMatch(/<\/?b>/);
  });

  it('changes none of its parts: the core result, the assembly and the fragments stay as they were (modelled reasons included)', () => {
    const outcome = calculate(INPUT, CONTEXT);
    if (!outcome.ok) throw new Error('expected a result');
    const fragments = { lawn: { note: '<b>Rasen überfällig</b>' }, estimated_fields: ['solar'], origin: 'modelled' } as never;
    const assembly = { input: INPUT, withheld: {}, derived: [], coverage: {}, lastReadingAtMs: CONTEXT.nowMs };
    const before = JSON.stringify({ outcome, fragments, assembly });
    const payload = buildStatePayload({
      stationId: 'garden',
      stationName: 'Garden',
      outcome,
      assembly,
      mowable: false,
      mowableReason: 'x',
      fragments,
    });
    expect(JSON.stringify({ outcome, fragments, assembly })).toBe(before);
    const humidity = (payload.checks as Record<string, { reasons: string[] }>).humidity;
    expect(humidity?.reasons.at(-1)).toBe('Globalstrahlung modelliert (Open-Meteo, nicht gemessen).');
    expect(JSON.stringify(outcome.result.checks)).not.toContain('modelliert (Open-Meteo');
  });

  it('builds the same state for the same parts twice (nothing of one state leaks into the next)', () => {
    const outcome = calculate(INPUT, CONTEXT);
    const parts = {
      stationId: 'garden',
      stationName: 'Garden',
      outcome,
      assembly: { input: INPUT, withheld: {}, derived: [], coverage: {}, lastReadingAtMs: CONTEXT.nowMs },
      mowable: false,
      mowableReason: 'x',
      fragments: { estimated_fields: ['solar' as const], origin: 'modelled' as const },
    };
    expect(JSON.stringify(buildStatePayload(parts))).toBe(JSON.stringify(buildStatePayload(parts)));
  });
});
