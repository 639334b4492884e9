/**
 * The mower control's rows behind their typed store: the run ledger writes and reloads them through it,
 * and the week plan reads a lawn's runs only through the read-only offer of the mower control module
 * (minutes since the week's start, the latest completed runs' minutes), also while the control is off.
 */
import { describe, expect, it } from 'vitest';
import { mowerControlModule } from '../../src/mower/mowerControlModule.js';
import { RunLedger } from '../../src/mower/runLedger.js';
import { MowerRunStore } from '../../src/store/mowerRunStore.js';
import { silentLogger } from '../helpers/mqttHarness.js';
import { useTempDatabase } from '../helpers/tempDatabase.js';

const HOUR_MS = 3_600_000;
const MONDAY = Date.parse('2026-06-15T00:00:00Z');
const done = { en: 'the run is done', de: 'Der Lauf ist fertig' };

describe('the mower run store', () => {
  const temp = useTempDatabase();

  async function ledgerWithRuns(store: MowerRunStore): Promise<RunLedger> {
    const ledger = new RunLedger({ store, lawn: 'back', station: 'garden', timeZone: 'UTC' });
    await ledger.load(MONDAY);
    // Last week: two completed runs; this week: one completed, one docked for rain, one still open.
    for (const [startMs, minutes, outcome] of [
      [MONDAY - 72 * HOUR_MS, 50, 'completed'],
      [MONDAY - 48 * HOUR_MS, 70, 'completed'],
      [MONDAY + 8 * HOUR_MS, 60, 'completed'],
      [MONDAY + 30 * HOUR_MS, 25, 'docked_for_rain'],
    ] as const) {
      await ledger.openRun('daemon', startMs);
      await ledger.closeRun(startMs + HOUR_MS, minutes, outcome, done);
    }
    await ledger.openRun('user', MONDAY + 50 * HOUR_MS);
    await ledger.recordCall('start', MONDAY + 50 * HOUR_MS);
    await ledger.saveAutomatic(false, MONDAY + 51 * HOUR_MS);
    return ledger;
  }

  it('keeps what the run ledger writes: a restart reloads the runs, the open run, the calls and the switch', async () => {
    const written = await ledgerWithRuns(new MowerRunStore(temp.db));
    const reloaded = new RunLedger({ store: new MowerRunStore(temp.db), lawn: 'back', station: 'garden', timeZone: 'UTC' });
    await reloaded.load(MONDAY + 52 * HOUR_MS);
    expect(reloaded.runs).toEqual(written.runs);
    expect(reloaded.current).toMatchObject({ startedBy: 'user', endMs: null });
    expect(reloaded.runs[0]).toMatchObject({ mowingMinutes: 50, outcome: 'completed', reason: done });
    expect(reloaded.automatic).toBe(false);
    expect(reloaded.callsWithin(24 * HOUR_MS, MONDAY + 52 * HOUR_MS)).toBe(1);
    expect(reloaded.view(MONDAY + 52 * HOUR_MS).lastCommand).toEqual({ action: 'start', atMs: MONDAY + 50 * HOUR_MS });
    // Another lawn's ledger sees none of them.
    const other = new RunLedger({ store: new MowerRunStore(temp.db), lawn: 'front', station: 'garden', timeZone: 'UTC' });
    await other.load(MONDAY + 52 * HOUR_MS);
    expect(other.runs).toEqual([]);
    expect(other.automatic).toBeUndefined();
  });

  it("the mower control module offers a lawn's runs to the plan, read only, with the control off", async () => {
    const store = new MowerRunStore(temp.db);
    await ledgerWithRuns(store);
    const settings = { tickSeconds: 60, homeAssistantToken: '' };
    // No station has a mower.control block: no unit, but the runs of an earlier season still count.
    const offer = mowerControlModule.provides!([], { settings, log: silentLogger } as never, { store } as never);
    expect(Object.keys(offer.runs!)).toEqual(['figures']);
    expect(await offer.runs!.figures('back', MONDAY)).toEqual({ mownMinutesThisWeek: 60 + 25, completedRunMinutes: [50, 70, 60] });
    expect(await offer.runs!.figures('front', MONDAY)).toEqual({ mownMinutesThisWeek: 0, completedRunMinutes: [] });
    // Without a database (a pipeline in memory) there is nothing to offer.
    expect(mowerControlModule.provides!([], { settings, log: silentLogger } as never, { store: undefined } as never).runs).toBeUndefined();
  });
});
