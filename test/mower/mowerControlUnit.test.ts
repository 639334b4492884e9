import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { QuietHoursSettings } from '../../src/core/lawn/quietHours.js';
import { controlConfigOf } from '../../src/mower/controlConfig.js';
import { MowerControlUnit } from '../../src/mower/mowerControlUnit.js';
import { SimulatedMower } from '../helpers/mowerSimulators.js';
import { useTempDatabase } from '../helpers/tempDatabase.js';
import { waitUntil } from '../helpers/wait.js';
import { MowerRunStore } from '../../src/store/mowerRunStore.js';

const MINUTE = 60_000;
/** A June morning, 07:00 UTC. */
const MORNING = Date.UTC(2026, 5, 10, 7, 0);

interface Weather {
  mowable: boolean;
  rainRate: number;
  mowableFor: number | null;
  rainIn: number | null;
}

/** A station state as the pipeline publishes it, with the fields the decision reads. */
function stateOf(weather: Weather, nowMs: number): Record<string, unknown> {
  return {
    station: 'garden',
    index_score: weather.mowable ? 85 : 30,
    main_status: weather.mowable ? 'OK' : 'BLOCK',
    mowable: weather.mowable,
    input: { temperature: 20, precipitation_rate: weather.rainRate },
    last_reading_at: new Date(nowMs - MINUTE).toISOString(),
    forecast: { stale: false, mowable_for_minutes: weather.mowableFor, rain_expected_in_minutes: weather.rainIn },
  };
}

const noonQuiet: QuietHoursSettings = {
  night: false,
  marginMinutes: 0,
  noise: { fromMin: 12 * 60, toMin: 14 * 60 },
  sundays: false,
  timeZone: 'UTC',
};

describe('mower control: scenarios over a simulated day (injected clock, real SQLite ledger)', () => {
  const temp = useTempDatabase();
  const started: MowerControlUnit[] = [];
  afterEach(async () => {
    for (const unit of started.splice(0)) await unit.stop();
  });

  function build(
    options: {
      control?: Record<string, unknown>;
      mower?: SimulatedMower;
      weather?: Partial<Weather>;
      nowMs?: number;
      /** More of the station's state (the planner's `plan`). */
      state?: Record<string, unknown>;
    } = {},
  ) {
    const clock = {
      nowMs: options.nowMs ?? MORNING,
      now() {
        return this.nowMs;
      },
    };
    const weather: Weather = { mowable: true, rainRate: 0, mowableFor: 240, rainIn: null, ...options.weather };
    const mower = options.mower ?? new SimulatedMower();
    const cuts: number[] = [];
    const lines: string[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const control = controlConfigOf(
      {
        enabled: true,
        dryRun: false,
        kind: 'mqtt',
        runMinutes: 90,
        minGapHours: 20,
        confirmSeconds: 60,
        retries: 2,
        mqtt: {
          commandTopic: 'm/set',
          stateTopic: 'm/state',
          payloads: { start: 's', dock: 'd', pause: 'p' },
          states: { mowing: ['mowing'], docked: ['docked'] },
        },
        ...options.control,
      },
      'garden',
    );
    const unit = new MowerControlUnit({
      lawns: [{ id: 'garden', control }],
      settings: { tickSeconds: 600, homeAssistantToken: '' },
      store: new MowerRunStore(temp.db),
      log,
      clock,
      baseTopic: 'mowability',
      timeZone: 'UTC',
      recordCut: (_station, atMs) => (cuts.push(atMs), true),
      quietHours: noonQuiet,
      adapterFor: () => mower,
    });
    const controller = unit.controller('garden')!;
    /** The pipeline's part: the station's state of this moment reaches the unit (onState, its input), then the timer ticks. */
    const tick = async (): Promise<void> => {
      unit.onState('garden', { ...stateOf(weather, clock.nowMs), ...options.state } as never);
      await unit.tickAll();
    };
    const run = async (minutes: number): Promise<void> => {
      // One tick every 30 s of simulated time, as the unit's timer would.
      for (let step = 0; step < minutes * 2; step++) {
        clock.nowMs += MINUTE / 2;
        await tick();
      }
    };
    return { unit, clock, weather, mower, cuts, lines, controller, run, tick, start: async () => (started.push(unit), unit.start()) };
  }

  it('dry morning: starts once, docks when the noon quiet hours begin, and the run is in the ledger', async () => {
    const { mower, start, run, controller, clock } = build();
    await start();
    await run(1);
    await waitUntil(() => mower.model.activity === 'mowing', 'the mower mows');
    await run(5 * 60 - 1);
    expect(mower.model.received.filter((command) => command === 'start')).toEqual(['start']);
    const dock = mower.model.received.indexOf('dock');
    expect(dock).toBe(1);
    mower.model.set('docked');
    await waitUntil(() => controller.runs().at(-1)?.endMs != null, 'the run is closed');
    const last = controller.runs().at(-1)!;
    expect(last).toMatchObject({ startedBy: 'daemon', outcome: 'docked_by_daemon' });
    expect(new Date(last.startMs).toISOString()).toBe('2026-06-10T07:00:30.000Z');
    expect(controller.status(clock.nowMs).decision?.code).toBe('quiet_hours');
  });

  it('a shower mid-run docks within a minute of the rain starting; the ledger says docked for rain', async () => {
    const { mower, weather, start, run, clock, controller } = build();
    await start();
    await run(1);
    await run(20);
    weather.rainRate = 1.2;
    const rainAt = clock.nowMs;
    await run(1);
    expect(mower.model.received).toEqual(['start', 'dock']);
    expect(clock.nowMs - rainAt).toBeLessThanOrEqual(MINUTE);
    mower.model.set('docked');
    await waitUntil(() => controller.runs().at(-1)?.outcome === 'docked_for_rain', 'docked for rain in the ledger');
  });

  it('rain expected in 40 min and a 90-minute run: not started', async () => {
    const { mower, start, run, controller, clock } = build({ weather: { rainIn: 40, mowableFor: 240 } });
    await start();
    await run(10);
    expect(mower.model.received).toEqual([]);
    expect(controller.status(clock.nowMs).decision).toMatchObject({ action: 'none', code: 'window_short' });
  });

  it('a lost command is retried with back-off, then the alert; the budget is never exceeded', async () => {
    const mower = new SimulatedMower();
    mower.model.ignoreNext = 100;
    const { start, run, controller, clock, lines } = build({ mower, control: { retries: 3, confirmSeconds: 60, budget: { perDay: 3 } } });
    await start();
    await run(60);
    // 1 + 3 retries wanted, the day's budget allows 3: never a fourth call.
    expect(mower.model.received).toEqual(['start', 'start', 'start']);
    const status = controller.status(clock.nowMs);
    expect(status.alert?.code).toBe('budget_spent');
    expect(status.budget_left.per_day).toBe(0);
    expect(lines.some((line) => line.includes('mower alert'))).toBe(true);
  });

  it('an unconfirmed command stops after its retries with an alert, and nothing more is sent', async () => {
    const mower = new SimulatedMower();
    mower.model.ignoreNext = 100;
    const { start, run, controller, clock } = build({ mower, control: { retries: 2, confirmSeconds: 60 } });
    await start();
    await run(120);
    expect(mower.model.received).toEqual(['start', 'start', 'start']);
    expect(controller.status(clock.nowMs).alert?.code).toBe('command_unconfirmed');
    expect(controller.status(clock.nowMs).decision?.code).toBe('command_failed');
  });

  it('a run the user started by hand is left alone in the rain ("respect")', async () => {
    const { mower, weather, start, run, controller } = build({ weather: { mowable: false } });
    await start();
    await run(1);
    mower.model.set('mowing');
    await waitUntil(() => controller.runs().at(-1)?.startedBy === 'user', 'the user run is in the ledger');
    weather.rainRate = 2;
    await run(10);
    expect(mower.model.received).toEqual([]);
  });

  it('a restart mid-run continues the ledger and never starts a second time; the completed run records a cut', async () => {
    const first = build();
    await first.start();
    await first.run(1);
    await waitUntil(() => first.controller.runs().at(-1)?.startedBy === 'daemon', 'the run is open');
    await first.unit.stop();
    started.splice(0);
    // The daemon comes back 10 minutes later; the mower mowed on.
    const mower = new SimulatedMower();
    mower.model.activity = 'mowing';
    const second = build({ mower, nowMs: first.clock.nowMs + 10 * MINUTE });
    await second.start();
    await second.run(60);
    expect(mower.model.received).toEqual([]);
    expect(second.controller.runs().filter((r) => r.endMs === null)).toHaveLength(1);
    mower.model.set('docked');
    await waitUntil(() => second.controller.runs().at(-1)?.outcome === 'completed', 'the run completed');
    expect(second.controller.runs()).toHaveLength(1);
    expect(second.controller.runs()[0]!.mowingMinutes).toBeGreaterThanOrEqual(70);
    expect(second.cuts).toHaveLength(1);
  });

  it('a dry run sends nothing and says what it would do', async () => {
    const { mower, start, run, lines, controller, clock } = build({ control: { dryRun: true } });
    await start();
    await run(2);
    expect(mower.model.received).toEqual([]);
    expect(lines.some((line) => line.includes('would start now (starting: mowable for 240 min, a run takes 90 min)'))).toBe(true);
    expect(controller.status(clock.nowMs).dry_run).toBe(true);
  });

  it('sends nothing once stopping', async () => {
    const { mower, start, unit, controller, weather } = build({ weather: { mowable: false } });
    await start();
    await controller.tick();
    await unit.stop();
    started.splice(0);
    weather.mowable = true;
    await controller.tick();
    expect((await controller.mowNow()).code).toBe('shutting_down');
    expect((await controller.dockNow()).code).toBe('shutting_down');
    expect(mower.model.received).toEqual([]);
  });

  it('"Mow now" answers with the reason when it refuses', async () => {
    const { start, controller, unit, tick } = build({ weather: { rainIn: 40 }, control: {} });
    const published: Array<{ topic: string; payload: string }> = [];
    unit.subscribe(
      { subscribe: () => undefined, publishNow: (topic, payload) => (published.push({ topic, payload }), true) },
      () => undefined,
    );
    await start();
    await tick();
    for (let press = 0; press < 2; press++) {
      const answer = await controller.mowNow();
      expect(answer.action).toBe('none');
      expect(answer.reason.en).toBe('mowable for 40 min only, a run takes 90 min');
    }
    // Each press gets its answer on the event topic, even with the reason unchanged.
    const answers = published.filter(
      ({ topic, payload }) => topic === 'mowability/garden/mower/event' && payload.includes('"code":"window_short"'),
    );
    expect(answers.length).toBeGreaterThanOrEqual(3);
    expect(JSON.parse(answers.at(-1)!.payload)).toMatchObject({
      event_type: 'decision',
      reason: 'mowable for 40 min only, a run takes 90 min',
      reason_de: 'nur 40 Min. mähbar, ein Lauf dauert 90 Min.',
    });
  });

  it("a clock step back mid-run keeps the run's mowing minutes true", async () => {
    const { start, run, mower, controller, clock, unit } = build({ control: { runMinutes: 60 } });
    await start();
    await run(1);
    await waitUntil(() => mower.model.activity === 'mowing', 'the mower mows');
    await run(40);
    // NTP steps the wall clock back two hours; the unit hears of it as the pipeline tells every unit.
    clock.nowMs -= 120 * MINUTE;
    unit.clockStepped({ deltaMs: -120 * MINUTE, direction: 'back', atMs: clock.nowMs });
    await run(20);
    mower.model.set('docked');
    await waitUntil(() => controller.runs().at(-1)?.endMs != null, 'the run is closed');
    // 61 minutes of mowing (from 07:00:30): completed (at least half the run length), never negative.
    expect(controller.runs().at(-1)).toMatchObject({ outcome: 'completed', mowingMinutes: 61 });
    expect(mower.model.received).toEqual(['start']);
  });

  it("follows the plan in the station's state: no start before the planned slot, one start inside it", async () => {
    // A slot from 09:00 to 11:00 UTC; the morning starts at 07:00.
    const slot = { id: 'slot-1', startMs: MORNING + 120 * MINUTE, endMs: MORNING + 240 * MINUTE, band: 'OK', relaxed: false, sequence: 0 };
    const plan = { lawns: { garden: { lawnId: 'garden', slots: [slot], need: { runtimeNeededMinutesThisWeek: 180 } } } };
    const { start, run, mower, controller, clock } = build({ state: { plan }, control: { minGapHours: 0 } });
    await start();
    await run(119);
    expect(mower.model.received).toEqual([]);
    expect(controller.status(clock.nowMs).decision).toMatchObject({
      code: 'outside_plan',
      reason: 'outside the plan: the next planned slot starts Wed 09:00',
    });
    await run(2);
    await waitUntil(() => mower.model.activity === 'mowing', 'started inside the slot');
    expect(mower.model.received).toEqual(['start']);
  });
});

describe('mower control: the "Automatic mowing" switch', () => {
  const temp = useTempDatabase();

  it('switched off stays off across a restart', async () => {
    const make = () => {
      const mower = new SimulatedMower();
      const control = controlConfigOf({ enabled: true, dryRun: false, kind: 'openmower', openmower: { prefix: 'om' } }, 'garden');
      const unit = new MowerControlUnit({
        lawns: [{ id: 'garden', control }],
        settings: { tickSeconds: 600, homeAssistantToken: '' },
        store: new MowerRunStore(temp.db),
        log: pino({ level: 'silent' }),
        clock: { now: () => MORNING },
        baseTopic: 'mowability',
        timeZone: 'UTC',
        recordCut: () => true,
        quietHours: undefined,
        adapterFor: () => mower,
      });
      unit.onState('garden', stateOf({ mowable: true, rainRate: 0, mowableFor: 240, rainIn: null }, MORNING) as never);
      return { unit, mower };
    };
    const first = make();
    await first.unit.controller('garden')!.setAutomatic(false);
    const second = make();
    await second.unit.start();
    await second.unit.tickAll();
    expect(second.unit.controller('garden')!.automatic).toBe(false);
    expect(second.mower.model.received).toEqual([]);
    await second.unit.stop();
  });
});
