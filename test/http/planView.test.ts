/** The lawns and plans as HTTP reads them: configured lawns or the station's one, found by id; the page's `plan` shape. */
import { describe, expect, it } from 'vitest';
import { samplePlan, samplePlanState } from '../../bench/lib/samplePlan.js';
import type { StationConfig } from '../../src/ingest/types.js';
import { findLawn, lawnsOf, planNotifySummary, planSummary } from '../../src/http/planView.js';
import { createStationsView } from '../../src/http/stationsView.js';
import type { ChartSeries } from '../../src/station/chartRecorder.js';
import type { StationStatePayload } from '../../src/station/statePayload.js';

const NOW_MS = Date.parse('2026-06-15T10:00:00Z');
const GARDEN = { id: 'garden', name: 'Garden', format: 'json', topic: 'garden/weather' } as StationConfig;
const TWO_LAWNS = { ...GARDEN, id: 'house', name: 'House', lawns: [{ id: 'front', name: 'Front' }, { id: 'back' }] } as StationConfig;
const NO_SERIES = { history: undefined, forEachMinute: () => undefined } as unknown as ChartSeries;

function viewOf(states: Record<string, Partial<StationStatePayload>>) {
  return createStationsView({
    stations: [GARDEN, TWO_LAWNS],
    freshnessMs: () => 60_000,
    stateOf: (id) => states[id] as StationStatePayload | undefined,
    series: NO_SERIES,
  });
}

describe('lawnsOf and findLawn', () => {
  it("a station without lawns has one, with the station's id and name; configured lawns are the station's lawns (a missing name: the id)", () => {
    const view = viewOf({});
    const [garden, house] = view.stations();
    expect(lawnsOf(view, garden!)).toEqual([{ id: 'garden', name: 'Garden' }]);
    expect(lawnsOf(view, house!)).toEqual([
      { id: 'front', name: 'Front' },
      { id: 'back', name: 'back' },
    ]);
    expect(findLawn(view, 'back')).toEqual({ stationId: 'house', lawn: { id: 'back', name: 'back' }, plan: null });
    // With lawns configured, the station's own id is no lawn of it.
    expect(findLawn(view, 'house')).toBeUndefined();
    expect(findLawn(view, 'nowhere')).toBeUndefined();
  });

  it("finds a lawn's plan in its station's state", () => {
    const plan = samplePlan('back', NOW_MS);
    const view = viewOf({ house: { plan: samplePlanState([plan], NOW_MS) } });
    expect(findLawn(view, 'back')?.plan).toBe(plan);
    expect(findLawn(view, 'front')?.plan).toBeNull();
  });
});

describe('planSummary', () => {
  it('is null without a plan field (no planner): the page shows no strip', () => {
    const view = viewOf({ garden: {} });
    expect(planSummary(view, view.stations()[0]!)).toBeNull();
  });

  it("gives each planned lawn's figures and slots in the page's ISO form, in the station's lawn order", () => {
    const back = samplePlan('back', NOW_MS);
    const front = samplePlan('front', NOW_MS, [{ day: 1, from: 9, to: 10 }]);
    const view = viewOf({ house: { plan: samplePlanState([back, front], NOW_MS) } });
    const summary = planSummary(view, view.stations()[1]!)!;
    expect(summary.lawns.map((lawn) => lawn.id)).toEqual(['front', 'back']);
    expect(summary.lawns[0]).toEqual({
      id: 'front',
      name: 'Front',
      calendar_path: '/v1/lawns/front/plan.ics',
      computed_at: '2026-06-15T10:00:00.000Z',
      horizon_end: '2026-06-22T00:00:00.000Z',
      status: 'behind',
      status_reason: front.statusReason,
      runtime_needed_minutes: 480,
      planned_minutes: 60,
      minutes_per_full_cut: 120,
      capacity_source: 'area',
      height_mm: 52,
      target_height_mm: 40,
      debt_mm: 12,
      debt_minutes: 90,
      debt_over_threshold: true,
      slots: [
        {
          id: front.slots[0]!.id,
          start: '2026-06-16T09:00:00.000Z',
          end: '2026-06-16T10:00:00.000Z',
          band: 'OK',
          relaxed: false,
          reason: front.slots[0]!.reason,
        },
      ],
    });
  });
});

describe('planNotifySummary', () => {
  const notify = {
    service: 'notify.phone',
    sent: 1,
    failed: 2,
    last_error: 'notify.phone via Home Assistant at http://ha.local:8123: refused',
    last_error_at: '2026-06-15T09:55:00.000Z',
  };
  const state = { plan: { ...samplePlanState([samplePlan('garden', NOW_MS)], NOW_MS), notify } } as unknown as StationStatePayload;

  it("gives the state's plan.notify to the page and the station list, its cause left out on the open page", () => {
    expect(planNotifySummary(state, false)).toEqual(notify);
    expect(planNotifySummary(state, true)).toEqual({ ...notify, last_error: '' });
    expect(planNotifySummary({ plan: samplePlanState([], NOW_MS) } as unknown as StationStatePayload, false)).toBeNull();
    const view = viewOf({ garden: state });
    expect(planSummary(view, view.stations()[0]!, true)?.notify).toEqual({ ...notify, last_error: '' });
  });
});
