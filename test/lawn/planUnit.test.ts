/**
 * The planner and the mower control cost nothing per reading while their inputs stay the same: the
 * whole daemon (src/daemon.ts) with a station of two lawns, a week's forecast from the fake Open-Meteo,
 * a mower under control (generic MQTT, its timer far away), the Home Assistant controls, an injected
 * clock. Counted, not timed: over many readings within one hour the planner makes no plan, publishes no
 * change and hands every state the same `plan` object; the mower control asks no decision, sends no
 * command and publishes nothing. The hour, the planner's own input, then re-plans each lawn once.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as DecisionModule from '../../src/core/mower/decision.js';
import type { RunningDaemon } from '../../src/daemon.js';
import { FakeOpenMeteo } from '../forecast/fakeOpenMeteo.js';
import { startOpenMeteoDaemon } from '../helpers/openMeteoDaemon.js';
import { FakeClock, mqttTempDir, reading, RecordingClient, waitUntil } from '../helpers/mqttHarness.js';
import { dryHour, weekForecastBody } from '../plan/weekForecast.js';

/** Every decision the mower control asks (src/mower/controller.ts calls the core's decide()). */
const decisions = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/core/mower/decision.js', async (importOriginal) => {
  const original = await importOriginal<typeof DecisionModule>();
  return {
    ...original,
    decide: (...args: Parameters<typeof original.decide>) => {
      decisions.count++;
      return original.decide(...args);
    },
  };
});

/** Monday 15 June 2026, 08:00 UTC: a dry summer morning, past the night ban in Munich. */
const MORNING = Date.parse('2026-06-15T08:00:00Z');
const READINGS = 150;
/** A station's pace: 150 readings 16 s apart stay within the hour (40 minutes). */
const STEP_MS = 16_000;

const garden = {
  id: 'garden',
  name: 'Garden',
  format: 'json',
  topic: 'garden/weather',
  fields: { temperature: 'temp', humidity: 'hum', wind_speed: 'wind', precipitation_rate: 'rate', solar: 'solar' },
  location: { latitude: 48.14, longitude: 11.58, elevation: 520 },
  forecast: { source: 'open-meteo' },
  lawns: [
    { id: 'garden', name: 'Front lawn', areaM2: 300, capacityM2PerHour: 100 },
    { id: 'back', name: 'Back lawn', areaM2: 180, capacityM2PerHour: 60 },
  ],
  mower: {
    control: {
      enabled: true,
      kind: 'mqtt',
      mqtt: {
        commandTopic: 'robbi/set',
        stateTopic: 'robbi/state',
        payloads: { start: 'start', dock: 'home', pause: 'stop' },
        states: { mowing: ['mowing'], docked: ['docked'] },
      },
    },
  },
};

describe('the planner and the mower control per reading', () => {
  let fake: FakeOpenMeteo;
  let daemon: RunningDaemon | undefined;
  let observer: RecordingClient | undefined;
  const temp = mqttTempDir();

  beforeEach(async () => {
    fake = await FakeOpenMeteo.start();
  });
  afterEach(async () => {
    await observer?.close();
    await daemon?.stop();
    await fake.close();
    temp.cleanup();
  });

  it('makes no plan, asks no decision and publishes nothing of theirs while only readings arrive; the hour re-plans each lawn once', async () => {
    const clock = new FakeClock(MORNING);
    fake.fallback = { kind: 'body', text: weekForecastBody(clock.ms, dryHour) };
    daemon = await startOpenMeteoDaemon({
      temp,
      stations: [garden],
      openMeteoUrl: fake.baseUrl,
      clock,
      env: {
        MOWABILITY_TIMEZONE: 'Europe/Berlin',
        MOWABILITY_STATION_RECOMPUTE_DEBOUNCE_MS: '0',
        MOWABILITY_FORECAST_TIMEOUT_SECONDS: '60',
        // The mower control's own timer (its decisions besides the mower's reports) stays out of the test's time.
        MOWABILITY_MOWER_CONTROL_TICK_SECONDS: '600',
      },
    });
    const port = daemon.mqtt.brokerPort();
    if (port === undefined) throw new Error('the daemon has no broker');
    observer = await RecordingClient.connect(port);
    // What the daemon publishes live besides the station's state: plan changes, the mower's events and commands, the controls.
    const live = new Map<string, number>();
    observer.client.on('message', (topic, _payload, packet) => {
      if (!packet.retain && topic !== 'mowability/garden/state' && !topic.startsWith('sync/')) live.set(topic, (live.get(topic) ?? 0) + 1);
    });
    await observer.client.subscribeAsync(['mowability/#', 'robbi/#', 'sync/#'], { qos: 1 });
    // The broker hands the observer what was published before its own marker first: after this, nothing earlier is on its way.
    let marks = 0;
    const sync = async (): Promise<void> => {
      const mark = `sync/${++marks}`;
      await observer!.client.publishAsync(mark, 'x', { qos: 1 });
      await waitUntil(() => observer!.latest.has(mark), 'the marker back from the broker');
    };

    const feed = (): void => {
      const weather = dryHour(clock.ms);
      const values = { temperature: weather.temperature, humidity: weather.humidity, wind_speed: weather.wind, solar: weather.solar };
      const outcome = daemon!.station.acceptReading('garden', reading({ ...values, precipitation_rate: 0 }, 0), 'test');
      expect(outcome).toBe('accepted');
    };
    const state = () => daemon!.station.stationState('garden');
    const planStats = () => daemon!.station.stats().units.plan!;
    feed();
    await waitUntil(() => Object.keys(state()?.plan?.lawns ?? {}).length === 2, 'both lawns planned');
    await waitUntil(() => observer!.latest.has('mowability/garden/state'), 'the first state on the broker');
    // The Home Assistant controls and the mower control are part of every state.
    expect(state()).toHaveProperty('controls');
    expect(state()).toHaveProperty('mower_control');

    await sync();
    const before = {
      plans: planStats().planRuns!,
      changes: planStats().planChangesPublished!,
      states: daemon.station.stats().statesPublished,
      decisions: decisions.count,
      plan: state()!.plan,
      live: Object.fromEntries(live),
      stateMessages: observer.latest.get('mowability/garden/state')!.count,
    };
    for (let i = 0; i < READINGS; i++) {
      clock.advance(STEP_MS);
      feed();
      // The same plan object in every state: the view was not rebuilt either (its JSON text is kept with it).
      expect(state()!.plan).toBe(before.plan);
    }
    expect(daemon.station.stats().statesPublished - before.states).toBe(READINGS);
    await waitUntil(
      () => observer!.latest.get('mowability/garden/state')!.count >= before.stateMessages + READINGS,
      'every state on the broker',
    );
    await sync();
    expect(planStats().planRuns! - before.plans).toBe(0);
    expect(planStats().planChangesPublished! - before.changes).toBe(0);
    expect(decisions.count - before.decisions).toBe(0);
    expect(Object.fromEntries(live)).toEqual(before.live);

    // The planner's own input: the next hour makes one plan per lawn, at that hour.
    clock.ms = MORNING + 3_600_000 + 5_000;
    feed();
    expect(planStats().planRuns! - before.plans).toBe(2);
    expect(state()!.plan).not.toBe(before.plan);
    expect(state()!.plan!.lawns.back!.computedAtMs).toBe(clock.ms);

    // The mower's own report is the mower control's input: one decision for it (the count above could see one).
    await observer.client.publishAsync('robbi/state', 'docked');
    await waitUntil(() => decisions.count > before.decisions, "a decision on the mower's report");
  }, 60_000);
});
