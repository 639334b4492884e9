/**
 * The station-unit extension point, end to end through the embedded broker: a
 * unit's subscription, derived input, state fragment, mowable hold, entities
 * and stats all reach what a user sees; a reading handed in directly (as an
 * HTTP upload does) goes through the same pipeline as an MQTT message.
 */
import { describe, expect, it } from 'vitest';
import type { StationConfig } from '../../src/ingest/types.js';
import type { TimedReading } from '../../src/history/stationHistory.js';
import type { StationInput, StationUnit, UnitContext } from '../../src/station/unit.js';
import { FakeClock, reading, testMqttConfig, waitUntil, type RecordingClient } from '../helpers/mqttHarness.js';
import { useStationFixture } from '../helpers/stationFixture.js';

const garden: StationConfig = {
  id: 'garden',
  name: 'Garden',
  format: 'json',
  topic: 'garden/weather',
  fields: { temperature: 'temp', precipitation_rate: 'rate', humidity: 'hum', wind_speed: 'wind' },
};

/** A unit that holds the flag while its topic says "hold", and records what the pipeline asked of it. */
class HoldUnit implements StationUnit {
  readonly name = 'hold';
  held = false;
  messages = 0;
  readonly calls: string[] = [];
  lastInput: StationInput | undefined;
  readonly readings: Array<{ stationId: string; temperature: number | undefined; timeMs: number }> = [];
  context: UnitContext | undefined;

  async start(context: UnitContext): Promise<void> {
    this.context = context;
    this.calls.push('start');
  }
  onReading(stationId: string, reading: TimedReading): void {
    this.readings.push({ stationId, temperature: reading.values.temperature, timeMs: reading.timeMs });
  }
  async stop(): Promise<void> {
    this.calls.push('stop');
  }
  subscribe(connection: Parameters<NonNullable<StationUnit['subscribe']>>[0], recompute: (stationId: string) => void): void {
    connection.subscribe('test/hold', (_topic, payload) => {
      this.messages++;
      this.held = payload.toString('utf8') === 'hold';
      recompute('garden');
    });
  }
  extendInput(_stationId: string, input: StationInput): StationInput {
    this.lastInput = input;
    return { ...input, minutes_since_irrigation: 600 };
  }
  stateFragment(): Record<string, unknown> {
    return { hold: { held: this.held }, index_score: -1 };
  }
  mowableHold() {
    return this.held ? { code: 'test_hold', reason: { en: 'held by the test unit', de: 'vom Testbaustein gesperrt' } } : undefined;
  }
  entities() {
    return [{ component: 'binary_sensor' as const, key: 'held', config: { name: 'Held', value_template: '{{ value_json.hold.held }}' } }];
  }
  stats() {
    return { holdMessages: this.messages };
  }
}

describe('station units', () => {
  const fixture = useStationFixture();
  let observer: RecordingClient | undefined;
  const clock = new FakeClock(Date.parse('2026-06-15T10:00:00Z'));

  const state = () => observer!.json('mowability/garden/state');

  it("feeds a unit's input, fragment, hold, entities and stats through to MQTT", async () => {
    const unit = new HoldUnit();
    const config = testMqttConfig({ stations: [garden], station: { mowableOnDelayMinutes: 0 } });
    const daemon = await fixture.daemon(config, clock, [unit]);
    expect(unit.calls).toEqual(['start']);
    observer = await fixture.observe(daemon.port, ['mowability/garden/state', 'homeassistant/binary_sensor/+/config']);

    // Sun, so the sprinkler run of 600 min ago has dried (model 1.2: without solar the blades dry at the 0.05 mm/h floor).
    expect(
      daemon.service.acceptReading(
        'garden',
        reading({ temperature: 21, humidity: 55, wind_speed: 5, solar: 500, precipitation_rate: 0 }),
        'test',
      ),
    ).toBe('accepted');
    await waitUntil(() => state()?.mowable === true, 'mowable after a good reading');
    expect(unit.lastInput).toMatchObject({ temperature: 21, humidity: 55 });
    expect(unit.readings).toEqual([{ stationId: 'garden', temperature: 21, timeMs: clock.now() }]);
    expect(unit.context!.history.assemble('garden', clock.now()).input.temperature).toBe(21);
    expect(unit.context!.history.lastReadingAtMs('garden')).toBe(clock.now());
    expect(state()).toMatchObject({ hold: { held: false }, input: { minutes_since_irrigation: 600 } });
    expect(state()!.index_score).toBeGreaterThan(0);
    expect(state()!.mowable_reason).toMatch(/^index \d+ has stayed at or above 70/);

    // A repeat is not a reading for the units.
    expect(
      daemon.service.acceptReading(
        'garden',
        reading({ temperature: 21, humidity: 55, wind_speed: 5, solar: 500, precipitation_rate: 0 }),
        'test',
      ),
    ).toBe('duplicate');
    expect(unit.readings).toHaveLength(1);

    await observer.client.publishAsync('test/hold', 'hold', { qos: 1 });
    await waitUntil(() => state()?.mowable === false, 'the hold turns the flag off');
    expect(state()).toMatchObject({ mowable_reason: 'held by the test unit', hold: { held: true } });

    await observer.client.publishAsync('test/hold', 'release', { qos: 1 });
    // The hold did not reset the index's hysteresis: the flag is back at once.
    await waitUntil(() => state()?.mowable === true, 'the flag is back once released');
    expect(daemon.service.stats().units).toMatchObject({ hold: { holdMessages: 2 } });

    await waitUntil(
      () => observer!.json('homeassistant/binary_sensor/mowability_garden_held/config') !== undefined,
      "the unit's entity announced",
    );
    expect(observer.json('homeassistant/binary_sensor/mowability_garden_held/config')).toMatchObject({
      state_topic: 'mowability/garden/state',
      default_entity_id: 'binary_sensor.mowability_garden_held',
    });

    await daemon.stop();
    expect(unit.calls).toEqual(['start', 'stop']);
  });

  it('accepts a directly handed reading once, refuses repeats and unknown stations', async () => {
    const daemon = await fixture.daemon(testMqttConfig({ stations: [garden] }), clock);
    const values = { temperature: 18, humidity: 60, wind_speed: 3, precipitation_rate: 0 };
    expect(daemon.service.acceptReading('garden', reading(values), 'test')).toBe('accepted');
    expect(daemon.service.acceptReading('garden', reading(values), 'test')).toBe('duplicate');
    expect(daemon.service.acceptReading('nowhere', reading(values), 'test')).toBe('unknown_station');
    expect(daemon.service.acceptReading('garden', { ...reading(values), payloadTimeMs: clock.now() + 3_600_000 }, 'test')).toBe('rejected');
    expect(daemon.service.stats()).toMatchObject({ received: 3, accepted: 1, duplicates: 1, rejected: 1 });
    expect(daemon.service.stationCounts().get('garden')).toMatchObject({ received: 3, accepted: 1, duplicates: 1, rejected: 1 });
    expect(daemon.service.stationCounts().has('nowhere')).toBe(false);
    await waitUntil(() => daemon.service.stationState('garden')?.input.temperature === 18, 'state from the handed reading');
  });
});
