/** The mowed command payload and the stored-balance restore: what is accepted, what is refused. */
import { describe, expect, it } from 'vitest';
import { cutTimeProblem, parseMowedPayload } from '../../src/lawn/mowedPayload.js';
import { restoreMemory } from '../../src/lawn/restore.js';

describe('mowed payload', () => {
  it.each([
    ['', null, null],
    ['now', null, null],
    [' NOW ', null, null],
    ['2026-06-15T10:00:00Z', Date.parse('2026-06-15T10:00:00Z'), null],
    ['2026-06-15T12:00:00+02:00', Date.parse('2026-06-15T10:00:00Z'), null],
    ['1781517600', 1781517600000, null],
    ['1781517600000', 1781517600000, null],
    ['{"at": "2026-06-15T10:00:00Z", "source": "robot"}', Date.parse('2026-06-15T10:00:00Z'), 'robot'],
    ['{"source": "ha"}', null, 'ha'],
  ])('accepts %j', (text, atMs, source) => {
    expect(parseMowedPayload(text)).toEqual({ ok: true, atMs, source });
  });

  it.each(['yesterday', '2026-06-15T10:00:00', '{"at": true}', '[1]', '{"at": "now", "source": "<script>"}', '{broken'])(
    'refuses %j',
    (text) => {
      expect(parseMowedPayload(text).ok).toBe(false);
    },
  );

  it('refuses cuts in the future and older than the history', () => {
    const now = Date.parse('2026-06-15T10:00:00Z');
    expect(cutTimeProblem(now + 60_000, now)).toBeNull();
    expect(cutTimeProblem(now + 3_600_000, now)).toBe('the time is in the future');
    expect(cutTimeProblem(now - 15 * 86_400_000, now)).toBe('the time is more than 14 days ago');
  });
});

describe('restoring a stored balance', () => {
  const good = {
    blades: { waterMm: 0.4, drySinceMs: null },
    soilPct: 27.5,
    gddTotal: 12,
    gddCheckpoints: [
      [0, 0],
      ['x', 1],
    ],
    wetSpellStartMs: null,
    lastCutMs: 5,
    atMs: 10,
    weather: { temperatureC: 14 },
  };

  it('keeps a sound balance and drops malformed checkpoints', () => {
    // A row written before gaps were modelled has no bladesUnknown: the blades were known.
    expect(restoreMemory(good)).toEqual({ ...good, gddCheckpoints: [[0, 0]], gddAtCut: null, bladesUnknown: false });
    expect(restoreMemory({ ...good, bladesUnknown: true })?.bladesUnknown).toBe(true);
  });

  it.each([null, 'x', { ...good, blades: null }, { ...good, gddTotal: 'many' }, { ...good, soilPct: Number.NaN }])(
    'starts afresh from %j',
    (raw) => {
      expect(restoreMemory(raw)).toBeUndefined();
    },
  );
});
