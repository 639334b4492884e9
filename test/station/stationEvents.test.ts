import { describe, expect, it } from 'vitest';
import { mowableReason, nextMowable, INITIAL_MOWABLE, type MowableSettings } from '../../src/station/mowable.js';
import { StationEventLog } from '../../src/station/stationEvents.js';
import { captureLogger } from '../helpers/httpLogCapture.js';

const SETTINGS: MowableSettings = { onThreshold: 70, offThreshold: 60, onDelayMs: 15 * 60_000 };
const MINUTE = 60_000;

describe('StationEventLog', () => {
  it('logs the first reading of each station once', () => {
    const log = captureLogger('info');
    const events = new StationEventLog(log.logger);
    events.reading('garden', 'rtl_433/a');
    events.reading('garden', 'rtl_433/a');
    events.reading('roof', 'weewx/loop');
    expect(log.lines().map((line) => line.msg)).toEqual(['first reading from station "garden"', 'first reading from station "roof"']);
    expect(log.lines()[0]).toMatchObject({ module: 'stations', station: 'garden', topic: 'rtl_433/a' });
  });

  it('logs every mowable change with its reason, and nothing while the flag stays', () => {
    const log = captureLogger('info');
    const events = new StationEventLog(log.logger);
    // Drive it the way the service does: the hysteresis decides, the log explains.
    const steps: Array<[number, number | null, string | null]> = [
      [0, 80, 'OK'],
      [10 * MINUTE, 75, 'OK'],
      [15 * MINUTE, 72, 'OK'],
      [16 * MINUTE, 65, 'WARNING'],
      [17 * MINUTE, 55, 'WARNING'],
      [18 * MINUTE, 90, 'OK'],
      [40 * MINUTE, 90, 'OK'],
      [41 * MINUTE, 40, 'BLOCK'],
    ];
    let state = INITIAL_MOWABLE;
    for (const [now, score, status] of steps) {
      const next = nextMowable(state, score, status, now, SETTINGS);
      events.mowable('garden', state.mowable, next.mowable, score, status, mowableReason(next, score, status, SETTINGS));
      state = next;
    }
    expect(log.lines().map((line) => line.msg)).toEqual([
      'station "garden" is now mowable: index 72 has stayed at or above 70 for 15 min',
      'station "garden" is no longer mowable: index 55 is below 60',
      'station "garden" is now mowable: index 90 has stayed at or above 70 for 15 min',
      'station "garden" is no longer mowable: status BLOCK (index 40)',
    ]);
    expect(log.lines()[1]).toMatchObject({ station: 'garden', mowable: false, index: 55, status: 'WARNING' });
  });
});

describe('mowableReason', () => {
  it('names a missing result', () => {
    expect(mowableReason(INITIAL_MOWABLE, null, null, SETTINGS)).toBe('no index could be calculated (inputs missing or stale)');
  });

  it('explains the hysteresis in every state the flag can be in', () => {
    expect(mowableReason({ mowable: false, aboveSinceMs: 0 }, 75, 'OK', SETTINGS)).toBe(
      'index 75 is at or above 70; mowable at 00:15 if it stays there until then (15 min)',
    );
    expect(mowableReason({ mowable: false, aboveSinceMs: null }, 65, 'WARNING', SETTINGS)).toBe(
      'index 65 is below 70, the level at which the flag turns on',
    );
    expect(mowableReason({ mowable: true, aboveSinceMs: null }, 65, 'WARNING', SETTINGS)).toBe(
      'index 65 is still at or above 60, where the flag stays on',
    );
  });
});
