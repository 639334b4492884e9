/**
 * The week plan's rows behind their typed store: each lawn's last plan written as JSON and read back
 * (a save replaces the lawn's row), a damaged row read as none rather than failing the start.
 */
import { describe, expect, it } from 'vitest';
import type { LawnPlan } from '../../src/core/plan/types.js';
import { restorePlan } from '../../src/lawn/storedPlan.js';
import { LawnPlanStore } from '../../src/store/lawnPlanStore.js';
import { useTempDatabase } from '../helpers/tempDatabase.js';

const reason = { en: 'dry and mild', de: 'trocken und mild' };
const plan = (lawnId: string, computedAtMs: number) =>
  ({
    lawnId,
    computedAtMs,
    horizonEndMs: computedAtMs + 86_400_000,
    slots: [
      {
        id: 's1',
        startMs: computedAtMs + 3_600_000,
        endMs: computedAtMs + 7_200_000,
        sequence: 1,
        changedAtMs: computedAtMs,
        band: 'OK',
        relaxed: false,
        reason,
      },
    ],
    need: {},
    debt: {},
    statusReason: reason,
  }) as unknown as LawnPlan;

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
});
