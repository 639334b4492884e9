/**
 * ATTACK: any LAN client may publish on a mower's state topic, so a forged "mowing … docked" records a
 * cut at the daemon's own time. A cut only lowers mow_need, and mow_need only ever lifts the index (the
 * overdue-after-wet-spell relief: BLOCK → WARNING at least 40). So a forged cut can end that relief and
 * turn `mowable` off; it must never turn it on. The pure property covers every input, the daemon run
 * the relief case end to end (thresholds lowered to 40 so the relief alone makes the lawn mowable).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIELD_SPECS, calculate, type CalculationContext, type CalculationResult, type FieldName } from '../../src/core/index.js';
import { OVERGROWTH_FLOOR } from '../../src/core/lawnWetness.js';
import { mqttTest } from '../helpers/mqttFixture.js';
import { waitUntil } from '../helpers/wait.js';
import { replay, type Weather } from './lawnHarness.js';
import { startMowerDaemon } from './mowerHarness.js';

const ROBOT_TOPIC = 'homeassistant/lawn_mower/robbi/state';
const MIN = 60_000;
/** After three days of readings the daemon has a backlog of states to publish; on a loaded machine that takes a while. */
const SLOW_WAIT_MS = 45_000;
const STATUS_RANK: Record<string, number> = { BLOCK: 0, WARNING: 1, OK: 2 };

function result(input: Record<string, unknown>, context: CalculationContext): CalculationResult {
  const outcome = calculate(input, context);
  if (!outcome.ok) throw new Error(outcome.error.message);
  return outcome.result;
}

const field = (name: FieldName) => {
  const spec = FIELD_SPECS.find((candidate) => candidate.name === name)!;
  return fc.oneof(fc.double({ min: spec.min, max: spec.max, noNaN: true }), fc.constantFrom(spec.min, spec.max));
};
/** Any valid weather of these fields. */
const anyWeather = fc.record(
  {
    temperature: field('temperature'),
    precipitation_rate: fc.oneof(fc.constant(0), field('precipitation_rate')),
    humidity: field('humidity'),
    wind_speed: field('wind_speed'),
    dew_point: field('dew_point'),
    solar: field('solar'),
    rain_1h: fc.oneof(fc.constant(0), field('rain_1h')),
    rain_24h: field('rain_24h'),
    minutes_since_rain: field('minutes_since_rain'),
  },
  { requiredKeys: ['temperature', 'precipitation_rate'] },
);
/** The relief's corner (as after the wet spell in the daemon run below: grey, saturated, rain just stopped). */
const afterWetSpell = fc.record({
  temperature: fc.double({ min: 8, max: 26, noNaN: true }),
  precipitation_rate: fc.constant(0),
  humidity: fc.double({ min: 85, max: 100, noNaN: true }),
  wind_speed: fc.double({ min: 0, max: 15, noNaN: true }),
  solar: fc.double({ min: 0, max: 300, noNaN: true }),
  rain_1h: fc.double({ min: 0, max: 1, noNaN: true }),
  rain_24h: fc.double({ min: 0, max: 30, noNaN: true }),
  minutes_since_rain: fc.integer({ min: 0, max: 240 }),
});
const weather = fc.oneof(anyWeather, afterWetSpell);
const lawnMemory = fc.record({
  mow_need: fc.integer({ min: 0, max: 100 }),
  wet_spell_hours: fc.oneof(fc.integer({ min: 48, max: 9999 }), fc.integer({ min: 0, max: 100 })),
  blade_drying_minutes: fc.option(fc.integer({ min: 0, max: 600 }), { nil: undefined }),
});

describe('ATTACK: a forged cut lowers mow_need', () => {
  it('lowering mow_need never raises the index or its status (so never turns mowable on)', () => {
    const context: CalculationContext = { nowMs: Date.parse('2026-06-18T10:30:00Z'), timeZone: 'Europe/Berlin', hemisphere: 'north' };
    let reliefSeen = 0;
    fc.assert(
      fc.property(weather, lawnMemory, fc.double({ min: 0, max: 1, noNaN: true }), (input, memory, share) => {
        const { blade_drying_minutes: drying, ...rest } = memory;
        const before = result({ ...input, ...rest, ...(drying === undefined ? {} : { blade_drying_minutes: drying }) }, context);
        const after = result(
          {
            ...input,
            ...rest,
            mow_need: Math.floor(memory.mow_need * share),
            ...(drying === undefined ? {} : { blade_drying_minutes: drying }),
          },
          context,
        );
        if (before.index_score !== after.index_score) reliefSeen++;
        expect(after.index_score).toBeLessThanOrEqual(before.index_score);
        expect(STATUS_RANK[after.main_status]).toBeLessThanOrEqual(STATUS_RANK[before.main_status]!);
      }),
      { numRuns: 400 },
    );
    // The property is only worth something if the relief was reached and taken away.
    expect(reliefSeen).toBeGreaterThan(0);
  });
});

mqttTest(
  'ATTACK: a forged mowing session on an overdue lawn after a wet spell turns mowable off, never on',
  async ({ mqtt }) => {
    mqtt.clock.ms = Date.parse('2026-06-15T10:00:00Z');
    const lawn = await startMowerDaemon(
      mqtt,
      { topic: ROBOT_TOPIC },
      { mowableOnThreshold: OVERGROWTH_FLOOR, mowableOffThreshold: OVERGROWTH_FLOOR },
    );
    replay(lawn, mqtt.clock, '2026-06-15T10:00:00Z', '2026-06-15T10:00:00Z', () => ({
      temperature: 17,
      humidity: 60,
      wind_speed: 8,
      solar: 400,
    }));
    expect(lawn.unit.recordCut('garden', mqtt.clock.now(), 'cli')).toBe(true);
    const drizzle = (at: number): Weather => {
      const hour = new Date(at).getUTCHours();
      return { temperature: 20, humidity: 97, wind_speed: 4, solar: hour >= 4 && hour < 19 ? 60 : 0, rainMm: 0.1 };
    };
    replay(lawn, mqtt.clock, '2026-06-15T10:10:00Z', '2026-06-18T10:00:00Z', drizzle);
    expect(lawn.state()).toMatchObject({ main_status: 'BLOCK', mowable: false });
    // The rain stops: the overdue lawn's relief makes it mowable at the lowered threshold.
    const afterRain = (at: number): Weather => ({ ...drizzle(at), rainMm: 0 });
    replay(lawn, mqtt.clock, '2026-06-18T10:10:00Z', '2026-06-18T10:30:00Z', afterRain);
    expect(lawn.state()).toMatchObject({ main_status: 'WARNING', index_score: OVERGROWTH_FLOOR, mowable: true });
    expect(lawn.state()!.lawn.mow_need).toBeGreaterThanOrEqual(80);

    // Another client forges the robot's session: all it can do is take the relief away.
    const attacker = await mqtt.connect(lawn.daemon.port, { clientId: 'not-the-robot' });
    await attacker.client.publishAsync(ROBOT_TOPIC, 'mowing', { qos: 1 });
    await waitUntil(() => lawn.mower.counters.mowerStatesReceived === 1, 'the forged "mowing"', SLOW_WAIT_MS);
    mqtt.clock.ms += 15 * MIN;
    await attacker.client.publishAsync(ROBOT_TOPIC, 'docked', { qos: 1 });
    await waitUntil(() => lawn.state()?.lawn.mow_need === 0, 'the forged cut in the state', SLOW_WAIT_MS);
    expect(lawn.state()).toMatchObject({ main_status: 'BLOCK', mowable: false, lawn: { last_cut_source: 'mower' } });
    // Nor does it come back on while the blades stay wet: no relief without an overdue lawn.
    replay(lawn, mqtt.clock, '2026-06-18T10:50:00Z', '2026-06-18T12:00:00Z', afterRain);
    expect(lawn.state()).toMatchObject({ mowable: false });
  },
  120_000,
); // three days of 10-minute readings: ~6 s alone, several times that on a loaded machine
