/**
 * The one mapping from configuration to the core's calculation context, used
 * by the HTTP route, the `calc` command and the MQTT recompute alike.
 */
import type { CalculationContext, Hemisphere, LawnProfile, MowerClass, Season, SoilType, TurfType } from '../core/index.js';

/** The settings the context is made of (optional so partial test configs fit). */
export interface CalculationSettings {
  readonly timezone?: string;
  readonly hemisphere?: Hemisphere;
  readonly lawn?: LawnSettings;
}

/** A lawn profile as configured; fieldCapacityPercent 0 or absent means the soil type's default. */
export interface LawnSettings {
  readonly soilType?: SoilType;
  readonly mowerClass?: MowerClass;
  readonly turfType?: TurfType;
  readonly fieldCapacityPercent?: number;
}

export interface ContextOptions {
  /** A station's own lawn profile; each field falls back to the configured one. */
  lawn?: LawnSettings | undefined;
  /** Only when the caller allows forcing the season. */
  forcedSeason?: Season | undefined;
}

export function calculationContext(settings: CalculationSettings, nowMs: number, options: ContextOptions = {}): CalculationContext {
  const lawn: Partial<LawnProfile> = {};
  const soilType = options.lawn?.soilType ?? settings.lawn?.soilType;
  const mowerClass = options.lawn?.mowerClass ?? settings.lawn?.mowerClass;
  if (soilType) lawn.soilType = soilType;
  if (mowerClass) lawn.mowerClass = mowerClass;
  const turfType = options.lawn?.turfType ?? settings.lawn?.turfType;
  if (turfType) lawn.turfType = turfType;
  // A station's 0 falls back to the configured value; a configured 0 to the soil type's default.
  const fieldCapacity = options.lawn?.fieldCapacityPercent || settings.lawn?.fieldCapacityPercent;
  if (fieldCapacity) lawn.fieldCapacityPercent = fieldCapacity;
  return {
    nowMs,
    timeZone: settings.timezone || Intl.DateTimeFormat().resolvedOptions().timeZone,
    hemisphere: settings.hemisphere ?? 'north',
    lawn,
    ...(options.forcedSeason ? { forcedSeason: options.forcedSeason } : {}),
  };
}
