/**
 * After a restart, before the station's first forecast: the plan kept from before the restart stands in
 * the state, so the mower control (which reads the state's `plan`) keeps to its slots instead of starting
 * as if there were no planner. A lawn never planned has no plan until the first forecast, as before.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { PlanUnit } from '../../src/lawn/planUnit.js';
import { LawnPlanStore } from '../../src/store/lawnPlanStore.js';
import { lawnPlanFixture } from '../helpers/lawnPlanFixture.js';
import { useTempDatabase } from '../helpers/tempDatabase.js';

const NOW = Date.parse('2026-06-17T08:00:00Z');
const HOUR = 3_600_000;
const storedPlan = (lawnId: string) => lawnPlanFixture(lawnId, NOW - HOUR, { startMs: NOW + 3 * HOUR, endMs: NOW + 5 * HOUR });

const lawn = (id: string, primary: boolean) => ({ id, name: id, primary });

function planUnit(store: LawnPlanStore): PlanUnit {
  return new PlanUnit({
    stations: [{ id: 'garden', lawns: [lawn('garden', true), lawn('back', false)] }],
    settings: {
      enabled: true,
      runMinutes: 120,
      minRunMinutes: 30,
      gapMinutes: 240,
      chargeMinutes: 60,
      notifyService: '',
      notifyLanguage: 'en',
    },
    store,
    logger: pino({ level: 'silent' }),
    now: () => NOW,
    baseTopic: 'mowability',
    timeZone: 'Europe/Berlin',
    // No forecast since the start: nothing to re-plan from.
    week: { fetchedAtMs: () => undefined, rate: () => undefined },
    growth: () => undefined,
    growthSettings: { cutHeightCm: 4, growthFactor: 1 },
    mowerRun: () => undefined,
    lawnProfile: () => undefined,
  });
}

describe('the plan after a restart, before the first forecast', () => {
  const temp = useTempDatabase();

  it('keeps the stored plan in the state (the mower control follows its slots); a lawn never planned has none', async () => {
    const store = new LawnPlanStore(temp.db);
    await store.savePlans([{ station: 'garden', plan: storedPlan('garden') }], NOW - HOUR);
    const unit = planUnit(new LawnPlanStore(temp.db));
    await unit.start();
    const fragment = unit.stateFragment('garden', NOW);
    expect(Object.keys(fragment!.plan.lawns)).toEqual(['garden']);
    expect(fragment!.plan.lawns.garden!.slots.map((slot) => slot.startMs)).toEqual([NOW + 3 * HOUR]);
    expect(fragment!.plan.next.garden).toEqual({
      start: new Date(NOW + 3 * HOUR).toISOString(),
      end: new Date(NOW + 5 * HOUR).toISOString(),
    });
    expect(unit.counters.planRuns).toBe(0);
    await unit.stop();
  });

  it('has no plan field without a stored plan and a forecast', async () => {
    const unit = planUnit(new LawnPlanStore(temp.db));
    await unit.start();
    expect(unit.stateFragment('garden', NOW)).toBeUndefined();
    await unit.stop();
  });
});
