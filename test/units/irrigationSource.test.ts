import { describe, expect, it } from 'vitest';
import { LogThrottle } from '../../src/util/logThrottle.js';
import {
  IrrigationSources,
  IrrigationTracker,
  MAX_IRRIGATION_PAYLOAD_BYTES,
  parseIrrigationPayload,
} from '../../src/units/irrigationSource.js';
import { silentLogger } from '../helpers/mqttHarness.js';

const T0 = Date.parse('2026-06-15T08:00:00Z');
const MINUTE = 60_000;

describe('parseIrrigationPayload', () => {
  it.each([
    ['ON', 'on'],
    ['OFF', 'off'],
    ['on', 'on'],
    ['off', 'off'],
    [' On \n', 'on'],
    ['1', 'on'],
    ['0', 'off'],
    ['true', 'on'],
    ['false', 'off'],
    ['{"state":"ON"}', 'on'],
    ['{"state":"off"}', 'off'],
    ['{"state":1,"duration":600}', 'on'],
    ['{"state":false}', 'off'],
  ])('%j → %s', (payload, expected) => {
    expect(parseIrrigationPayload(payload)).toBe(expected);
  });

  it.each(['', 'running', '2', 'yes', '{"state":"maybe"}', '{"other":"ON"}', '{"state":', '["ON"]', '{"state":{"on":true}}', 'null'])(
    'refuses %j',
    (payload) => {
      expect(parseIrrigationPayload(payload)).toBeUndefined();
    },
  );

  it('reads a configured JSON key, own keys only', () => {
    expect(parseIrrigationPayload('{"valve":"ON","state":"OFF"}', 'valve')).toBe('on');
    expect(parseIrrigationPayload('{"state":"ON"}', 'valve')).toBeUndefined();
    expect(parseIrrigationPayload('{"a":1}', '__proto__')).toBeUndefined();
  });
});

describe('IrrigationTracker', () => {
  it('knows nothing until a run ends, reports 0 while running and counts minutes after the end', () => {
    const tracker = new IrrigationTracker({ topic: 'sprinkler' });
    expect(tracker.minutesSince(T0)).toBeUndefined();
    expect(tracker.apply('sprinkler', 'off', false, T0)).toBe(false); // off without a run: nothing ran
    expect(tracker.minutesSince(T0)).toBeUndefined();
    expect(tracker.apply('sprinkler', 'on', false, T0)).toBe(true);
    expect(tracker.minutesSince(T0 + 5 * MINUTE)).toBe(0);
    expect(tracker.apply('sprinkler', 'on', false, T0 + 5 * MINUTE)).toBe(false); // repeated on
    expect(tracker.apply('sprinkler', 'off', false, T0 + 20 * MINUTE)).toBe(true);
    expect(tracker.minutesSince(T0 + 20 * MINUTE)).toBe(0);
    expect(tracker.minutesSince(T0 + 95 * MINUTE + 30_000)).toBe(75);
    expect(tracker.apply('sprinkler', 'off', false, T0 + 100 * MINUTE)).toBe(false); // repeated off keeps the end
    expect(tracker.status(T0 + 100 * MINUTE)).toEqual({
      source: 'mqtt',
      topic: 'sprinkler',
      running: false,
      last_run_end_at: new Date(T0 + 20 * MINUTE).toISOString(),
      minutes_since_irrigation: 80,
    });
  });

  it('never counts a retained "on" as a run, but a live "off" after it ends one', () => {
    const tracker = new IrrigationTracker({ topic: 'sprinkler' });
    expect(tracker.apply('sprinkler', 'on', true, T0)).toBe(false);
    expect(tracker.running).toBe(false);
    expect(tracker.minutesSince(T0)).toBeUndefined();
    expect(tracker.apply('sprinkler', 'off', false, T0 + 10 * MINUTE)).toBe(true);
    expect(tracker.minutesSince(T0 + 40 * MINUTE)).toBe(30);
    const afterRetainedOff = new IrrigationTracker({ topic: 'sprinkler' });
    afterRetainedOff.apply('sprinkler', 'off', true, T0);
    expect(afterRetainedOff.apply('sprinkler', 'off', false, T0 + MINUTE)).toBe(false);
    expect(afterRetainedOff.minutesSince(T0 + MINUTE)).toBeUndefined();
  });

  it('tracks zones under a wildcard: running while any zone is on, the run ends with the last', () => {
    const tracker = new IrrigationTracker({ topic: 'opensprinkler/station/+' });
    tracker.apply('opensprinkler/station/0', 'on', false, T0);
    tracker.apply('opensprinkler/station/0', 'off', false, T0 + 10 * MINUTE);
    tracker.apply('opensprinkler/station/1', 'on', false, T0 + 10 * MINUTE);
    expect(tracker.minutesSince(T0 + 15 * MINUTE)).toBe(0);
    tracker.apply('opensprinkler/station/1', 'off', false, T0 + 20 * MINUTE);
    expect(tracker.minutesSince(T0 + 30 * MINUTE)).toBe(10);
  });

  it("caps the minutes at the field's valid maximum", () => {
    const tracker = new IrrigationTracker({ topic: 's' });
    tracker.apply('s', 'on', false, T0);
    tracker.apply('s', 'off', false, T0);
    expect(tracker.minutesSince(T0 + 200_000 * MINUTE)).toBe(99999);
  });
});

describe('IrrigationSources', () => {
  // The unit is built with the stations that have its key ("front" has none).
  const stations = [{ id: 'garden', name: 'Garden', settings: { topic: 'sprinkler', key: 'valve' } }];

  it('counts bad payloads, ignores them and extends only the input of stations with a source', () => {
    let now = T0;
    const sources = new IrrigationSources(stations, new LogThrottle(silentLogger), () => now);
    expect(sources.handle('garden', 'sprinkler', Buffer.from('{"valve":"ON"}'), false)).toBe(true);
    expect(sources.handle('garden', 'sprinkler', Buffer.from('{"state":"OFF"}'), false)).toBe(false);
    expect(sources.handle('garden', 'sprinkler', Buffer.from(`"${'x'.repeat(MAX_IRRIGATION_PAYLOAD_BYTES)}"`), false)).toBe(false);
    now += 30 * MINUTE;
    expect(sources.handle('garden', 'sprinkler', Buffer.from('OFF'), false)).toBe(true);
    expect(sources.counters).toEqual({ irrigationReceived: 4, irrigationAccepted: 2, irrigationRejected: 2 });
    expect(sources.extendInput('garden', { temperature: 20 }, now + 45 * MINUTE)).toEqual({
      temperature: 20,
      minutes_since_irrigation: 45,
    });
    expect(sources.extendInput('front', { temperature: 20 }, now)).toEqual({ temperature: 20 });
    expect(sources.status('front', now)).toBeUndefined();
    expect(sources.handle('front', 'sprinkler', Buffer.from('ON'), false)).toBe(false);
  });

  it("subscribes each station's irrigation topic and reports the station that changed", () => {
    const sources = new IrrigationSources(stations, new LogThrottle(silentLogger), () => T0);
    const handlers = new Map<string, (topic: string, payload: Buffer, retained: boolean) => void>();
    const changed: string[] = [];
    sources.subscribe({ subscribe: (filter, handler) => handlers.set(filter, handler) }, (stationId) => changed.push(stationId));
    expect([...handlers.keys()]).toEqual(['sprinkler']);
    handlers.get('sprinkler')!('sprinkler', Buffer.from('ON'), true);
    handlers.get('sprinkler')!('sprinkler', Buffer.from('on'), false);
    expect(changed).toEqual(['garden']);
  });
});
