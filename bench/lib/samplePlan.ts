/**
 * A lawn's week plan as the planner unit puts it into the station state (src/core/plan/types.ts), for
 * the feed's and the page's tests and the README's screenshot (test/browser/readmeScreenshot.test.ts,
 * `npm run screenshot:plan`): a week with wet days, four slots (one taken by the debt relaxation),
 * behind its need.
 */
import type { LawnPlan, PlanSlot } from '../../src/core/plan/types.js';
import type { StationPlanState } from '../../src/lawn/planUnit.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export interface SampleSlot {
  /** Days after `nowMs`'s UTC midnight, and the start/end hours (UTC). */
  day: number;
  from: number;
  to: number;
  band?: PlanSlot['band'];
  relaxed?: boolean;
  sequence?: number;
}

/** Monday to Sunday in the sample: slots on Monday, Wednesday, Friday (relaxed) and Saturday. */
export const SAMPLE_SLOTS: readonly SampleSlot[] = [
  { day: 0, from: 12, to: 14 },
  { day: 2, from: 8, to: 10.5 },
  { day: 4, from: 13, to: 14.5, band: 'WARNING', relaxed: true },
  { day: 5, from: 7.5, to: 9 },
];

function slotOf(lawnId: string, midnightMs: number, slot: SampleSlot, computedAtMs: number): PlanSlot {
  const startMs = midnightMs + slot.day * DAY_MS + slot.from * HOUR_MS;
  const relaxed = slot.relaxed ?? false;
  return {
    id: `${lawnId}-${new Date(startMs).toISOString().slice(0, 10)}-${slot.day}`,
    startMs,
    endMs: midnightMs + slot.day * DAY_MS + slot.to * HOUR_MS,
    band: slot.band ?? 'OK',
    relaxed,
    sequence: slot.sequence ?? 0,
    changedAtMs: computedAtMs,
    reason: relaxed
      ? {
          en: 'Relaxed rule: a WARNING slot with dry blades rather than a fourth day without cutting.',
          de: 'Gelockerte Regel: ein WARNUNG-Fenster mit trockenen Halmen statt eines vierten Tages ohne Schnitt.',
        }
      : { en: 'The driest hours of the day, blades dry.', de: 'Die trockensten Stunden des Tages, Halme trocken.' },
  };
}

export function samplePlan(lawnId: string, nowMs: number, slots: readonly SampleSlot[] = SAMPLE_SLOTS): LawnPlan {
  const midnightMs = Math.floor(nowMs / DAY_MS) * DAY_MS;
  const planned = slots.map((slot) => slotOf(lawnId, midnightMs, slot, nowMs));
  const plannedMinutes = planned.reduce((sum, slot) => sum + (slot.endMs - slot.startMs) / 60_000, 0);
  return {
    lawnId,
    computedAtMs: nowMs,
    horizonEndMs: midnightMs + 7 * DAY_MS,
    slots: planned,
    need: {
      growthMmPerDay: 4,
      heightMm: 52,
      targetHeightMm: 40,
      cutDueAtMs: nowMs + 6 * HOUR_MS,
      minutesPerFullCut: 120,
      capacitySource: 'area',
      runtimeNeededMinutesThisWeek: 480,
    },
    debt: { mm: 12, runtimeMinutes: 90, overThreshold: true },
    plannedMinutesThisWeek: plannedMinutes,
    status: 'behind',
    statusReason: {
      en: `${480 - plannedMinutes} min short of the week's need: rain on Tuesday and Thursday.`,
      de: `${480 - plannedMinutes} min weniger als der Bedarf der Woche: Regen am Dienstag und Donnerstag.`,
    },
    changes: [],
  };
}

/** The state's `plan` (src/lawn/planUnit.ts) holding `plans`, each lawn's next slot not yet ended at `nowMs` as the planner gives it. */
export function samplePlanState(plans: readonly LawnPlan[], nowMs: number): StationPlanState {
  const lawns: Record<string, LawnPlan> = {};
  const next: StationPlanState['next'] = {};
  for (const plan of plans) {
    lawns[plan.lawnId] = plan;
    const slot = plan.slots.find((candidate) => candidate.endMs > nowMs);
    next[plan.lawnId] = slot ? { start: new Date(slot.startMs).toISOString(), end: new Date(slot.endMs).toISOString() } : null;
  }
  return { lawns, next };
}
