/** The mowable flag's reason in English (state `mowable_reason`, the log) and German (`mowable_reason_de`), branch by branch. */
import { describe, expect, it } from 'vitest';
import { mowableReason, type MowableSettings } from '../../src/station/mowable.js';

const settings: MowableSettings = { onThreshold: 70, offThreshold: 60, onDelayMs: 15 * 60_000 };
const on = { mowable: true, aboveSinceMs: 0 };
const off = { mowable: false, aboveSinceMs: null };

describe('mowableReason', () => {
  it.each([
    [
      off,
      null,
      null,
      'no index could be calculated (inputs missing or stale)',
      'kein Index berechenbar (Eingaben fehlen oder sind veraltet)',
    ],
    [off, 17, 'BLOCK', 'status BLOCK (index 17)', 'Index 17: Mähen gesperrt'],
    [off, 55, 'WARNING', 'index 55 is below 60', 'Index 55 liegt unter 60'],
    [on, 80, 'OK', 'index 80 has stayed at or above 70 for 15 min', 'Index 80 liegt seit 15 Min. bei 70 oder darüber'],
    [
      on,
      65,
      'WARNING',
      'index 65 is still at or above 60, where the flag stays on',
      'Index 65 liegt noch bei 60 oder darüber, so bleibt die Freigabe',
    ],
    [
      { mowable: false, aboveSinceMs: Date.parse('2026-06-15T10:20:00Z') },
      74,
      'OK',
      'index 74 is at or above 70; mowable at 10:35 if it stays there until then (15 min)',
      'Index 74 liegt bei 70 oder darüber; frei um 10:35, wenn er bis dahin dort bleibt (15 Min.)',
    ],
    [
      off,
      65,
      'WARNING',
      'index 65 is below 70, the level at which the flag turns on',
      'Index 65 liegt unter 70, der Schwelle für die Freigabe',
    ],
  ] as const)('%o %s %s', (state, score, status, english, german) => {
    expect(mowableReason(state, score, status, settings)).toBe(english);
    expect(mowableReason(state, score, status, settings, 'de')).toBe(german);
  });

  it('names the clock time the flag turns on at in the configured time zone, summer and winter time', () => {
    const waiting = (iso: string) => ({ mowable: false, aboveSinceMs: Date.parse(iso) });
    expect(mowableReason(waiting('2026-06-15T10:20:00Z'), 74, 'OK', settings, 'en', 'Europe/Berlin')).toBe(
      'index 74 is at or above 70; mowable at 12:35 if it stays there until then (15 min)',
    );
    expect(mowableReason(waiting('2026-12-01T23:50:00Z'), 74, 'OK', settings, 'de', 'Europe/Berlin')).toBe(
      'Index 74 liegt bei 70 oder darüber; frei um 01:05, wenn er bis dahin dort bleibt (15 Min.)',
    );
    expect(mowableReason(waiting('2026-06-15T10:20:00Z'), 74, 'OK', settings, 'en', 'America/New_York')).toContain('mowable at 06:35');
  });
});
