/**
 * The week plan's rows behind their typed store: each lawn's last plan written as JSON and read back
 * (a save replaces the lawn's row), a damaged row read as none rather than failing the start.
 */
import { describe, expect, it } from 'vitest';
import { restorePlan } from '../../src/lawn/storedPlan.js';
import { Database } from '../../src/store/database.js';
import { LawnPlanStore } from '../../src/store/lawnPlanStore.js';
import { lawnPlanFixture } from '../helpers/lawnPlanFixture.js';
import { useTempDatabase } from '../helpers/tempDatabase.js';

const plan = lawnPlanFixture;

describe('the lawn plan store', () => {
  const temp = useTempDatabase();

  it("keeps each lawn's last plan; a damaged row is none", async () => {
    const store = new LawnPlanStore(temp.db);
    await store.savePlans(
      [
        { station: 'garden', plan: plan('back', 1_000) },
        { station: 'garden', plan: plan('front', 1_000) },
      ],
      5,
    );
    await store.savePlans([{ station: 'garden', plan: plan('back', 2_000) }], 6);
    await temp.db.run("INSERT INTO lawn_plans (lawn, station, plan, saved_at_ms) VALUES ('side', 'garden', '{not json', 7)");
    const plans = await new LawnPlanStore(temp.db).loadPlans();
    expect([...plans.keys()].sort()).toEqual(['back', 'front']);
    expect(restorePlan(plans.get('back'), 'back')).toEqual(plan('back', 2_000));
    // Checked for the lawn it is read for.
    expect(restorePlan(plans.get('back'), 'front')).toBeNull();
  });
  it("a save waits for the history's commit while one drives commits (no commit of its own), the newest per lawn wins", async () => {
    const commit = temp.db.sharedCommit;
    let wakes = 0;
    const release = commit.drive(() => wakes++);
    const store = new LawnPlanStore(temp.db);
    await store.savePlans([{ station: 'garden', plan: plan('back', 1_000) }], 5);
    await store.savePlans(
      [
        { station: 'garden', plan: plan('back', 2_000) },
        { station: 'garden', plan: plan('front', 2_000) },
      ],
      6,
    );
    expect(wakes).toBe(2);
    const other = await Database.open(temp.dbPath);
    try {
      const count = async () => (await other.get<{ n: number }>('SELECT COUNT(*) AS n FROM lawn_plans'))!.n;
      expect(await count()).toBe(0);
      expect(await commit.commit()).toBe(true);
      expect(await count()).toBe(2);
    } finally {
      await other.close();
    }
    release();
    const plans = await new LawnPlanStore(temp.db).loadPlans();
    expect(restorePlan(plans.get('back'), 'back')).toEqual(plan('back', 2_000));
  });

  it('a read commits what is staged first, and without a driver a save is written at once', async () => {
    const release = temp.db.sharedCommit.drive(() => undefined);
    const store = new LawnPlanStore(temp.db);
    await store.savePlans([{ station: 'garden', plan: plan('back', 3_000) }], 7);
    expect(restorePlan((await store.loadPlans()).get('back'), 'back')).toEqual(plan('back', 3_000));
    release();
    await store.savePlans([{ station: 'garden', plan: plan('front', 4_000) }], 8);
    const row = await temp.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM lawn_plans WHERE lawn = 'front'");
    expect(row!.n).toBe(1);
  });
});
