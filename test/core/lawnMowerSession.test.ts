/** A mower's state reports: the payload's state word, and the session that turns a long run of "mowing" into a cut. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_MOWING_STATES, isMowingState, mowerStateWord } from '../../src/core/lawn/mowerPayload.js';
import { IDLE_MOWER, mowingMinutes, stepMowerSession, type MowerReport, type MowerSession } from '../../src/core/lawn/mowerSession.js';

const MIN = 60_000;
const T0 = Date.parse('2026-06-15T10:00:00Z');

describe('mower state payloads', () => {
  it.each([
    ['plain HA lawn_mower state', 'mowing', undefined, 'mowing'],
    ['upper case (Husqvarna activity)', ' MOWING\n', undefined, 'mowing'],
    ['JSON string', '"docked"', undefined, 'docked'],
    ['JSON object, default key "state"', '{"state": "Mowing", "battery": 80}', undefined, 'mowing'],
    ['dotted path to a numeric status (Landroid dat.ls)', '{"dat": {"ls": 7, "le": 0}}', 'dat.ls', '7'],
    ['missing key', '{"activity": "mowing"}', undefined, undefined],
    ['path through a non-object', '{"dat": 7}', 'dat.ls', undefined],
    ['inherited key is not a field', '{}', 'constructor', undefined],
    ['a boolean is no state', '{"state": true}', undefined, undefined],
    ['broken JSON', '{"state": "mow', undefined, undefined],
    ['empty', '   ', undefined, undefined],
  ])('%s', (_name, text, key, expected) => {
    expect(mowerStateWord(text, key)).toBe(expected);
  });

  it("matches the configured mowing states without case; Home Assistant's other activities are not mowing", () => {
    expect(isMowingState('mowing')).toBe(true);
    for (const state of ['docked', 'paused', 'returning', 'error']) expect(isMowingState(state, DEFAULT_MOWING_STATES)).toBe(false);
    expect(isMowingState('7', ['7', '8'])).toBe(true);
    expect(isMowingState('leaving', [' Mowing ', 'LEAVING'])).toBe(true);
  });
});

type Row = [string, MowerSession, MowerReport, number, MowerSession, number | null];

describe('mower sessions (10-minute minimum)', () => {
  const live = (mowing: boolean): MowerReport => ({ mowing, retained: false });
  const since = (ms: number): MowerSession => ({ mowingSinceMs: ms });

  it.each<Row>([
    ['a live "mowing" starts a run', IDLE_MOWER, live(true), T0, since(T0), null],
    ['repeated "mowing" keeps the run\'s start', since(T0), live(true), T0 + 5 * MIN, since(T0), null],
    ['a run ends after exactly 10 min: a cut at its end', since(T0), live(false), T0 + 10 * MIN, IDLE_MOWER, T0 + 10 * MIN],
    ['a run ends after 45 min: a cut at its end', since(T0), live(false), T0 + 45 * MIN, IDLE_MOWER, T0 + 45 * MIN],
    ['a 9-minute run is no cut', since(T0), live(false), T0 + 9 * MIN, IDLE_MOWER, null],
    ['"docked" while idle changes nothing', IDLE_MOWER, live(false), T0, IDLE_MOWER, null],
    ['a retained "mowing" does not start a run (its age is unknown)', IDLE_MOWER, { mowing: true, retained: true }, T0, IDLE_MOWER, null],
    ['a retained "mowing" during a run keeps it', since(T0), { mowing: true, retained: true }, T0 + MIN, since(T0), null],
    [
      'a retained "docked" ends a long run as a live one does',
      since(T0),
      { mowing: false, retained: true },
      T0 + 30 * MIN,
      IDLE_MOWER,
      T0 + 30 * MIN,
    ],
    ['a clock stepped back makes the run shorter, not a cut', since(T0), live(false), T0 - 60 * MIN, IDLE_MOWER, null],
  ])('%s', (_name, session, report, nowMs, expected, cutAtMs) => {
    expect(stepMowerSession(session, report, nowMs, 10 * MIN)).toEqual({ session: expected, cutAtMs });
  });

  it('a pause splits a job: each long-enough run is a cut, the last one counts last', () => {
    const reports: Array<[number, boolean]> = [
      [0, true],
      [40, false],
      [45, true],
      [50, false],
      [60, true],
      [95, false],
    ];
    let session = IDLE_MOWER;
    const cuts: number[] = [];
    for (const [minute, mowing] of reports) {
      const step = stepMowerSession(session, live(mowing), T0 + minute * MIN, 10 * MIN);
      session = step.session;
      if (step.cutAtMs !== null) cuts.push((step.cutAtMs - T0) / MIN);
    }
    expect(cuts).toEqual([40, 95]);
  });

  it('counts the minutes of the current run', () => {
    expect(mowingMinutes(IDLE_MOWER, T0)).toBe(0);
    expect(mowingMinutes(since(T0), T0 + 12.5 * MIN)).toBe(12);
    expect(mowingMinutes(since(T0), T0 - MIN)).toBe(0);
  });
});
