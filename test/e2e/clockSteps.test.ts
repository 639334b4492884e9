/**
 * A running daemon whose wall clock steps, under libfaketime (bench/NOTES.md, clock steps):
 * the five ways a Raspberry Pi's clock goes wrong. Each scenario asserts that no new reading is
 * lost, rain is counted once, the current values follow the newest readings, `mowable` is never
 * true while the newest readings show rain, the history is kept and the recompute keeps publishing.
 */
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '../helpers/httpTempDir.js';
import { waitUntil } from '../helpers/wait.js';
import {
  cleanup,
  committedCounterMm,
  markSynced,
  peakRssBytes,
  setClockOffset,
  startStepped,
  storedHistory,
  type ClockStepSetup,
  type SteppedDaemon,
} from '../helpers/clockStepDaemon.js';

/** The recompute publishes at least twice more without a new reading. */
async function keepsPublishing(daemon: SteppedDaemon): Promise<void> {
  const seen = daemon.states.length;
  await waitUntil(() => daemon.states.length >= seen + 2, 'two more recomputes', 6_000);
}

async function follows(daemon: SteppedDaemon, temperature: number): Promise<void> {
  await waitUntil(() => daemon.latest()?.input.temperature === temperature, `the state to show ${temperature} °C`, 6_000);
}

/** A scenario in its own directory; its daemon is killed and the directory removed whatever happens. */
async function scenario(run: (setup: ClockStepSetup, own: { daemon?: SteppedDaemon }) => Promise<void>): Promise<void> {
  const temp = makeTempDir('mow-clock-');
  const setup: ClockStepSetup = { dir: temp.dir, dbPath: temp.dbPath };
  const own: { daemon?: SteppedDaemon } = {};
  try {
    await run(setup, own);
  } finally {
    await own.daemon?.stop('SIGKILL');
    cleanup(setup.dir);
  }
}

// In sequence: five daemons starting at once overload a small CI machine.
describe('a daemon whose wall clock steps (libfaketime)', () => {
  it('boots a day ahead, restarts, then NTP steps back a day: new readings count, rain shows, mowable off', async () => {
    await scenario(async (setup, own) => {
      own.daemon = await startStepped(setup, '+1d');
      // Different content each time: identical content within 10 s is a radio repeat (a duplicate by design).
      await own.daemon!.reading({ t: 21.5, total: 100 });
      await own.daemon!.reading({ t: 22, total: 100 });
      await follows(own.daemon!, 22);
      setClockOffset(setup.dir, '+0');
      await waitUntil(() => Number(own.daemon!.stats()?.clockSteps) === 1, 'the step counted in the bridge stats', 6_000);
      await own.daemon!.reading({ t: 14, total: 104 });
      await follows(own.daemon!, 14);
      expect(own.daemon!.latest()?.input.rain_1h).toBe(4);
      expect(own.daemon!.latest()?.mowable).toBe(false);
      await keepsPublishing(own.daemon!);
      expect(own.daemon!.stats()).toMatchObject({ accepted: 3, duplicates: 0, clockSteps: 1 });
      await own.daemon!.stop();
      // A restart after the step: the high-water mark stored a day ahead drops nothing.
      own.daemon = await startStepped(setup, '+0');
      await own.daemon!.reading({ t: 13, total: 104 });
      await follows(own.daemon!, 13);
      expect(own.daemon!.stats()).toMatchObject({ accepted: 1, duplicates: 0 });
      await keepsPublishing(own.daemon!);
      await own.daemon!.stop();
      own.daemon = undefined;
      expect(await storedHistory(setup.dbPath)).toMatchObject({ rainMm: 4 });
    });
  }, 60_000);

  it('a power cut, fake-hwclock restores a time 30 min before the last stored reading: new readings count, mowable off in rain', async () => {
    await scenario(async (setup, own) => {
      own.daemon = await startStepped(setup, '+0');
      await own.daemon!.readings([
        { t: 19.5, total: 50 },
        { t: 20, total: 50 },
      ]);
      // The counter in the database, not a commit count: the first commit may hold only the station state, and a
      // SIGKILL before the readings' commit left the next start without a baseline (test/station/restartRainUnknown.test.ts).
      await waitUntil(
        async () => (await committedCounterMm(setup.dbPath)) === 50 && own.daemon!.latest()?.input.temperature === 20,
        'the readings committed',
        6_000,
      );
      await own.daemon!.stop('SIGKILL');
      own.daemon = await startStepped(setup, '-30m');
      await own.daemon!.reading({ t: 12, total: 53 });
      await follows(own.daemon!, 12);
      // The values stamped 30 min "ahead" are neither fresh nor hiding the new reading's 3 mm: the first state with the reading is off.
      const first = own.daemon!.states.find((state) => state.input.temperature === 12)!;
      expect(first).toMatchObject({ mowable: false, input: { minutes_since_rain: 0, rain_1h: 3 } });
      // NTP: the clock steps 30 min forward.
      setClockOffset(setup.dir, '+0');
      await waitUntil(() => Number(own.daemon!.stats()?.clockSteps) === 1, 'the step counted', 6_000);
      await own.daemon!.reading({ t: 11, total: 53 });
      await follows(own.daemon!, 11);
      expect(own.daemon!.latest()?.mowable).toBe(false);
      expect(own.daemon!.stats()).toMatchObject({ accepted: 2, duplicates: 0 });
      await keepsPublishing(own.daemon!);
      await own.daemon!.stop();
      own.daemon = undefined;
      expect(await storedHistory(setup.dbPath)).toMatchObject({ rainMm: 3 });
    });
  }, 60_000);

  it('a clock a year ahead across the daily prune, then back: history kept, new readings count', async () => {
    await scenario(async (setup, own) => {
      setup.payloadTime = true;
      setup.env = { MOWABILITY_HISTORY_PRUNE_SCHEDULE: '* * * * * *' };
      own.daemon = await startStepped(setup, '+0');
      const realNowS = Math.floor(Date.now() / 1000);
      // Three days of readings every 70 min, stamped by the station (rtl_433 on the same Pi).
      const past = Array.from({ length: 60 }, (_, i) => ({ t: 10 + (i % 7), total: 10, ts: realNowS - 3 * 86_400 + i * 70 * 60 }));
      await own.daemon!.readings(past);
      await own.daemon!.stop();
      const kept = (await storedHistory(setup.dbPath)).rows;
      expect(kept).toBeGreaterThanOrEqual(60);
      own.daemon = await startStepped(setup, '+365d');
      const yearS = 365 * 86_400;
      await own.daemon!.readings([{ t: 20, total: 10, ts: Math.floor(Date.now() / 1000) + yearS }]);
      await waitUntil(
        () => own.daemon!.process.logLines().some((line) => String(line.msg).startsWith('history prune postponed')),
        'the prune postponed',
        6_000,
      );
      setClockOffset(setup.dir, '+0');
      await waitUntil(() => Number(own.daemon!.stats()?.clockSteps) === 1, 'the step counted', 6_000);
      await own.daemon!.reading({ t: 14, total: 12, ts: Math.floor(Date.now() / 1000) });
      await follows(own.daemon!, 14);
      expect(own.daemon!.latest()?.mowable).toBe(false);
      await waitUntil(() => own.daemon!.process.logLines().some((line) => line.msg === 'history pruned'), 'a prune after the step', 6_000);
      expect(own.daemon!.stats()).toMatchObject({ accepted: 2, duplicates: 0, rejected: 0 });
      await keepsPublishing(own.daemon!);
      await own.daemon!.stop();
      own.daemon = undefined;
      const after = await storedHistory(setup.dbPath);
      expect(after.rows).toBeGreaterThanOrEqual(kept);
      expect(after.rainMm).toBe(2);
    });
  }, 60_000);

  it('a clock a year behind, then NTP steps forward: /health stays fast, memory flat, readings count', async () => {
    await scenario(async (setup, own) => {
      own.daemon = await startStepped(setup, '-365d');
      await own.daemon!.readings([
        { t: 15.5, total: 100 },
        { t: 15, total: 100 },
      ]);
      await follows(own.daemon!, 15);
      const pid = own.daemon!.process.child.pid!;
      const rssBefore = peakRssBytes(pid);
      setClockOffset(setup.dir, '+0');
      let worstMs = 0;
      let sinceStep = 0;
      // /health asked at a monitor's pace (the polling step, 100 ms), not a load test (the RSS bound is
      // about the step), until the daemon has counted the step and answered ten more times after it.
      await waitUntil(
        async () => {
          const started = performance.now();
          const response = await fetch(`${own.daemon!.process.baseUrl}/health`);
          expect(response.status).toBe(200);
          worstMs = Math.max(worstMs, performance.now() - started);
          if (Number(own.daemon!.stats()?.clockSteps) === 1) sinceStep++;
          return sinceStep > 10;
        },
        'the step counted, /health asked throughout',
        10_000,
        100,
      );
      expect(Number(own.daemon!.stats()?.clockSteps)).toBe(1);
      expect(worstMs).toBeLessThan(1_000);
      expect(peakRssBytes(pid) - rssBefore).toBeLessThan(20 * 1024 * 1024);
      await own.daemon!.reading({ t: 9, total: 101 });
      await follows(own.daemon!, 9);
      expect(own.daemon!.latest()?.mowable).toBe(false);
      expect(own.daemon!.latest()?.input.rain_1h).toBe(1);
      expect(own.daemon!.stats()).toMatchObject({ accepted: 3, duplicates: 0 });
      await keepsPublishing(own.daemon!);
      await own.daemon!.stop();
      own.daemon = undefined;
      expect(await storedHistory(setup.dbPath)).toMatchObject({ rainMm: 1 });
    });
  }, 60_000);

  it('two days behind, not yet synchronised, readings with a correct time of their own: kept, and no mowable right after rain', async () => {
    await scenario(async (setup, own) => {
      setup.payloadTime = true;
      setup.timesync = true;
      own.daemon = await startStepped(setup, '-2d');
      const nowS = () => Math.floor(Date.now() / 1000);
      await own.daemon!.readings([
        { t: 16, total: 200, ts: nowS() - 120 },
        { t: 15, total: 203, ts: nowS() - 5 },
      ]);
      expect(own.daemon!.stats()).toMatchObject({ accepted: 2, rejected: 0, clockSync: 'unsynchronized' });
      await follows(own.daemon!, 15);
      expect(own.daemon!.latest()?.mowable).toBe(false);
      markSynced(setup.dir);
      setClockOffset(setup.dir, '+0');
      await waitUntil(
        () => Number(own.daemon!.stats()?.clockSteps) === 1 && own.daemon!.stats()?.clockSync === 'synchronized',
        'the step and the sync',
        8_000,
      );
      // Seconds after 3 mm of rain: the history's windows are withheld (two days without readings), the flag stays off.
      const afterStep = own.daemon!.latest()!;
      expect(afterStep.mowable).toBe(false);
      const health = (await (await fetch(`${own.daemon!.process.baseUrl}/health`)).json()) as { mfi: { checks: { clock: unknown } } };
      expect(health.mfi.checks.clock).toMatchObject({ status: 'synchronized', steps: 1 });
      await own.daemon!.reading({ t: 14, total: 203, ts: nowS() });
      await follows(own.daemon!, 14);
      expect(own.daemon!.latest()?.mowable).toBe(false);
      expect(own.daemon!.stats()).toMatchObject({ accepted: 3, duplicates: 0, rejected: 0 });
      await keepsPublishing(own.daemon!);
      await own.daemon!.stop();
      own.daemon = undefined;
      expect((await storedHistory(setup.dbPath)).rainMm).toBe(3);
    });
  }, 60_000);
});
