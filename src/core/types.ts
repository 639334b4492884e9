/**
 * Public types of the calculation core. The HTTP layer and the MQTT daemon
 * depend only on these and on `calculate()`; everything else in `src/core`
 * is an implementation detail.
 */
import type { FieldName } from './fields.js';
import type {
  CHECK_NAMES,
  DATA_QUALITIES,
  HEMISPHERES,
  MOWER_CLASSES,
  SEASONS,
  SOIL_TYPES,
  STATE_DATA_QUALITIES,
  STATUSES,
  TURF_TYPES,
} from './vocabulary.js';

export type Season = (typeof SEASONS)[number];
export type Hemisphere = (typeof HEMISPHERES)[number];
export type SoilType = (typeof SOIL_TYPES)[number];
export type MowerClass = (typeof MOWER_CLASSES)[number];
export type TurfType = (typeof TURF_TYPES)[number];
export type CheckName = (typeof CHECK_NAMES)[number];
export type Status = (typeof STATUSES)[number];
export type DataQuality = (typeof DATA_QUALITIES)[number];
/** A station state's `data_quality`: the calculation's level or `modelled`. */
export type StateDataQuality = (typeof STATE_DATA_QUALITIES)[number];
export type DataConfidence = 'high' | 'medium' | 'low';

export interface LawnProfile {
  soilType: SoilType;
  mowerClass: MowerClass;
  /** Model 1.1 extension; cool_season when not given. */
  turfType: TurfType;
  /** Model 1.1 extension (D9): volumetric water content at field capacity, %; the soil type's default when absent. */
  fieldCapacityPercent?: number;
}

/** Everything the core needs besides the readings. The core never reads a clock or config itself. */
export interface CalculationContext {
  /** The instant of the calculation, epoch milliseconds. */
  nowMs: number;
  /** IANA time zone used for the season's month and for `calculated_at`. */
  timeZone: string;
  hemisphere: Hemisphere;
  /** Forces the season (season_source "manual"); the caller decides whether forcing is allowed. */
  forcedSeason?: Season;
  lawn?: Partial<LawnProfile>;
  /**
   * Input fields the caller estimated rather than measured. Only `soil_moisture` is honoured (the lawn
   * memory's soil water bucket, src/core/soilEstimate.ts); the HTTP API never sets this.
   */
  estimatedFields?: readonly FieldName[];
}

/** Untrusted input: field -> value from JSON, form strings or MQTT. */
export type RawInput = Readonly<Record<string, unknown>>;

export interface SkippedPart {
  reason: string;
  missing: FieldName[];
}

export interface CheckResult {
  executed: boolean;
  /** Present only when executed is false. */
  skipped_reason?: string;
  status: Status | null;
  score: number | null;
  data_confidence: DataConfidence | null;
  reasons: string[];
  skipped_parts: Record<string, SkippedPart>;
  meta: Record<string, unknown>;
}

export interface SkippedCheckEntry {
  check: CheckName;
  reason: string;
  missing: FieldName[];
}

export interface PartialCheckEntry {
  check: CheckName;
  parts: string[];
}

export interface Protocol {
  skipped_checks: SkippedCheckEntry[];
  partial_checks: PartialCheckEntry[];
  calculation_error?: string;
}

export interface RainSourceInfo {
  windows_used: string[];
  cumulative_source: string;
  not_provided: string[];
  note: string;
}

/** The `mfi` object of a successful calculation, exactly as the interface spec names it. */
export interface CalculationResult {
  mfi_version: string;
  season: Season;
  season_source: 'auto' | 'manual';
  index_score: number;
  main_status: Status;
  data_quality: DataQuality;
  score_basis: { checks_used: number; checks_total: number; limiting_check: CheckName | null };
  available_fields: FieldName[];
  missing_fields: FieldName[];
  checks: Partial<Record<CheckName, CheckResult>>;
  protocol: Protocol;
  rain_source_info?: RainSourceInfo;
  calculated_at: string;
}

/** Returned instead of a result when a required field is missing or invalid (HTTP 400). */
export interface InputError {
  code: 'MISSING_REQUIRED_FIELDS';
  /** Every missing or invalid required field, in the order of docs/api.md's examples. */
  missing: FieldName[];
  /** English, e.g. "Missing or invalid required field(s): temperature." */
  message: string;
}

export type CalculationOutcome = { ok: true; result: CalculationResult } | { ok: false; error: InputError };
