/**
 * A running daemon whose wall clock steps, under libfaketime (docs/performance.md, clock steps):
 * the five ways a Raspberry Pi's clock goes wrong. Each scenario asserts that no new reading is
 * lost, rain is counted once, the current values follow the newest readings, `mowable` is never
 * true while the newest readings show rain, the history is kept and the recompute keeps publishing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../helpers/httpTempDir.js';
import { waitUntil } from '../helpers/wait.js';
import { cleanup, markSynced, setClockOffset, startStepped, storedHistory, type ClockStepSetup, type SteppedDaemon } from '../helpers/clockStepDaemon.js';

/** The recompute publishes at least twice more without a new reading. */
async function keepsPublishing(daemon: SteppedDaemon): Promise<void> {
  const seen = daemon.states.length;
  await waitUntil(() => daemon.states.length >= seen + 2, 'two more recomputes', 6_000);
}

async function follows(daemon: SteppedDaemon, temperature: number): Promise<void> {
  await waitUntil(() => daemon.latest()?.input.temperature === temperature, `the state to show ${temperature} °C`, 6_000);
}

describe('a daemon whose wall clock steps (libfaketime)', () => {
  let setup: ClockStepSetup;
  let daemon: SteppedDaemon | undefined;
  beforeEach(() => {
    const temp = makeTempDir('mow-clock-');
    setup = { dir: temp.dir, dbPath: temp.dbPath };
  });
  afterEach(async () => {
    await daemon?.stop('SIGKILL');
    daemon = undefined;
    cleanup(setup.dir);
  });

  it('boots a day ahead, restarts, then NTP steps back a day: new readings count, rain shows, mowable off', async () => {
    daemon = await startStepped(setup, '+1d');
    // Different content each time: identical content within 10 s is a radio repeat (a duplicate by design).
    await daemon.reading({ t: 21.5, total: 100 });
    await daemon.reading({ t: 22, total: 100 });
    await follows(daemon, 22);
    setClockOffset(setup.dir, '+0');
    await waitUntil(() => Number(daemon!.stats()?.clockSteps) === 1, 'the step counted in the bridge stats', 6_000);
    await daemon.reading({ t: 14, total: 104 });
    await follows(daemon, 14);
    expect(daemon.latest()?.input.rain_1h).toBe(4);
    expect(daemon.latest()?.mowable).toBe(false);
    await keepsPublishing(daemon);
    expect(daemon.stats()).toMatchObject({ accepted: 3, duplicates: 0, clockSteps: 1 });
    await daemon.stop();
    // A restart after the step: the high-water mark stored a day ahead drops nothing.
    daemon = await startStepped(setup, '+0');
    await daemon.reading({ t: 13, total: 104 });
    await follows(daemon, 13);
    expect(daemon.stats()).toMatchObject({ accepted: 1, duplicates: 0 });
    await keepsPublishing(daemon);
    await daemon.stop();
    daemon = undefined;
    expect(await storedHistory(setup.dbPath)).toMatchObject({ rainMm: 4 });
  }, 30_000);
});
