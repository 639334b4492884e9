/**
 * A station's history options from the configuration: the history.* settings and the station's own
 * `freshness` block. Used by the station pipeline (what a reading is worth) and the status page (when
 * a value is shown as stale), so both judge freshness the same way.
 */
import type { HistoryOptions } from '../history/stationHistory.js';
import { MINUTE_MS } from '../history/windows.js';
import { gaugeRainReplaced } from '../ingest/modelledConfig.js';
import { MODELLED_FORMAT, type StationConfig } from '../ingest/types.js';
import type { StationSideConfig } from './schema.js';

/** How old a station's current values may be: its own `freshness.maxAgeMinutes`, else `history.freshnessMinutes`. */
export function stationFreshnessMs(config: Pick<StationSideConfig, 'history'>, station: StationConfig): number {
  return (station.freshness?.maxAgeMinutes ?? config.history.freshnessMinutes) * MINUTE_MS;
}

/**
 * A modelled station's history arrives hourly (Open-Meteo's past hours, docs/model.md "Modelled
 * stations"): two hourly samples cover the hour between them, and one missing hour leaves no hole.
 */
export const MODELLED_MAX_GAP_MINUTES = 130;

export function historyOptionsFor(config: Pick<StationSideConfig, 'history'>, station: StationConfig): HistoryOptions {
  const fieldFreshnessMs: HistoryOptions['fieldFreshnessMs'] = {};
  for (const [field, minutes] of Object.entries(station.freshness?.fields ?? {})) {
    fieldFreshnessMs[field as keyof typeof fieldFreshnessMs] = minutes * MINUTE_MS;
  }
  return {
    counterResetPolicy: config.history.rainCounterReset === 'count' ? 'count' : 'ignore',
    maxRainIncrementMm: config.history.maxRainIncrementMm,
    // A gauge replaced by the model (gapFill.rain "model") has the model's hourly rain too.
    maxGapMinutes:
      station.format === MODELLED_FORMAT || gaugeRainReplaced(station)
        ? Math.max(MODELLED_MAX_GAP_MINUTES, config.history.maxGapMinutes)
        : config.history.maxGapMinutes,
    duplicateWindowMs: 10_000,
    freshnessMs: stationFreshnessMs(config, station),
    fieldFreshnessMs,
  };
}
