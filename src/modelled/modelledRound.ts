/**
 * One round of a modelled station: ask Open-Meteo for what the history lacks, the current
 * conditions and the forecast (one request), then hand every new past hour and the current
 * conditions to the station pipeline like any station's readings (`acceptReading`), and the
 * forecast hours to the forecast unit. A past hour whose minute already holds a rain observation
 * is not handed in again, so a repeated or overlapping answer never counts rain twice, and a gap
 * after an outage is filled from `past_days` when the provider answers again.
 */
import type { ForecastHour } from '../core/forecastProjection.js';
import type { CachedForecast, Validators } from '../store/forecastStore.js';
import type { BodyParser, OpenMeteoClient } from '../openmeteo/openMeteoClient.js';
import { parseOpenMeteo } from '../openmeteo/openMeteoResponse.js';
import { parseModelledAnswer, type ModelledAnswer } from '../ingest/formats/openMeteo.js';
import type { Reading, StationConfig, StationLocation } from '../ingest/types.js';
import { MINUTE_MS, RETENTION_MINUTES, minuteOf } from '../history/windows.js';
import type { AcceptReading } from '../station/facade.js';
import type { StationHistoryView } from '../station/unit.js';
import { modelledUrl, pastSpan } from './modelledRequest.js';

/** Forecast hours before now kept for the forecast unit (as its own request's `past_hours`). */
const FORECAST_PAST_MS = 2 * 60 * MINUTE_MS;
/** Readings at the very edge of the history's 14 days would be refused as too old: leave them out. */
const EDGE_MS = 5 * MINUTE_MS;
export const MODELLED_ORIGIN = 'open-meteo';


export interface RoundDeps {
  client: Pick<OpenMeteoClient, 'fetchParsed' | 'baseUrl'>;
  history: StationHistoryView;
  accept: AcceptReading;
  supplyForecast?: (stationId: string, forecast: CachedForecast) => Promise<void>;
  now: () => number;
}

export interface Parsed {
  answer: ModelledAnswer;
  forecast: ForecastHour[];
}

export type RoundOutcome =
  | { kind: 'ok'; accepted: number; rejected: number }
  | { kind: 'not_modified' }
  /** The pipeline has not started yet: the answer is kept and handed in on the next round, not fetched again. */
  | { kind: 'not_running'; pending: Parsed }
  | { kind: 'error'; reason: string; refused: boolean };

/** The latest hour the history holds a rain observation for (the backfill's high-water mark). */
export function lastObservedMs(history: StationHistoryView, stationId: string, nowMs: number): number | null {
  const rows = history.buckets(stationId, nowMs - RETENTION_MINUTES * MINUTE_MS, nowMs);
  for (let i = rows.length - 1; i >= 0; i--) if (rows[i]!.rainObserved) return rows[i]!.minute * MINUTE_MS;
  return null;
}

function observedMinutes(history: StationHistoryView, stationId: string, nowMs: number): Set<number> {
  const rows = history.buckets(stationId, nowMs - RETENTION_MINUTES * MINUTE_MS, nowMs);
  return new Set(rows.filter((row) => row.rainObserved).map((row) => row.minute));
}

/** The answer's parser at `nowMs`: the station's readings and the forecast hours of the same body. */
export function parserAt(nowMs: number): BodyParser<Parsed> {
  return (body) => {
    const parsed = parseModelledAnswer(body, nowMs);
    if (!parsed.ok) return parsed;
    const forecast = parseOpenMeteo(body);
    const hours = forecast.ok ? forecast.hours.filter((hour) => hour.timeMs >= nowMs - FORECAST_PAST_MS) : [];
    return { ok: true, value: { answer: parsed.answer, forecast: hours } };
  };
}

/** The past hours the history lacks (within its 14 days, no rain observation in their minute yet). */
export function newHours(history: StationHistoryView, stationId: string, answer: ModelledAnswer, nowMs: number): Reading[] {
  const observed = observedMinutes(history, stationId, nowMs);
  const oldestMs = nowMs - RETENTION_MINUTES * MINUTE_MS + EDGE_MS;
  return answer.hours.filter((hour) => (hour.payloadTimeMs ?? 0) >= oldestMs && !(hour.rainDeltaMm !== undefined && observed.has(minuteOf(hour.payloadTimeMs!))));
}

/** Hands readings to the pipeline; 'not_running' when the pipeline has not started yet. */
export function acceptAll(accept: AcceptReading, stationId: string, readings: readonly Reading[]): { kind: 'ok'; accepted: number; rejected: number } | { kind: 'not_running' } {
  let accepted = 0;
  let rejected = 0;
  for (const reading of readings) {
    const result = accept(stationId, reading, MODELLED_ORIGIN);
    if (result === 'not_running') return { kind: 'not_running' };
    if (result === 'accepted') accepted++;
    else if (result !== 'duplicate') rejected++;
  }
  return { kind: 'ok', accepted, rejected };
}

function ingest(deps: RoundDeps, stationId: string, answer: ModelledAnswer, nowMs: number): { kind: 'ok'; accepted: number; rejected: number } | { kind: 'not_running' } {
  return acceptAll(deps.accept, stationId, [...newHours(deps.history, stationId, answer, nowMs), ...(answer.current ? [answer.current] : [])]);
}

/** What a station's rounds carry over: the validators of the last answer, an answer not yet handed in. */
export interface RoundMemory {
  validators: Validators;
  pending?: Parsed | undefined;
}

export async function runRound(deps: RoundDeps, station: Pick<StationConfig, 'id'> & { location: StationLocation }, memory: RoundMemory, signal: AbortSignal): Promise<RoundOutcome> {
  const nowMs = deps.now();
  if (memory.pending) return remember(memory, await deliver(deps, station.id, memory.pending, nowMs));
  const span = pastSpan(lastObservedMs(deps.history, station.id, nowMs), nowMs);
  let refused = false;
  const parse = parserAt(nowMs);
  const outcome = await deps.client.fetchParsed(modelledUrl(deps.client.baseUrl, station.location, span), (body) => {
    const parsed = parse(body);
    refused = !parsed.ok;
    return parsed;
  }, memory.validators, signal);
  if (outcome.kind === 'not_modified') return outcome;
  if (outcome.kind === 'error') return { ...outcome, refused: refused || /larger than|not valid JSON/.test(outcome.reason) };
  memory.validators = outcome.validators;
  return remember(memory, await deliver(deps, station.id, outcome.value, nowMs));
}

function remember(memory: RoundMemory, result: RoundOutcome): RoundOutcome {
  memory.pending = result.kind === 'not_running' ? result.pending : undefined;
  return result;
}

async function deliver(deps: RoundDeps, stationId: string, parsed: Parsed, nowMs: number): Promise<RoundOutcome> {
  const result = ingest(deps, stationId, parsed.answer, nowMs);
  if (result.kind === 'not_running') return { kind: 'not_running', pending: parsed };
  if (deps.supplyForecast && parsed.forecast.length > 0) {
    await deps.supplyForecast(stationId, { source: 'open-meteo', fetchedAtMs: deps.now(), hours: parsed.forecast, validators: {} });
  }
  return result;
}
