/**
 * One round of a modelled station: ask Open-Meteo for what the history lacks, the current
 * conditions and the forecast (one request), then hand every new past hour and the current
 * conditions to the station pipeline like any station's readings (`acceptReading`), and the
 * forecast hours to the forecast unit. A past hour whose minute already holds a rain observation
 * is not handed in again, so a repeated or overlapping answer never counts rain twice, and a gap
 * after an outage is filled from `past_days` when the provider answers again.
 *
 * The round itself (runRound) is shared with gap filling (./gapFill.ts), which asks and hands in
 * differently (a RoundPlan): an answer that came before the pipeline ran is kept and handed in on
 * the next round, a second later, without asking the provider again.
 */
import type { ForecastHour } from '../core/forecastProjection.js';
import type { CachedForecast, Validators } from '../store/forecastStore.js';
import type { BodyParser, FetchError, OpenMeteoClient } from '../openmeteo/openMeteoClient.js';
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

/** What a modelled station's round reads and where it hands the answer. */
export interface ModelledRoundDeps {
  baseUrl: string;
  history: StationHistoryView;
  accept: AcceptReading;
  supplyForecast?: (stationId: string, forecast: CachedForecast) => Promise<void>;
  now: () => number;
}

export interface Parsed {
  answer: ModelledAnswer;
  forecast: ForecastHour[];
}

/** An answer handed to the pipeline: what it took, or that it is not running yet (it starts the units first). */
export type Delivered = { kind: 'ok'; accepted: number; rejected: number } | { kind: 'not_running' };

/**
 * What one unit asks and how it hands the answer in (a modelled station's backfill and readings,
 * gap filling's current conditions and the model's rain); the round between them is shared (runRound).
 */
export interface RoundPlan {
  /** The request at `nowMs`: its URL and the parser that judges the body. */
  request(nowMs: number): { url: string; parse: BodyParser<Parsed> };
  /** Hands an answer to the pipeline and the forecast; 'not_running' keeps it for the next round. */
  deliver(parsed: Parsed, nowMs: number): Promise<Delivered>;
  /** Whether the next request sends this answer's validators (a conditional request). */
  conditional: boolean;
}

export type RoundOutcome =
  /** `fetched` false: the answer kept from a round whose pipeline was not running, handed in without asking again. */
  (Delivered & { fetched: boolean }) | { kind: 'not_modified' } | (FetchError & { refused: boolean });

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
  return answer.hours.filter(
    (hour) => (hour.payloadTimeMs ?? 0) >= oldestMs && !(hour.rainDeltaMm !== undefined && observed.has(minuteOf(hour.payloadTimeMs!))),
  );
}

/** Hands readings to the pipeline; 'not_running' when the pipeline has not started yet. */
export function acceptAll(accept: AcceptReading, stationId: string, readings: readonly Reading[]): Delivered {
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

/** What a station's rounds carry over: the validators of the last answer, an answer not yet handed in. */
export interface RoundMemory {
  validators: Validators;
  pending?: Parsed | undefined;
}

/**
 * One round of either unit: an answer kept from a round whose pipeline was not running yet is
 * handed in first, without a second request (a slow start costs no extra request to the provider);
 * otherwise the plan's request is made and its answer handed in, and kept if the pipeline is not
 * running yet.
 */
export async function runRound(
  client: Pick<OpenMeteoClient, 'fetchParsed'>,
  plan: RoundPlan,
  memory: RoundMemory,
  nowMs: number,
  signal: AbortSignal,
): Promise<RoundOutcome> {
  if (memory.pending) return { ...(await handIn(plan, memory, memory.pending, nowMs)), fetched: false };
  const { url, parse } = plan.request(nowMs);
  let refused = false;
  const outcome = await client.fetchParsed(
    url,
    (body) => {
      const parsed = parse(body);
      refused = !parsed.ok;
      return parsed;
    },
    memory.validators,
    signal,
  );
  if (outcome.kind === 'not_modified') return outcome;
  if (outcome.kind === 'error') return { ...outcome, refused: refused || /larger than|not valid JSON/.test(outcome.reason) };
  if (plan.conditional) memory.validators = outcome.validators;
  return { ...(await handIn(plan, memory, outcome.value, nowMs)), fetched: true };
}

async function handIn(plan: RoundPlan, memory: RoundMemory, parsed: Parsed, nowMs: number): Promise<Delivered> {
  const delivered = await plan.deliver(parsed, nowMs);
  memory.pending = delivered.kind === 'not_running' ? parsed : undefined;
  return delivered;
}

/** A modelled station's round: what the history lacks (backfill), the current conditions and the forecast in one request. */
export function modelledRoundPlan(deps: ModelledRoundDeps, station: Pick<StationConfig, 'id'> & { location: StationLocation }): RoundPlan {
  return {
    conditional: true,
    request: (nowMs) => ({
      url: modelledUrl(deps.baseUrl, station.location, pastSpan(lastObservedMs(deps.history, station.id, nowMs), nowMs)),
      parse: parserAt(nowMs),
    }),
    deliver: async (parsed, nowMs) => {
      const { answer } = parsed;
      const result = acceptAll(deps.accept, station.id, [
        ...newHours(deps.history, station.id, answer, nowMs),
        ...(answer.current ? [answer.current] : []),
      ]);
      if (result.kind === 'ok' && deps.supplyForecast && parsed.forecast.length > 0) {
        await deps.supplyForecast(station.id, { source: 'open-meteo', fetchedAtMs: deps.now(), hours: parsed.forecast, validators: {} });
      }
      return result;
    },
  };
}
