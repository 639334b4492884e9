/**
 * One recomputation of a station's state: the history's assembly, extended by
 * every unit, through the pure core, then the mowable hysteresis (persisted
 * with the history), the units' holds and state fragments, into the state
 * payload. Knows nothing of MQTT: the pipeline hands the payload on.
 */
import { calculate, type CalculationContext, type CalculationOutcome, type LawnProfile } from '../core/index.js';
import { calculationContext, type CalculationSettings } from '../config/calculationContext.js';
import { MINUTE_MS } from '../history/windows.js';
import type { StationConfig } from '../ingest/types.js';
import type { HistoryService } from './historyService.js';
import { INITIAL_MOWABLE, mowableReason, nextMowable, type MowableSettings } from './mowable.js';
import type { StationSideConfig } from '../config/schema.js';
import { buildStatePayload, PUBLIC_REASON_KEY, type StationStatePayload } from './statePayload.js';
import type { StationEventLog } from './stationEvents.js';
import type { LogThrottle } from '../util/logThrottle.js';
import type { MowableHold, StationInput, StationUnit } from './unit.js';
import { fieldsAddedByUnits } from './unitDerivedFields.js';
import type { UnitFailures } from './isolatedUnit.js';

/** The state key naming the station units that failed and in which hook (docs/mqtt.md, state payload). */
export const UNIT_ERRORS_KEY = 'unit_errors';

export function mowableSettingsFor(config: Pick<StationSideConfig, 'station'>): MowableSettings {
  return {
    onThreshold: config.station.mowableOnThreshold,
    offThreshold: config.station.mowableOffThreshold,
    onDelayMs: config.station.mowableOnDelayMinutes * MINUTE_MS,
  };
}

/** Values set at run time that override the configuration's for one station (Home Assistant's controls, ./stationControls.ts). */
export interface StationOverrides {
  /** The station's hysteresis; `configured` when nothing overrides it (the same object while nothing changes). */
  mowableSettings(stationId: string, configured: MowableSettings): MowableSettings;
  /** The station's lawn profile; `base` when nothing overrides it (the same object while nothing changes). */
  lawnOf(stationId: string, base: Partial<LawnProfile> | undefined): Partial<LawnProfile> | undefined;
}

export interface RecomputeDeps {
  config: StationSideConfig & CalculationSettings;
  history: HistoryService;
  units: readonly StationUnit[];
  events: StationEventLog;
  throttle: LogThrottle;
  /** What the (isolated) units failed at; named in the state as `unit_errors`. */
  unitFailures?: UnitFailures;
  overrides?: StationOverrides;
}

export class StationRecompute {
  readonly #deps: RecomputeDeps;
  readonly #mowableSettings: MowableSettings;
  /** The flag as last published per station (the hysteresis state is the history's). */
  readonly #publishedMowable = new Map<string, boolean>();
  /** Each station's time zone, hemisphere and lawn profile, resolved once per station configuration. */
  readonly #contexts = new WeakMap<StationConfig, CalculationContext>();

  constructor(deps: RecomputeDeps) {
    this.#deps = deps;
    this.#mowableSettings = mowableSettingsFor(deps.config);
  }

  /** The station's new state, or undefined when the calculation failed (logged, throttled). */
  run(station: StationConfig, nowMs: number): StationStatePayload | undefined {
    const { history, units } = this.#deps;
    const assembly = history.assemble(station.id, nowMs);
    const input = units.reduce<StationInput>((current, unit) => unit.extendInput?.(station.id, current, nowMs) ?? current, assembly.input);
    const estimated = fieldsAddedByUnits(assembly.input, input);
    let outcome: CalculationOutcome;
    let context: CalculationContext;
    try {
      context = this.#context(station, nowMs, estimated);
      outcome = calculate(input, context);
    } catch (err) {
      this.#deps.throttle.warn(`calculate:${station.id}`, { err, station: station.id }, 'calculation failed');
      return undefined;
    }
    const previous = history.stationState(station.id) ?? { station: station.id, ...INITIAL_MOWABLE };
    const score = outcome.ok ? outcome.result.index_score : null;
    const status = outcome.ok ? outcome.result.main_status : null;
    const settings = this.#deps.overrides?.mowableSettings(station.id, this.#mowableSettings) ?? this.#mowableSettings;
    const mowable = nextMowable(previous, score, status, nowMs, settings);
    history.setStationState({ station: station.id, ...mowable });
    // A unit's hold (quiet hours, rain expected) keeps the flag off without resetting the index's hysteresis.
    const hold = this.#firstHold(station.id, nowMs);
    const flag = mowable.mowable && hold === undefined;
    const reason = hold?.reason.en ?? mowableReason(mowable, score, status, settings, 'en', context.timeZone);
    const reasonDe = hold?.reason.de ?? mowableReason(mowable, score, status, settings, 'de', context.timeZone);
    this.#deps.events.mowable(station.id, this.#publishedMowable.get(station.id) ?? previous.mowable, flag, score, status, reason);
    this.#publishedMowable.set(station.id, flag);
    const fragments = Object.assign({}, ...units.map((unit) => unit.stateFragment?.(station.id, nowMs))) as Record<string, unknown>;
    if (hold?.publicReason !== undefined) fragments[PUBLIC_REASON_KEY] = hold.publicReason.en;
    if (hold?.publicReason !== undefined) fragments[`${PUBLIC_REASON_KEY}_de`] = hold.publicReason.de;
    const failed = this.#deps.unitFailures?.forStation(station.id) ?? [];
    if (failed.length > 0) fragments[UNIT_ERRORS_KEY] = failed;
    const published = estimated.length === 0 ? assembly : { ...assembly, derived: [...assembly.derived, ...estimated] };
    return buildStatePayload({
      stationId: station.id,
      stationName: station.name,
      outcome,
      assembly: published,
      mowable: flag,
      mowableReason: reason,
      mowableReasonDe: reasonDe,
      input,
      fragments,
    });
  }

  /** One literal per call: a spread copy of the context is slow to read in V8 (bench/NOTES.md). */
  #context(station: StationConfig, nowMs: number, estimatedFields: CalculationContext['estimatedFields']): CalculationContext {
    let base = this.#contexts.get(station);
    if (base === undefined) {
      base = calculationContext(this.#deps.config, nowMs, { lawn: station.lawn });
      this.#contexts.set(station, base);
    }
    const lawn = this.#deps.overrides?.lawnOf(station.id, base.lawn) ?? base.lawn;
    return { nowMs, timeZone: base.timeZone, hemisphere: base.hemisphere, lawn, estimatedFields };
  }

  /** The first unit's hold, unless a later one says the station's data does not arrive (MowableHold.sourceOutage): that one is the cause. */
  #firstHold(stationId: string, nowMs: number): MowableHold | undefined {
    let first: MowableHold | undefined;
    for (const unit of this.#deps.units) {
      const hold = unit.mowableHold?.(stationId, nowMs);
      if (hold?.sourceOutage === true) return hold;
      first ??= hold;
    }
    return first;
  }
}
