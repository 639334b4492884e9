/**
 * The week plans as HTTP reads them: which lawns a station serves and each one's plan from the
 * state's typed `plan` field (the planner unit's, src/lawn/planUnit.ts), found by lawn id for the iCalendar feed
 * (./planRoute.ts), and shaped for the status page's week strip (the `plan` of /v1/stations/{id}).
 */
import type { LawnPlan, PlanText } from '../core/plan/types.js';
import type { StationStatePayload } from '../station/statePayload.js';

/** A lawn as HTTP names it. */
export interface LawnListing {
  id: string;
  name: string;
}

/** A station as the plan reads it (./stationsView.ts StationListing). */
export interface PlannedStation {
  id: string;
  name: string;
  /** Omitted: one lawn with the station's id and name. */
  lawns?: readonly LawnListing[];
}

/** What the plan reads of the stations (./stationsView.ts StationsView has it). */
export interface PlanSource {
  stations(): readonly PlannedStation[];
  state(stationId: string): StationStatePayload | undefined;
}

export interface FoundLawn {
  stationId: string;
  lawn: LawnListing;
  /** null: a known lawn without a plan yet (the planner has not run, or is off). */
  plan: LawnPlan | null;
}

/** The path of a lawn's feed, as the page links it. */
export const planCalendarPath = (lawnId: string): string => `/v1/lawns/${encodeURIComponent(lawnId)}/plan.ics`;

/**
 * The station's lawns: the configured ones, or its one default lawn (id and name of the station);
 * a lawn the plan names beyond those (a newer planner's) is listed by its id.
 */
export function lawnsOf(view: PlanSource, station: PlannedStation): LawnListing[] {
  const lawns: LawnListing[] = station.lawns ? [...station.lawns] : [{ id: station.id, name: station.name }];
  for (const id of Object.keys(view.state(station.id)?.plan?.lawns ?? {}))
    if (!lawns.some((lawn) => lawn.id === id)) lawns.push({ id, name: id });
  return lawns;
}

export function findLawn(view: PlanSource, lawnId: string): FoundLawn | undefined {
  for (const station of view.stations()) {
    const lawn = lawnsOf(view, station).find((candidate) => candidate.id === lawnId);
    if (lawn) return { stationId: station.id, lawn, plan: view.state(station.id)?.plan?.lawns[lawnId] ?? null };
  }
  return undefined;
}

const iso = (ms: number): string => new Date(ms).toISOString();

export interface PlanSlotSummary {
  id: string;
  start: string;
  end: string;
  band: 'OK' | 'WARNING';
  relaxed: boolean;
  reason: PlanText;
}

export interface LawnPlanSummary {
  id: string;
  name: string;
  /** The lawn's iCalendar feed. */
  calendar_path: string;
  computed_at: string;
  horizon_end: string;
  status: LawnPlan['status'];
  status_reason: PlanText;
  runtime_needed_minutes: number;
  planned_minutes: number;
  minutes_per_full_cut: number;
  capacity_source: LawnPlan['need']['capacitySource'];
  height_mm: number;
  target_height_mm: number;
  debt_mm: number;
  debt_minutes: number;
  debt_over_threshold: boolean;
  slots: PlanSlotSummary[];
}

function lawnPlanSummary(lawn: LawnListing, plan: LawnPlan): LawnPlanSummary {
  return {
    id: lawn.id,
    name: lawn.name,
    calendar_path: planCalendarPath(lawn.id),
    computed_at: iso(plan.computedAtMs),
    horizon_end: iso(plan.horizonEndMs),
    status: plan.status,
    status_reason: { en: plan.statusReason.en, de: plan.statusReason.de },
    runtime_needed_minutes: plan.need.runtimeNeededMinutesThisWeek,
    planned_minutes: plan.plannedMinutesThisWeek,
    minutes_per_full_cut: plan.need.minutesPerFullCut,
    capacity_source: plan.need.capacitySource,
    height_mm: plan.need.heightMm,
    target_height_mm: plan.need.targetHeightMm,
    debt_mm: plan.debt.mm,
    debt_minutes: plan.debt.runtimeMinutes,
    debt_over_threshold: plan.debt.overThreshold,
    slots: plan.slots.map((slot) => ({
      id: slot.id,
      start: iso(slot.startMs),
      end: iso(slot.endMs),
      band: slot.band,
      relaxed: slot.relaxed,
      reason: { en: slot.reason.en, de: slot.reason.de },
    })),
  };
}

/** The plan notifications (`plan.notifyService`) as the page and `mowability status` show them. */
export interface PlanNotifySummary {
  service: string;
  sent: number;
  failed: number;
  /** The last failure's cause; '' on the open page (it may name the Home Assistant address); null: none, or the last call went through. */
  last_error: string | null;
  last_error_at: string | null;
}

/** The state's `plan.notify`; null without notifications. */
export function planNotifySummary(state: StationStatePayload | undefined, open: boolean): PlanNotifySummary | null {
  const notify = state?.plan?.notify;
  if (notify === undefined) return null;
  const { service, sent, failed, last_error, last_error_at } = notify;
  return { service, sent, failed, last_error: last_error === null ? null : open ? '' : last_error, last_error_at };
}

/** The station's planned lawns for the page; null without a plan field (no planner), so the page shows no strip. */
export function planSummary(
  view: PlanSource,
  station: PlannedStation,
  open = false,
): { lawns: LawnPlanSummary[]; notify: PlanNotifySummary | null } | null {
  const state = view.state(station.id);
  const planned = state?.plan?.lawns;
  if (planned === undefined) return null;
  return {
    notify: planNotifySummary(state, open),
    lawns: lawnsOf(view, station).flatMap((lawn) => {
      const plan = planned[lawn.id];
      return plan ? [lawnPlanSummary(lawn, plan)] : [];
    }),
  };
}

const SUMMARY_KEYS: ReadonlyArray<keyof LawnPlanSummary> = [
  'id',
  'name',
  'calendar_path',
  'computed_at',
  'horizon_end',
  'status',
  'status_reason',
  'runtime_needed_minutes',
  'planned_minutes',
  'minutes_per_full_cut',
  'capacity_source',
  'height_mm',
  'target_height_mm',
  'debt_mm',
  'debt_minutes',
  'debt_over_threshold',
  'slots',
];
const text = { type: 'object', required: ['en', 'de'], properties: { en: { type: 'string' }, de: { type: 'string' } } } as const;
const numbers = (names: readonly string[]) => Object.fromEntries(names.map((name) => [name, { type: 'number' }]));

/** `plan.notify` of /v1/stations/{id} and `plan_notify` of /v1/stations. */
export const planNotifySchema = {
  type: ['object', 'null'],
  description:
    "The plan notifications (plan.notifyService): calls that went through and that failed, the last failure's cause ('' on the open page) and time; null without notifications.",
  required: ['service', 'sent', 'failed', 'last_error', 'last_error_at'],
  properties: {
    service: { type: 'string' },
    sent: { type: 'integer' },
    failed: { type: 'integer' },
    last_error: { type: ['string', 'null'] },
    last_error_at: { type: ['string', 'null'] },
  },
} as const;

/** The `plan` member of /v1/stations/{id} (docs/api.md, "Status page endpoints"). */
export const planSummarySchema = {
  type: ['object', 'null'],
  description: "The week plan of each of the station's lawns the planner has planned; null when the station has no planner.",
  required: ['lawns', 'notify'],
  properties: {
    notify: planNotifySchema,
    lawns: {
      type: 'array',
      items: {
        type: 'object',
        required: SUMMARY_KEYS,
        properties: {
          id: { type: 'string' },
          name: { type: 'string' },
          calendar_path: { type: 'string', description: "The lawn's iCalendar feed (GET /v1/lawns/{lawnId}/plan.ics)." },
          computed_at: { type: 'string' },
          horizon_end: { type: 'string', description: 'Nothing is planned past the end of the forecast hours.' },
          status: { type: 'string', enum: ['on_track', 'behind', 'cannot_keep_up'] },
          status_reason: text,
          ...numbers([
            'runtime_needed_minutes',
            'planned_minutes',
            'minutes_per_full_cut',
            'height_mm',
            'target_height_mm',
            'debt_mm',
            'debt_minutes',
          ]),
          capacity_source: { type: 'string', enum: ['area', 'ledger', 'default'] },
          debt_over_threshold: { type: 'boolean' },
          slots: {
            type: 'array',
            items: {
              type: 'object',
              required: ['id', 'start', 'end', 'band', 'relaxed', 'reason'],
              properties: {
                id: { type: 'string' },
                start: { type: 'string' },
                end: { type: 'string' },
                band: { type: 'string', enum: ['OK', 'WARNING'] },
                relaxed: { type: 'boolean' },
                reason: text,
              },
            },
          },
        },
      },
    },
  },
} as const;
