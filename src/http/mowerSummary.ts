/**
 * The status page's view of the mower control (the state's `mower_control`, typed by the mower control
 * unit's StationStateFields, src/mower/mowerControlUnit.ts): automatic on or off, the dry run, the last
 * decision's reason in both languages, an alert, the API budget left, and today's and the last runs.
 * Pure shaping of what the state already holds; its JSON schema is beside it for /openapi.json.
 *
 * `open` (the open page, read by anyone who reaches the port): a connection problem is said without its
 * detail, which may name the Home Assistant address.
 */
import type { StationStatePayload } from '../station/statePayload.js';

/** A run as the state carries it (the mower control's RunView plus `today`), typed by the unit's StationStateFields. */
export type MowerRunSummary = NonNullable<StationStatePayload['mower_control']>['runs'][number];

export interface MowerSummary {
  automatic: boolean;
  dry_run: boolean;
  activity: string;
  decision: { code: string; reason: string; reason_de: string; at: string } | null;
  alert: { code: string; message: string; at: string } | null;
  budget_left: { per_day: number | null; per_week: number | null; per_month: number | null };
  /** The connection's problem: its English detail, '' on the open page; null when fine. */
  connection_problem: string | null;
  runs: MowerRunSummary[];
}

export function mowerSummary(status: StationStatePayload['mower_control'] | undefined, open: boolean): MowerSummary | null {
  if (status === undefined) return null;
  const { decision, alert } = status;
  return {
    automatic: status.automatic,
    dry_run: status.dry_run,
    activity: status.activity,
    decision: decision && { code: decision.code, reason: decision.reason, reason_de: decision.reason_de, at: decision.at },
    alert: alert && { code: alert.code, message: alert.message, at: alert.at },
    budget_left: { ...status.budget_left },
    connection_problem: status.connection_problem === null ? null : open ? '' : status.connection_problem,
    // A state from before runs were part of it (none on the MQTT side yet) shows none.
    runs: (status.runs ?? []).map((run) => ({ ...run })),
  };
}

/** One lawn's mower on the page: the lawn, its name, its control's summary. */
export interface LawnMowerSummary {
  lawn: string;
  name: string;
  mower: MowerSummary;
}

/**
 * Every controlled lawn's mower, the station's first lawn first (the state's `mower_control`, then each
 * further lawn's `mower_control_lawns[<lawn>]`); `lawns`: the station's lawns, for their names.
 */
export function lawnMowerSummaries(
  state: Pick<StationStatePayload, 'mower_control' | 'mower_control_lawns'> | undefined,
  lawns: ReadonlyArray<{ id: string; name: string }>,
  open: boolean,
): LawnMowerSummary[] {
  const first = lawns[0];
  const primary = mowerSummary(state?.mower_control, open);
  const further = Object.entries(state?.mower_control_lawns ?? {}).flatMap(([lawn, status]) => {
    const mower = mowerSummary(status, open);
    const name = lawns.find((candidate) => candidate.id === lawn)?.name ?? status.name ?? lawn;
    return mower ? [{ lawn, name, mower }] : [];
  });
  return [...(primary && first ? [{ lawn: first.id, name: first.name, mower: primary }] : []), ...further];
}

const nullableString = { type: ['string', 'null'] } as const;
const nullableInteger = { type: ['integer', 'null'] } as const;

/** The `mower` member of GET /v1/stations/{id}. */
export const mowerSummarySchema = {
  type: ['object', 'null'],
  required: ['automatic', 'dry_run', 'activity', 'decision', 'alert', 'budget_left', 'connection_problem', 'runs'],
  description:
    "The station's mower control (docs/mower.md), or null without an enabled one: the switch, the dry run, the mower's activity, the last decision with its reason in English and German, an alert, the API calls left, today's and the last runs.",
  properties: {
    automatic: { type: 'boolean', description: 'The "Automatic mowing" switch.' },
    dry_run: { type: 'boolean', description: 'True: the control says what it would do and sends nothing.' },
    activity: { type: 'string', description: 'mowing, docked, paused, returning, error or unknown.' },
    decision: {
      type: ['object', 'null'],
      required: ['code', 'reason', 'reason_de', 'at'],
      properties: { code: { type: 'string' }, reason: { type: 'string' }, reason_de: { type: 'string' }, at: { type: 'string' } },
    },
    alert: {
      type: ['object', 'null'],
      required: ['code', 'message', 'at'],
      properties: {
        code: { type: 'string', description: 'command_unconfirmed, send_failed, budget_spent or mower_error.' },
        message: { type: 'string', description: 'English.' },
        at: { type: 'string' },
      },
    },
    budget_left: {
      type: 'object',
      required: ['per_day', 'per_week', 'per_month'],
      properties: { per_day: nullableInteger, per_week: nullableInteger, per_month: nullableInteger },
      description: 'API calls left in the last 24 hours, 7 and 30 days; null: no limit.',
    },
    connection_problem: { ...nullableString, description: "The connection's problem in English; empty on the open page; null when fine." },
    runs: {
      type: 'array',
      description: "Today's runs and the last ones, newest first.",
      items: {
        type: 'object',
        required: ['started_by', 'started_at', 'ended_at', 'mowing_minutes', 'outcome', 'reason', 'reason_de', 'today'],
        properties: {
          started_by: { type: 'string', description: 'daemon, user or schedule.' },
          started_at: { type: 'string' },
          ended_at: nullableString,
          mowing_minutes: { type: 'integer' },
          outcome: {
            ...nullableString,
            description: 'completed, docked_for_rain, docked_by_daemon, docked_by_user, error or interrupted; null while it runs.',
          },
          reason: nullableString,
          reason_de: nullableString,
          today: { type: 'boolean', description: "Started on the daemon's local today." },
        },
      },
    },
  },
} as const;

/** The `lawn_mowers` member of GET /v1/stations/{id}. */
export const lawnMowerSummariesSchema = {
  type: 'array',
  description:
    "Every lawn's mower control, the station's first lawn first (its `mower` as above), each further lawn with a mower.control of its own after it.",
  items: {
    type: 'object',
    required: ['lawn', 'name', 'mower'],
    properties: {
      lawn: { type: 'string', description: "The lawn's id." },
      name: { type: 'string', description: "The lawn's name." },
      mower: { ...mowerSummarySchema, type: 'object' },
    },
  },
} as const;
