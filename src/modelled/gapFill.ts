/**
 * Gap filling (station setting `gapFill: {"source": "open-meteo"}`): a real station's fields it
 * does not measure (soil moisture, soil temperature, radiation, gusts) filled from Open-Meteo's
 * current conditions at its location. A field the station has ever reported since start (or that
 * its history holds) is never filled, fresh or stale: a measurement always wins. Rain is never
 * filled: the station's gauge decides. Soil moisture has one precedence (docs/model.md, "Gap
 * filling"): the sensor, then the lawn memory's water balance once it has spun up (this unit runs
 * after it and fills only what is still missing), then the model. Filled fields are listed in the
 * state's `estimated_fields` and `derived_fields`; the checks they decide say "modelliert".
 */
import type { Logger } from 'pino';
import { OpenMeteoClient } from '../forecast/openMeteoClient.js';
import { parseModelledAnswer } from '../ingest/formats/openMeteo.js';
import { GAP_FILL_FIELDS, type CurrentField, type GapFillField, type Reading, type StationConfig, type StationLocation } from '../ingest/types.js';
import { MINUTE_MS } from '../history/windows.js';
import type { TimedReading } from '../history/stationHistory.js';
import type { StationHistoryView, StationInput, StationUnit, UnitContext } from '../station/unit.js';
import { ModelledLoop, type RoundResult } from './modelledLoop.js';
import { currentUrl } from './modelledRequest.js';
import type { ModelledSettings } from './modelledUnit.js';

/** A modelled current value older than this is not used (two missed rounds at 15 min and slack). */
export const GAP_FILL_MAX_AGE_MS = 45 * MINUTE_MS;

export interface GapFillOptions {
  stations: readonly StationConfig[];
  settings: ModelledSettings;
  logger: Logger;
  now: () => number;
  userAgent: string;
  fetch?: typeof fetch;
  retryBackoffMs?: number;
  roundBackoffMs?: number;
  random?: () => number;
}

interface Filled {
  station: StationConfig & { location: StationLocation };
  fields: readonly GapFillField[];
  measured: Set<CurrentField>;
  current?: { values: Reading['values']; timeMs: number };
  lastFilled: GapFillField[];
  failures: number;
  lastError?: string;
}

export type GapFillCounters = { gapFillFetches: number; gapFillFetchErrors: number };

export class GapFillUnit implements StationUnit {
  readonly name = 'gap-fill';
  readonly counters: GapFillCounters = { gapFillFetches: 0, gapFillFetchErrors: 0 };
  readonly #options: GapFillOptions;
  readonly #held = new Map<string, Filled>();
  readonly #loops: ModelledLoop[] = [];
  readonly #log: Logger;

  constructor(options: GapFillOptions) {
    this.#options = options;
    this.#log = options.logger.child({ module: 'gap-fill' });
    for (const station of options.stations) {
      if (!station.gapFill || !station.location) continue;
      this.#held.set(station.id, { station: { ...station, location: station.location }, fields: station.gapFill.fields ?? GAP_FILL_FIELDS, measured: new Set(), lastFilled: [], failures: 0 });
    }
  }

  async start(context: UnitContext): Promise<void> {
    if (this.#held.size === 0) return;
    const { settings } = this.#options;
    const client = new OpenMeteoClient({
      baseUrl: settings.openMeteoUrl, timeoutMs: settings.timeoutSeconds * 1000, retries: settings.retries,
      backoffMs: this.#options.retryBackoffMs ?? 5000, userAgent: this.#options.userAgent, ...(this.#options.fetch ? { fetch: this.#options.fetch } : {}),
    });
    const intervalMs = settings.intervalMinutes * MINUTE_MS;
    for (const held of this.#held.values()) {
      this.#seedMeasured(held, context.history);
      this.#log.info({ station: held.station.id }, `station "${held.station.id}": fields it does not measure among ${held.fields.join(', ')} are filled from Open-Meteo's current conditions every ${settings.intervalMinutes} min`);
      const loop = new ModelledLoop({
        intervalMs, backoffMs: Math.min(intervalMs, this.#options.roundBackoffMs ?? 30_000), random: this.#options.random ?? Math.random,
        round: (signal) => this.#round(client, held, signal),
      });
      loop.start();
      this.#loops.push(loop);
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.#loops.map((loop) => loop.stop()));
    this.#loops.length = 0;
  }

  /** What the restored history holds (fresh or stale) was measured. */
  #seedMeasured(held: Filled, history: StationHistoryView): void {
    const assembly = history.assemble(held.station.id, this.#options.now());
    for (const field of held.fields) if (assembly.input[field] !== undefined || assembly.withheld[field] !== undefined) held.measured.add(field);
  }

  async #round(client: OpenMeteoClient, held: Filled, signal: AbortSignal): Promise<RoundResult> {
    const nowMs = this.#options.now();
    const outcome = await client.fetchParsed(currentUrl(client.baseUrl, held.station.location), (body) => {
      const parsed = parseModelledAnswer(body, nowMs);
      if (!parsed.ok) return parsed;
      return parsed.answer.current ? { ok: true, value: parsed.answer.current } : { ok: false, reason: 'the answer has no "current" conditions' };
    }, {}, signal);
    this.counters.gapFillFetches++;
    if (outcome.kind !== 'ok') {
      if (outcome.kind === 'not_modified') return 'ok';
      this.counters.gapFillFetchErrors++;
      if (held.failures++ === 0) this.#log.warn({ station: held.station.id, reason: outcome.reason }, `gap filling for station "${held.station.id}" got no answer from Open-Meteo (${outcome.reason}); modelled values stop being used after 45 min. Logged again when it recovers`);
      held.lastError = outcome.reason;
      return 'failed';
    }
    if (held.failures > 0) this.#log.info({ station: held.station.id }, `gap filling for station "${held.station.id}" has Open-Meteo's answers again`);
    held.failures = 0;
    held.current = { values: outcome.value.values, timeMs: Math.min(outcome.value.payloadTimeMs ?? nowMs, nowMs) };
    return 'ok';
  }

  onReading(stationId: string, reading: TimedReading): void {
    const held = this.#held.get(stationId);
    if (!held) return;
    for (const field of held.fields) if (reading.values[field] !== undefined) held.measured.add(field);
  }

  extendInput(stationId: string, input: StationInput, nowMs: number): StationInput {
    const held = this.#held.get(stationId);
    if (!held) return input;
    const current = held.current && nowMs - held.current.timeMs <= GAP_FILL_MAX_AGE_MS ? held.current.values : {};
    const filled = held.fields.filter((field) => input[field] === undefined && !held.measured.has(field) && current[field] !== undefined);
    held.lastFilled = filled;
    return filled.length === 0 ? input : { ...input, ...Object.fromEntries(filled.map((field) => [field, current[field]])) };
  }

  stateFragment(stationId: string): { estimated_fields: GapFillField[]; gap_fill: Record<string, unknown> } | undefined {
    const held = this.#held.get(stationId);
    if (!held) return undefined;
    return {
      estimated_fields: held.lastFilled,
      gap_fill: {
        provider: 'open-meteo',
        fields: held.fields,
        measured: held.fields.filter((field) => held.measured.has(field)),
        modelled_at: held.current ? new Date(held.current.timeMs).toISOString() : null,
        last_error: held.failures > 0 ? (held.lastError ?? null) : null,
      },
    };
  }

  stats(): Readonly<GapFillCounters> {
    return this.counters;
  }
}
