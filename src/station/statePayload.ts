/**
 * The retained `<base>/<station>/state` payload. On success it is the HTTP
 * `mfi` object plus station, mowable, input, last_reading_at and history
 * notes; when required fields are missing it keeps the same top-level keys
 * with index_score/main_status null and an `error` object, so templates and
 * automations see a clear "not mowable, because ..." instead of silence.
 * The checks' reasons are plain text here (HTTP keeps the `<b>` emphasis of docs/api.md).
 */
import {
  plainReason,
  type CalculationInput,
  type CalculationOutcome,
  type CalculationResult,
  type FieldName,
  type StateDataQuality,
} from '../core/index.js';
import type { ExtensionInput } from '../core/extensionFields.js';
import type { Assembly } from '../history/stationHistory.js';
import { markModelledReasons } from './modelledReasons.js';
import { isFixedPlain } from './stateText.js';
import { mergedCopy } from '../util/mergedCopy.js';

/** The state key with a unit hold's reason for pages anyone may read, when the hold gives one (src/station/unit.ts MowableHold). */
export const PUBLIC_REASON_KEY = 'mowable_reason_public';
/** A modelled station's `data_quality`, one of the list Home Assistant's enum entity offers. */
const MODELLED_QUALITY: StateDataQuality = 'modelled';

export interface StatePayloadParts {
  stationId: string;
  stationName: string;
  outcome: CalculationOutcome;
  assembly: Assembly;
  mowable: boolean;
  /** The input as calculated: the assembly's plus extension fields (minutes_since_irrigation). */
  input?: CalculationInput & ExtensionInput;
  /** Why `mowable` is what it is, in one sentence. */
  mowableReason: string;
  /** The same in German (the language of the model's reasons); absent: the English sentence. */
  mowableReasonDe?: string;
  /** Top-level keys the station units add (src/station/unit.ts), e.g. `irrigation`, and the pipeline's own (`unit_errors`, the public reason). */
  fragments?: UnitStateFragment & PipelineStateFields;
}

/**
 * The state keys the station units add, each with its type: every unit module declares its own by module
 * augmentation, e.g. in src/units/snowCover.ts
 * `declare module '../station/statePayload.js' { interface StationStateFields { snow: SnowStatus } }`,
 * so the state, the page and `/v1/stations` read typed fields and nothing here knows a unit.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the unit modules' augmentations
export interface StationStateFields {}

/** What a unit's stateFragment() returns: some of the declared keys. */
export type UnitStateFragment = Partial<StationStateFields>;

/** A station unit's hook that threw (./isolatedUnit.ts), as the state's `unit_errors` names it. */
export interface UnitFailure {
  unit: string;
  hook: string;
  message: string;
}

/** The keys the pipeline adds beside the units' (src/station/recompute.ts). */
export interface PipelineStateFields {
  /** A unit hold's reason for pages anyone may read, when the hold gives one (PUBLIC_REASON_KEY). */
  mowable_reason_public?: string;
  mowable_reason_public_de?: string;
  /** The station units that failed and in which hook (UNIT_ERRORS_KEY). */
  unit_errors?: UnitFailure[];
}

/** The core's result members the state carries as they are (src/core/types.ts). */
type ResultFields = Partial<Omit<CalculationResult, 'index_score' | 'main_status' | 'data_quality'>>;

export interface StationStatePayload extends ResultFields, UnitStateFragment, PipelineStateFields {
  station: string;
  station_name: string;
  mowable: boolean;
  /** Why `mowable` is what it is: the index and its hysteresis, or a station unit's hold (quiet hours, rain expected). */
  mowable_reason: string;
  /** `mowable_reason` in German, for German pages and dashboards. */
  mowable_reason_de: string;
  input: CalculationInput & ExtensionInput;
  last_reading_at: string | null;
  /** Fields we hold data for but did not supply (stale value, history not covering the window), with the reason. */
  withheld_fields: Partial<Record<FieldName, string>>;
  /** Fields computed by the daemon rather than reported by the station. */
  derived_fields: FieldName[];
  /** Share of each history window covered by readings (0..1). */
  history_coverage: Partial<Record<FieldName, number>>;
  index_score?: number | null;
  main_status?: string | null;
  error?: { code: string; message: string; missing: FieldName[] };
  /** The core's data quality; `modelled` for a station whose inputs come from a weather model. */
  data_quality?: StateDataQuality;
}

type Members = Record<string, unknown>;
/** The payload as members by name, for the loops over every key (the units' fragments, the markup). */
const members = (payload: StationStatePayload): Members => payload as unknown as Members;

/** A copy of the checks a caller may change (each check and its reasons copied; src/station/modelledReasons.ts edits them). */
function copiedChecks(checks: unknown): unknown {
  if (typeof checks !== 'object' || checks === null) return checks;
  const copy: Record<string, unknown> = {};
  for (const [name, check] of Object.entries(checks)) copy[name] = copiedCheck(check);
  return copy;
}

function copiedCheck(check: unknown): unknown {
  if (typeof check !== 'object' || check === null) return check;
  const { reasons } = check as { reasons?: unknown };
  return { ...check, reasons: Array.isArray(reasons) ? [...(reasons as unknown[])] : reasons };
}

export function buildStatePayload(parts: StatePayloadParts): StationStatePayload {
  const { assembly, outcome } = parts;
  const common = {
    station: parts.stationId,
    station_name: parts.stationName,
    mowable: parts.mowable,
    mowable_reason: parts.mowableReason,
    mowable_reason_de: parts.mowableReasonDe ?? parts.mowableReason,
    input: parts.input ?? assembly.input,
    last_reading_at: assembly.lastReadingAtMs === null ? null : new Date(assembly.lastReadingAtMs).toISOString(),
    withheld_fields: assembly.withheld,
    derived_fields: assembly.derived,
    history_coverage: assembly.coverage,
  };
  const payload: StationStatePayload = outcome.ok
    ? mergedCopy<StationStatePayload>(outcome.result, common)
    : {
        index_score: null,
        main_status: null,
        ...common,
        error: { code: outcome.error.code, message: outcome.error.message, missing: outcome.error.missing },
      };
  // A unit adds keys; it never replaces one the result or the pipeline already set.
  for (const [key, value] of Object.entries(parts.fragments ?? {})) if (!Object.hasOwn(payload, key)) members(payload)[key] = value;
  // A modelled station's inputs come from a weather model, not sensors (docs/model.md, "Modelled stations").
  if (payload.origin === 'modelled' && typeof payload.data_quality === 'string') payload.data_quality = MODELLED_QUALITY;
  if (Array.isArray(payload.estimated_fields)) {
    payload.checks = copiedChecks(payload.checks) as StationStatePayload['checks'];
    markModelledReasons(payload.checks, payload.estimated_fields);
  }
  // Every text, a hold's mowable_reason and the units' fragments included, without the <b> markup of the HTTP answer.
  return membersWithoutMarkup(payload);
}

/** withoutMarkup() of the payload's members; a unit's fragment serialised once without any `<` (./stateText.ts) is taken as it is. */
function membersWithoutMarkup(payload: StationStatePayload): StationStatePayload {
  let copy: StationStatePayload | undefined;
  for (const key of Object.keys(payload)) {
    const child = members(payload)[key];
    if (isFixedPlain(child)) continue;
    const plain = withoutMarkup(child);
    if (plain !== child) members((copy ??= { ...payload }))[key] = plain;
  }
  return copy ?? payload;
}

/**
 * Strings with `<b>` markup as plain text, everywhere in the payload (other strings and values
 * unchanged). Copy on write: an object or array without markup below it is returned as it is, so a
 * state shares the parts that need no change (nothing changes a state once built).
 */
function withoutMarkup<T>(value: T): T {
  if (typeof value === 'string') return (value.includes('<') ? plainReason(value) : value) as T;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const child: unknown = value[index];
      const plain = withoutMarkup(child);
      if (plain !== child) (copy ??= value.slice())[index] = plain;
    }
    return (copy ?? value) as T;
  }
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const child = (value as Record<string, unknown>)[key];
    const plain = withoutMarkup(child);
    if (plain !== child) (copy ??= { ...(value as Record<string, unknown>) })[key] = plain;
  }
  return (copy ?? value) as T;
}
