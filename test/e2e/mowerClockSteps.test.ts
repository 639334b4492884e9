/**
 * The built daemon drives a robot mower while its wall clock steps, under libfaketime (as
 * ./clockSteps.test.ts): a generic MQTT mower (a real mqtt.js client on the daemon's embedded broker)
 * is started once on a dry day; then NTP steps the clock back two hours. The mower is never started a
 * second time (right after the step the readings before it lie in the future, the station's state is
 * briefly unknown and the daemon may dock its run: the safe side), the run's minutes are never
 * negative, and once the mower is home no new start follows while the clock is untrusted
 * (CLOCK_SETTLE_MINUTES after the step): the state's decision says `clock_untrusted`. Every wait is on a condition (MQTT messages), never a sleep.
 */
import { describe, expect, it } from 'vitest';
import { CLOCK_SETTLE_MINUTES } from '../../src/core/mower/decision.js';
import type { MowerCommand } from '../../src/mower/adapter.js';
import type { MowerControlStatus } from '../../src/mower/controller.js';
import { cleanup, setClockOffset, startStepped, type ClockStepSetup, type SteppedDaemon } from '../helpers/clockStepDaemon.js';
import { makeTempDir } from '../helpers/httpTempDir.js';
import { dryForecastPayload, mqttMowerOnBroker } from '../helpers/mowerSimulators.js';
import { waitUntil } from '../helpers/wait.js';
import mqtt from 'mqtt';

const HOUR_MS = 3_600_000;
const FORECAST_TOPIC = 'weather/forecast';
const COMMANDS: Record<string, MowerCommand> = { start_mowing: 'start', dock: 'dock', pause: 'pause' };

const station = {
  forecast: { source: 'mqtt', topic: FORECAST_TOPIC },
  mower: {
    control: {
      enabled: true,
      dryRun: false,
      kind: 'mqtt',
      runMinutes: 60,
      confirmSeconds: 60,
      mqtt: {
        commandTopic: 'robbi/command',
        payloads: { start: 'start_mowing', dock: 'dock', pause: 'pause' },
        stateTopic: 'robbi/activity',
        stateKey: '',
        states: { mowing: ['mowing'], docked: ['docked'], paused: ['paused'], returning: ['returning'], error: ['error'] },
      },
    },
  },
};

const control = (daemon: SteppedDaemon): MowerControlStatus | undefined =>
  (daemon.latest() as { mower_control?: MowerControlStatus } | undefined)?.mower_control;

/** Waits until `count` more states than now carry a decision taken after `afterIso` that satisfies `ok`. */
async function decisionsHold(daemon: SteppedDaemon, count: number, ok: (status: MowerControlStatus) => boolean, what: string) {
  const seen = new Set<string>();
  await waitUntil(
    () => {
      const status = control(daemon);
      if (!status?.decision) return false;
      if (!ok(status)) {
        const codes = daemon.states.map((state) => (state as { mower_control?: MowerControlStatus }).mower_control?.decision?.reason);
        throw new Error(
          `${what}: the decision is ${status.decision.code} (${status.decision.reason}); decisions seen: ${[...new Set(codes)].join(' | ')}`,
        );
      }
      seen.add(status.decision.at);
      return seen.size >= count;
    },
    what,
    20_000,
  );
}

describe('the mower control of a daemon whose wall clock steps (libfaketime)', () => {
  it('a step back mid-run: no second start, the run keeps its minutes, and no new start while the clock is untrusted', async () => {
    const temp = makeTempDir('mow-mower-clock-');
    const setup: ClockStepSetup = {
      dir: temp.dir,
      dbPath: temp.dbPath,
      station,
      // The week plan off: this is about clock steps, and at the test's real date (winter, say) the
      // plan would rightly hold every start for a lawn that is not growing.
      env: { MOWABILITY_MOWER_CONTROL_TICK_SECONDS: '1', MOWABILITY_FORECAST_RAIN_LEAD_MINUTES: '30', MOWABILITY_PLAN_ENABLED: 'false' },
    };
    const own: { daemon?: SteppedDaemon; stop?: () => Promise<void> } = {};
    try {
      // The daemon's day starts at the next 11:00 UTC, far from night and quiet hours whenever the test runs.
      const realNow = Date.now();
      const elevenUtc = Math.ceil((realNow - 11 * HOUR_MS) / (24 * HOUR_MS)) * 24 * HOUR_MS + 11 * HOUR_MS;
      const offsetMinutes = Math.round((elevenUtc - realNow) / 60_000);
      own.daemon = await startStepped(setup, `+${offsetMinutes}m`);
      const daemon = own.daemon;
      const mower = await mqttMowerOnBroker({
        url: `mqtt://127.0.0.1:${daemon.port}`,
        commandTopic: 'robbi/command',
        stateTopic: 'robbi/activity',
        commandOf: (payload) => COMMANDS[payload],
        stateOf: (activity) => activity,
      });
      own.stop = () => mower.stop();
      const publisher = await mqtt.connectAsync(`mqtt://127.0.0.1:${daemon.port}`, { reconnectPeriod: 0 });
      try {
        await publisher.publishAsync(
          FORECAST_TOPIC,
          dryForecastPayload(Math.floor((Date.now() + offsetMinutes * 60_000) / HOUR_MS) * HOUR_MS),
          { qos: 1, retain: true },
        );
      } finally {
        await publisher.endAsync();
      }
      await waitUntil(() => control(daemon)?.activity === 'docked', 'the mower reported docked', 20_000);
      // A dry, mild reading: mowable, fresh, four hours and more of dry window ahead.
      await daemon.readings([
        { t: 20.5, total: 10 },
        { t: 21, total: 10 },
      ]);
      await waitUntil(() => mower.model.activity === 'mowing', 'the daemon started the mower', 20_000).catch((err: unknown) => {
        // Why not: the last decision and what the station's state said.
        const state = daemon.latest() as Record<string, unknown> | undefined;
        throw new Error(
          `${String(err)}; decision ${JSON.stringify(control(daemon)?.decision)}; mowable ${String(state?.mowable)} (${String(state?.mowable_reason)}); forecast ${JSON.stringify((state?.forecast as Record<string, unknown> | undefined)?.mowable_for_minutes)}`,
        );
      });
      await waitUntil(() => control(daemon)?.current_run?.started_by === 'daemon', 'the run in the ledger', 20_000);
      expect(mower.model.received).toEqual(['start']);

      // NTP steps the wall clock back two hours while the mower mows.
      setClockOffset(setup.dir, `+${offsetMinutes - 120}m`);
      await waitUntil(() => Number(daemon.stats()?.clockSteps) === 1, 'the step counted', 20_000);
      await daemon.reading({ t: 21.5, total: 10 });
      // Right after the step the readings stamped before it lie in the future: held back, the station's state is
      // briefly unknown and the daemon may dock its run (the safe side). Never a second start.
      const starts = () => mower.model.received.filter((command) => command === 'start').length;
      await decisionsHold(daemon, 3, () => starts() === 1, 'no second start after the step');
      if (mower.model.activity === 'returning') expect(mower.model.received).toEqual(['start', 'dock']);
      else expect(mower.model.received).toEqual(['start']);

      // The mower is home: the run closes with its true minutes, and no start follows while the clock is untrusted.
      mower.model.set('docked');
      await waitUntil(() => control(daemon)?.runs[0]?.ended_at != null, 'the run closed', 20_000);
      expect(control(daemon)!.runs[0]!.mowing_minutes).toBeGreaterThanOrEqual(0);
      await decisionsHold(
        daemon,
        3,
        (status) =>
          status.decision?.code === 'clock_untrusted' || status.decision?.code === 'command_pending' || status.activity !== 'docked',
        `no start within ${CLOCK_SETTLE_MINUTES} min of the step`,
      );
      expect(control(daemon)!.decision).toMatchObject({
        code: 'clock_untrusted',
        reason: `the clock stepped less than ${CLOCK_SETTLE_MINUTES} min ago`,
      });
      expect(starts()).toBe(1);
    } finally {
      await own.stop?.();
      await own.daemon?.stop('SIGKILL');
      cleanup(setup.dir);
    }
  }, 90_000);
});
