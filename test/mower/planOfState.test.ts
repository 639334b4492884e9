import { describe, expect, it } from 'vitest';
import { planOfState } from '../../src/mower/planOfState.js';

const slot = (startMs: number, endMs: number) => ({ id: `s${startMs}`, startMs, endMs, band: 'OK', relaxed: false, sequence: 0 });
const lawnPlan = (slots: unknown[], runtimeNeededMinutesThisWeek: unknown = 180) => ({
  slots,
  need: { runtimeNeededMinutesThisWeek },
});

describe('the plan the mower control follows, from the station state', () => {
  it("reads the control's lawn, else the station's default lawn, else the first lawn", () => {
    const state = { plan: { lawns: { back: lawnPlan([slot(1, 2)], 60), garden: lawnPlan([slot(3, 4)]) } } };
    expect(planOfState(state, 'garden', 'garden', 'UTC')).toEqual({
      slots: [{ startMs: 3, endMs: 4 }],
      runtimeNeededMinutesThisWeek: 180,
      timeZone: 'UTC',
    });
    expect(planOfState(state, 'front', 'garden', 'UTC')?.slots).toEqual([{ startMs: 3, endMs: 4 }]);
    expect(planOfState(state, 'front', 'other', 'UTC')?.runtimeNeededMinutesThisWeek).toBe(60);
  });

  it('is no plan without the field, or with a malformed one; malformed slots are left out', () => {
    expect(planOfState(undefined, 'garden', 'garden', 'UTC')).toBeUndefined();
    expect(planOfState({ index_score: 80 }, 'garden', 'garden', 'UTC')).toBeUndefined();
    expect(planOfState({ plan: { lawns: {} } }, 'garden', 'garden', 'UTC')).toBeUndefined();
    expect(planOfState({ plan: { lawns: [] } }, 'garden', 'garden', 'UTC')).toBeUndefined();
    expect(planOfState({ plan: { lawns: { garden: lawnPlan([], 'lots') } } }, 'garden', 'garden', 'UTC')).toBeUndefined();
    expect(planOfState({ plan: { lawns: { garden: { slots: 'none', need: {} } } } }, 'garden', 'garden', 'UTC')).toBeUndefined();
    const plan = planOfState(
      { plan: { lawns: { garden: lawnPlan([slot(5, 4), null, { startMs: 'x', endMs: 9 }, slot(10, 20)]) } } },
      'garden',
      'garden',
      'UTC',
    );
    expect(plan?.slots).toEqual([{ startMs: 10, endMs: 20 }]);
  });
});
