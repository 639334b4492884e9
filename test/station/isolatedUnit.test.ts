/**
 * Failure isolation of station units: a unit whose hook throws costs its own
 * part of one station's state, never a station, another unit or the station
 * side's start. Before the isolation one throwing hook blanked every station
 * (recomputeAll threw), the station side failed to start with MQTT on, and with
 * debounce 0 the exception reached the caller of acceptReading (the upload route).
 */
// The probe units' state keys, declared as a unit module declares its own (src/station/statePayload.ts).
declare module '../../src/station/statePayload.js' {
  interface StationStateFields {
    broken: { ok: boolean };
    healthy: { station: string };
    lazy: boolean;
  }
}

import { describe, expect, it } from 'vitest';
import type { StationConfig } from '../../src/ingest/types.js';
import type { StationUnit } from '../../src/station/unit.js';
import { captureLogger } from '../helpers/httpLogCapture.js';
import { FakeClock, reading, silentLogger, testMqttConfig, waitUntil, type TestSides } from '../helpers/mqttHarness.js';
import { useStationFixture } from '../helpers/stationFixture.js';

const station = (id: string): StationConfig => ({ id, name: id, format: 'json', topic: `${id}/weather`, fields: { temperature: 'temp' } });
const STATIONS = [station('front'), station('back')];
const GOOD = { temperature: 21, humidity: 55, wind_speed: 5, precipitation_rate: 0 };

/** Throws in every hook for station "front" only; "back" it answers. */
const brokenForFront: StationUnit = {
  name: 'broken',
  onReading: (stationId) => {
    if (stationId === 'front') throw new Error('onReading exploded');
  },
  extendInput: (stationId, input) => {
    if (stationId === 'front') throw new Error('extendInput exploded');
    return input;
  },
  stateFragment: (stationId) => {
    if (stationId === 'front') throw new Error('stateFragment exploded');
    return { broken: { ok: true } };
  },
  mowableHold: (stationId) => {
    if (stationId === 'front') throw new Error('mowableHold exploded');
    return undefined;
  },
};
const healthy: StationUnit = { name: 'healthy', stateFragment: (stationId) => ({ healthy: { station: stationId } }) };

describe('station unit failure isolation', () => {
  const fixture = useStationFixture();
  const clock = new FakeClock(Date.parse('2026-06-15T10:00:00Z'));

  const offline = async (units: StationUnit[], logger = silentLogger): Promise<TestSides> => {
    const side = await fixture.sides(
      testMqttConfig({ stations: STATIONS, broker: { enabled: false }, mqtt: { url: '' }, station: { mowableOnDelayMinutes: 0 } }),
      clock,
      units,
      logger,
    );
    await side.start();
    return side;
  };

  it("a unit throwing for one station costs that unit's part of that station, not the station, the other units or the other station", async () => {
    const log = captureLogger('warn');
    const side = await offline([brokenForFront, healthy], log.logger);
    // With debounce 0 the recompute runs inside acceptReading, as for an upload: the caller hears "accepted".
    for (const { id } of STATIONS) expect(side.acceptReading(id, reading(GOOD), 'upload')).toBe('accepted');
    expect(side.stationState('back')).toMatchObject({ broken: { ok: true }, healthy: { station: 'back' } });
    expect(side.stationState('back')!.unit_errors).toBeUndefined();

    const front = side.stationState('front')!;
    expect(front.index_score).toBeGreaterThan(0);
    expect(front.healthy).toEqual({ station: 'front' });
    expect(front.broken).toBeUndefined();
    expect(front.unit_errors).toEqual([
      { unit: 'broken', hook: 'onReading', message: 'onReading exploded' },
      { unit: 'broken', hook: 'extendInput', message: 'extendInput exploded' },
      { unit: 'broken', hook: 'mowableHold', message: 'mowableHold exploded' },
      { unit: 'broken', hook: 'stateFragment', message: 'stateFragment exploded' },
    ]);
    // A unit that cannot answer whether mowing is allowed (it may enforce quiet hours) holds the flag off.
    expect(front.mowable).toBe(false);
    expect(front.mowable_reason).toBe('station unit "broken" failed (mowableHold exploded); mowable is held off until it works again');
    expect(side.stationState('back')!.mowable).toBe(true);

    // Counted, and logged once per unit, hook and station however often it happens.
    for (const temperature of [22, 23]) expect(side.acceptReading('front', reading({ ...GOOD, temperature }), 'upload')).toBe('accepted');
    expect(side.stats().unitFailures).toBe(3 * 4);
    const lines = log.lines().filter((line) => line.unit === 'broken');
    expect(lines.map((line) => [line.hook, line.station])).toEqual([
      ['onReading', 'front'],
      ['extendInput', 'front'],
      ['mowableHold', 'front'],
      ['stateFragment', 'front'],
    ]);
    expect(lines[0]!.msg).toBe('station unit "broken" failed in onReading for station front; the other units and stations go on');
  });

  it('a unit that fails to start leaves the station side running; the states name it and hold mowable off', async () => {
    const failsToStart: StationUnit = {
      name: 'lazy',
      start: () => Promise.reject(new Error('no database table')),
      stop: () => Promise.reject(new Error('nothing to stop')),
      stateFragment: () => ({ lazy: true }),
    };
    const side = await offline([failsToStart, healthy]);
    expect(side.acceptReading('back', reading(GOOD), 'upload')).toBe('accepted');
    const back = side.stationState('back')!;
    expect(back).toMatchObject({
      healthy: { station: 'back' },
      mowable: false,
      unit_errors: [{ unit: 'lazy', hook: 'start', message: 'no database table' }],
    });
    expect(back.lazy).toBeUndefined();
    expect(back.mowable_reason).toBe('station unit "lazy" failed (no database table); mowable is held off until it works again');
  });

  it("with MQTT on, the station side starts although a unit throws during the start's recompute, and publishes every station", async () => {
    const alwaysBroken: StationUnit = {
      name: 'always',
      extendInput: () => {
        throw new Error('always broken');
      },
      subscribe: (connection) => {
        connection.subscribe('test/poke', () => {
          throw new Error('handler broken');
        });
        throw new Error('subscribe broken');
      },
      stats: () => {
        throw new Error('stats broken');
      },
      entities: () => {
        throw new Error('entities broken');
      },
    };
    const config = testMqttConfig({ stations: STATIONS, station: { mowableOnDelayMinutes: 0 } });
    const daemon = await fixture.daemon(config, clock, [alwaysBroken, healthy]);
    const observer = await fixture.observe(daemon.port, 'mowability/+/state');
    for (const { id } of STATIONS) expect(daemon.service.acceptReading(id, reading(GOOD), 'test')).toBe('accepted');
    await observer.client.publishAsync('test/poke', 'x', { qos: 1 });
    await waitUntil(
      () =>
        STATIONS.every(
          ({ id }) =>
            observer.json(`mowability/${id}/state`)?.healthy !== undefined &&
            observer.json(`mowability/${id}/state`)?.last_reading_at !== null,
        ),
      'both states with the reading',
    );
    await waitUntil(() => daemon.service.stats().unitFailures >= 5, 'the handler failure counted');
    expect(observer.json('mowability/back/state')).toMatchObject({
      mowable: true,
      unit_errors: expect.arrayContaining([
        { unit: 'always', hook: 'subscribe', message: 'subscribe broken' },
        { unit: 'always', hook: 'extendInput', message: 'always broken' },
      ]),
    });
  });
});
