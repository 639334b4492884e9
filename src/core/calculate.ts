import { CHECK_REGISTRY } from './checks/registry.js';
import type { CheckContext, CheckDefinition, CheckEvaluation } from './checks/types.js';
import { FAILED_CHECK_CAP, combine, dataQualityFor } from './combine.js';
import type { ScoredCheck } from './combine.js';
import { NO_WETNESS_EVIDENCE_CAP, NO_WETNESS_EVIDENCE_REASON, lacksWetnessEvidenceIn } from './evidence.js';
import { FIELD_SPECS, REQUIRED_FIELDS, type FieldName } from './fields.js';
import { fieldMask, parseDenseInput, parseExtensions, type FieldMask } from './parse.js';
import { dryingPotential } from './physics.js';
import { effectiveRainWindows, rainSourceInfoOf } from './rainWindows.js';
import { formatLocalDateTime, isSeason, localDateTime, seasonForMonth } from './season.js';
import { isValidFieldCapacity } from './soil.js';
import { soilEstimateFor, splitSoilEstimate } from './soilEstimate.js';
import { statusForScore, toScore } from './status.js';
import { OVERGROWTH_REASON, overgrowthRelief } from './lawnWetness.js';
import type { ExtensionInput } from './extensionFields.js';
import type { Combination } from './combine.js';
import type {
  CalculationContext,
  CalculationOutcome,
  CalculationResult,
  CheckName,
  CheckResult,
  DataQuality,
  Hemisphere,
  LawnProfile,
  PartialCheckEntry,
  Season,
  Protocol,
  RainSourceInfo,
  RawInput,
  SkippedCheckEntry,
} from './types.js';
import { MFI_VERSION } from './version.js';
import { CHECK_NAMES, MOWER_CLASSES, SOIL_TYPES, TURF_TYPES } from './vocabulary.js';

export const DEFAULT_LAWN: LawnProfile = { soilType: 'loam', mowerClass: 'walk', turfType: 'cool_season' };
export const MINIMAL_DATA_REASON =
  'Eingeschränkte Datenbasis – nur Lufttemperatur und Niederschlagsrate vorhanden; Boden, Wind und Taubildung nicht bewertet.';
const INTERNAL_ERROR_REASON = `Internal calculation error; the check was left out of the index, which is therefore capped at ${FAILED_CHECK_CAP} (WARNING at best).`;

/** `value` when it is one of `known`, else `fallback`. */
function oneOf<T extends string>(known: readonly T[], value: unknown, fallback: T): T {
  return (known as readonly unknown[]).includes(value) ? (value as T) : fallback;
}

function resolveLawn(lawn: unknown): LawnProfile {
  // A literal, not a spread copy of DEFAULT_LAWN: slower to build and to read in V8.
  if (lawn === undefined) return { soilType: DEFAULT_LAWN.soilType, mowerClass: DEFAULT_LAWN.mowerClass, turfType: DEFAULT_LAWN.turfType };
  const candidate = (typeof lawn === 'object' && lawn !== null ? lawn : {}) as Record<string, unknown>;
  const soilType = oneOf(SOIL_TYPES, candidate.soilType, DEFAULT_LAWN.soilType);
  const mowerClass = oneOf(MOWER_CLASSES, candidate.mowerClass, DEFAULT_LAWN.mowerClass);
  const turfType = oneOf(TURF_TYPES, candidate.turfType, DEFAULT_LAWN.turfType);
  // An out-of-range field capacity is ignored (the soil type's default applies), like any invalid lawn value.
  const fieldCapacity = candidate.fieldCapacityPercent;
  return isValidFieldCapacity(fieldCapacity)
    ? { soilType, mowerClass, turfType, fieldCapacityPercent: fieldCapacity }
    : { soilType, mowerClass, turfType };
}

/** The required fields as a mask, and each built-in check's (an injected registry's are computed per call). */
const REQUIRED_MASK = fieldMask(REQUIRED_FIELDS);
const BUILT_IN_REQUIRED_MASKS: readonly FieldMask[] = CHECK_REGISTRY.map((definition) => fieldMask(definition.requiredFields));

/** True when a field of `required` has no valid value (masks: one test instead of a lookup per name). */
function anyMissing(required: FieldMask, valid: FieldMask): boolean {
  return (required & ~valid) !== 0;
}

/** `Object.keys(object).length > 0` without building the list (mostly empty here). */
function hasKeys(object: object): boolean {
  for (const key in object) if (Object.hasOwn(object, key)) return true;
  return false;
}

interface ResolvedContext {
  nowMs: number;
  timeZone: string;
  hemisphere: Hemisphere;
  forced: Season | undefined;
  lawn: LawnProfile;
}

/** Reads the context defensively: a malformed context falls back to defaults instead of throwing. */
function resolveContext(context: unknown): ResolvedContext {
  try {
    const ctx = (typeof context === 'object' && context !== null ? context : {}) as Partial<CalculationContext>;
    return {
      nowMs: typeof ctx.nowMs === 'number' ? ctx.nowMs : 0,
      timeZone: typeof ctx.timeZone === 'string' ? ctx.timeZone : 'UTC',
      hemisphere: ctx.hemisphere === 'south' ? 'south' : 'north',
      forced: isSeason(ctx.forcedSeason) ? ctx.forcedSeason : undefined,
      lawn: resolveLawn(ctx.lawn),
    };
  } catch {
    return { nowMs: 0, timeZone: 'UTC', hemisphere: 'north', forced: undefined, lawn: { ...DEFAULT_LAWN } };
  }
}

function skippedCheck(reason: string): CheckResult {
  return {
    executed: false,
    skipped_reason: reason,
    status: null,
    score: null,
    data_confidence: null,
    reasons: [],
    skipped_parts: {},
    meta: {},
  };
}

function executedCheck(evaluation: CheckEvaluation): CheckResult {
  const score = toScore(evaluation.score);
  return {
    executed: true,
    status: statusForScore(score),
    score,
    data_confidence: evaluation.dataConfidence,
    reasons: evaluation.reasons,
    skipped_parts: evaluation.skippedParts,
    meta: evaluation.meta,
  };
}

function describeError(check: CheckName, error: unknown): string {
  const kind = error instanceof Error ? error.name : typeof error;
  return `Check '${check}' failed with an internal error (${kind}) and was not executed.`;
}

/**
 * The calculation with an explicit check registry, so tests can inject a
 * failing check. `calculate` uses the built-in registry.
 */
export function calculateWith(registry: readonly CheckDefinition[], input: RawInput, context: CalculationContext): CalculationOutcome {
  // An estimated soil moisture (MQTT side, lawn memory) is not parsed as a measurement.
  const estimated = splitSoilEstimate(input, context);
  const parsed = parseDenseInput(estimated.input);
  if (anyMissing(REQUIRED_MASK, parsed.mask)) {
    const missingRequired = REQUIRED_FIELDS.filter((name) => parsed.values[name] === undefined);
    return {
      ok: false,
      error: {
        code: 'MISSING_REQUIRED_FIELDS',
        missing: missingRequired,
        message: `Missing or invalid required field(s): ${missingRequired.join(', ')}.`,
      },
    };
  }

  const { nowMs, timeZone, hemisphere, forced, lawn } = resolveContext(context);
  const localTime = localDateTime(nowMs, timeZone);
  const season = forced ?? seasonForMonth(localTime.month, hemisphere);
  const dataQuality = dataQualityFor(parsed.available.length, REQUIRED_FIELDS.length, FIELD_SPECS.length);
  const values = parsed.values;
  const rainWindows = effectiveRainWindows(values);
  // One literal with every field: one shape for the checks' reads. The windows and the drying potential once for all checks.
  const checkContext: CheckContext = {
    values,
    extensions: parseExtensions(input),
    season,
    localHour: localTime.hour,
    lawn,
    soilEstimate: estimated.pct === undefined ? undefined : soilEstimateFor(estimated.pct, lawn),
    rainWindows,
    drying: dryingPotential(values.temperature ?? 15, values.humidity, values.solar, values.wind_speed),
  };
  const noWetnessEvidence = lacksWetnessEvidenceIn(parsed.mask);

  const { checks, scored, skippedChecks, partialChecks, errors } = runChecks(
    registry,
    checkContext,
    parsed.mask,
    dataQuality,
    noWetnessEvidence,
  );

  const combined = combine(scored, dataQuality, errors.length > 0, noWetnessEvidence ? NO_WETNESS_EVIDENCE_CAP : 100);
  const combination = withOvergrowthRelief(combined, checkContext.extensions ?? {}, parsed.values.precipitation_rate, scored, checks.rain);
  const protocol: Protocol = { skipped_checks: skippedChecks, partial_checks: partialChecks };
  if (errors.length > 0) protocol.calculation_error = errors.join(' ');

  const head: ResultHead = {
    mfi_version: MFI_VERSION,
    season,
    season_source: forced === undefined ? 'auto' : 'manual',
    index_score: combination.indexScore,
    main_status: combination.mainStatus,
    data_quality: dataQuality,
    score_basis: { checks_used: scored.length, checks_total: CHECK_NAMES.length, limiting_check: combination.limitingCheck },
    available_fields: parsed.available,
    missing_fields: parsed.missing,
    checks,
    protocol,
  };
  return { ok: true, result: withTail(head, rainSourceInfoOf(rainWindows), formatLocalDateTime(localTime)) };
}

/** The result up to its optional rain_source_info. */
type ResultHead = Omit<CalculationResult, 'rain_source_info' | 'calculated_at'>;

/** Adds rain_source_info (when there is one) and calculated_at, in the order of docs/api.md's examples, without copying the result. */
function withTail(head: ResultHead, rainInfo: RainSourceInfo | null, calculatedAt: string): CalculationResult {
  const result: ResultHead & Partial<Pick<CalculationResult, 'rain_source_info' | 'calculated_at'>> = head;
  if (rainInfo !== null) result.rain_source_info = rainInfo;
  result.calculated_at = calculatedAt;
  return result as CalculationResult;
}

/** What running the registry's checks gave: each check's result, the scored ones, and the protocol's lists. */
interface CheckRun {
  checks: Partial<Record<CheckName, CheckResult>>;
  scored: ScoredCheck[];
  skippedChecks: SkippedCheckEntry[];
  partialChecks: PartialCheckEntry[];
  errors: string[];
}

/** Runs every check whose required fields are there; a check that throws is skipped with an internal-error reason. */
function runChecks(
  registry: readonly CheckDefinition[],
  checkContext: CheckContext,
  valid: FieldMask,
  dataQuality: DataQuality,
  noWetnessEvidence: boolean,
): CheckRun {
  const scored: ScoredCheck[] = [];
  const skippedChecks: SkippedCheckEntry[] = [];
  const partialChecks: PartialCheckEntry[] = [];
  const errors: string[] = [];
  const results: CheckResult[] = [];
  const requiredMasks =
    registry === CHECK_REGISTRY ? BUILT_IN_REQUIRED_MASKS : registry.map((definition) => fieldMask(definition.requiredFields));
  for (let i = 0; i < registry.length; i++) {
    const definition = registry[i] as CheckDefinition;
    if (anyMissing(requiredMasks[i] as FieldMask, valid)) {
      const missing: FieldName[] = [];
      for (const name of definition.requiredFields) if (checkContext.values[name] === undefined) missing.push(name);
      results.push(skippedCheck(definition.skippedReason));
      skippedChecks.push({ check: definition.name, reason: definition.skippedReason, missing });
      continue;
    }
    let result: CheckResult;
    try {
      result = executedCheck(definition.evaluate(checkContext));
    } catch (error) {
      results.push(skippedCheck(INTERNAL_ERROR_REASON));
      skippedChecks.push({ check: definition.name, reason: INTERNAL_ERROR_REASON, missing: [] });
      errors.push(describeError(definition.name, error));
      continue;
    }
    if (dataQuality === 'minimal' && definition.name === 'rain') result.reasons.push(MINIMAL_DATA_REASON);
    if (noWetnessEvidence && definition.name === 'rain') result.reasons.push(NO_WETNESS_EVIDENCE_REASON);
    results.push(result);
    scored.push({ name: definition.name, weight: definition.weight, score: result.score ?? 0 });
    if (hasKeys(result.skipped_parts)) partialChecks.push({ check: definition.name, parts: Object.keys(result.skipped_parts) });
  }
  return { checks: checksByName(registry, results), scored, skippedChecks, partialChecks, errors };
}

/** The built-in registry's check names in its order, which the result's `checks` object keeps. */
const BUILT_IN_ORDER = ['temperature', 'soiltemp', 'rain', 'wind', 'humidity'] as const;
const BUILT_IN_IN_ORDER =
  CHECK_REGISTRY.length === BUILT_IN_ORDER.length && CHECK_REGISTRY.every((definition, i) => definition.name === BUILT_IN_ORDER[i]);

/**
 * The results by check name, in the registry's order. For the built-in registry one literal (five
 * keyed stores of varying names into a fresh object were a megamorphic store each).
 */
function checksByName(registry: readonly CheckDefinition[], results: readonly CheckResult[]): Partial<Record<CheckName, CheckResult>> {
  if (registry === CHECK_REGISTRY && BUILT_IN_IN_ORDER) {
    return { temperature: results[0], soiltemp: results[1], rain: results[2], wind: results[3], humidity: results[4] };
  }
  const checks: Partial<Record<CheckName, CheckResult>> = {};
  registry.forEach((definition, i) => {
    checks[definition.name] = results[i];
  });
  return checks;
}

/** An overdue lawn after a long wet spell: BLOCK becomes WARNING with K-State's advice (lawn memory extension). */
function withOvergrowthRelief(
  combination: Combination,
  extensions: ExtensionInput,
  precipitationRate: number | undefined,
  scored: readonly ScoredCheck[],
  rain: CheckResult | undefined,
): Combination {
  const lifted = overgrowthRelief({
    extensions,
    precipitationRate,
    indexScore: combination.indexScore,
    status: combination.mainStatus,
    scores: scored,
  });
  if (lifted === null) return combination;
  rain?.reasons.push(OVERGROWTH_REASON);
  return { ...combination, indexScore: lifted, mainStatus: statusForScore(lifted) };
}

/**
 * Rates the mowing conditions for untrusted input. Pure: reads no clock,
 * config or environment and never throws.
 */
export function calculate(input: RawInput, context: CalculationContext): CalculationOutcome {
  return calculateWith(CHECK_REGISTRY, input, context);
}
