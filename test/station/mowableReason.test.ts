/** The mowable flag's reason in English (state `mowable_reason`, the log) and German (`mowable_reason_de`), branch by branch. */
import { describe, expect, it } from 'vitest';
import { mowableReason, type MowableSettings } from '../../src/station/mowable.js';

const settings: MowableSettings = { onThreshold: 70, offThreshold: 60, onDelayMs: 15 * 60_000 };
const on = { mowable: true, aboveSinceMs: 0 };
const off = { mowable: false, aboveSinceMs: null };

describe('mowableReason', () => {
  it.each([
    [off, null, null, 'no index could be calculated (inputs missing or stale)', 'kein Index berechenbar (Eingaben fehlen oder sind veraltet)'],
    [off, 17, 'BLOCK', 'status BLOCK (index 17)', 'Index 17: Mähen gesperrt'],
    [off, 55, 'WARNING', 'index 55 is below 60', 'Index 55 liegt unter 60'],
    [on, 80, 'OK', 'index 80 has stayed at or above 70 for 15 min', 'Index 80 liegt seit 15 Min. bei 70 oder darüber'],
    [on, 65, 'WARNING', 'index 65 is still at or above 60, where the flag stays on', 'Index 65 liegt noch bei 60 oder darüber, so bleibt die Freigabe'],
    [off, 74, 'OK', 'index 74 is at or above 70; waiting until it has stayed there for 15 min', 'Index 74 liegt bei 70 oder darüber; frei, sobald er 15 Min. dort geblieben ist'],
    [off, 65, 'WARNING', 'index 65 is below 70, the level at which the flag turns on', 'Index 65 liegt unter 70, der Schwelle für die Freigabe'],
  ] as const)('%o %s %s', (state, score, status, english, german) => {
    expect(mowableReason(state, score, status, settings)).toBe(english);
    expect(mowableReason(state, score, status, settings, 'de')).toBe(german);
  });
});
