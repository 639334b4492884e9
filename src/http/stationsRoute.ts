/**
 * GET /v1/stations, /v1/stations/{id} and /v1/stations/{id}/history: what
 * the status page shows, for any client. In the /v1 scope; access follows
 * http.statusPage (open, or an API key as Bearer header, checked by the
 * scope's hook); the routes do not exist when it is off. Answers use the
 * API's envelope; errors go through ./errors.ts. Compressed and with the
 * page's headers, like the page that reads them.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { StatusPageAccess } from '../config/serviceSchema.js';
import { MINUTE_MS, minuteOf } from '../history/windows.js';
import type { Clock } from '../util/clock.js';
import { API_KEYS_PLUGIN } from './auth.js';
import { HttpError } from '../util/httpError.js';
import { API_PREFIX } from './paths.js';
import { addPageResponseHandling } from './statusPage.js';
import { errorEnvelopeSchema } from './schemas.js';
import { lawnMowerSummariesSchema, mowerSummarySchema } from './mowerSummary.js';
import {
  DEFAULT_HISTORY_HOURS,
  DEFAULT_HISTORY_STEP,
  MAX_HISTORY_HOURS,
  MAX_HISTORY_POINTS,
  MAX_STEP_MINUTES,
  STEP_PATTERN,
  downsample,
  parseHistoryQuery,
  stepGrid,
} from './stationsSeries.js';
import { planNotifySchema, planSummarySchema } from './planView.js';
import { detail, summarize, type StationsView } from './stationsView.js';

/* Response and query schemas of the endpoints; they also document them in /openapi.json. */
const nullableString = { type: ['string', 'null'] } as const;
const nullableNumber = { type: ['number', 'null'] } as const;
const nullableNumbers = { type: 'array', items: nullableNumber } as const;

const summaryProperties = {
  id: { type: 'string', description: 'Station id from the configuration.' },
  name: { type: 'string' },
  index: {
    type: ['integer', 'null'],
    description: 'Current Mowability Index 0-100; null before the first calculation or when required fields are missing.',
  },
  status: { ...nullableString, description: 'OK, WARNING or BLOCK; null like index.' },
  mowable: {
    type: ['boolean', 'null'],
    description: 'The published mowable flag (index with hysteresis and holds); null before the first calculation.',
  },
  mowable_reason: { ...nullableString, description: 'Why mowable is what it is (English).' },
  mowable_reason_de: { ...nullableString, description: 'The same in German (the language of the model reasons), for the German page.' },
  last_reading_at: { ...nullableString, description: 'Time of the last accepted reading (ISO 8601, UTC).' },
  last_reading_age_seconds: { type: ['integer', 'null'] },
  availability: {
    type: 'string',
    enum: ['online', 'offline'],
    description: "offline when the last reading is older than the station's freshness limit.",
  },
  origin: {
    type: 'string',
    enum: ['measured', 'modelled'],
    description: 'modelled: a station without hardware whose readings come from Open-Meteo (format "open-meteo", docs/model.md).',
  },
  topics_heard: {
    type: ['object', 'null'],
    required: ['subscribed', 'seen'],
    properties: { subscribed: { type: 'string' }, seen: { type: 'array', items: { type: 'string' } } },
    description:
      'A station silent for 5 minutes while the embedded broker saw publishes under the same first topic level: its topic filter and the topics seen (the most recent last); null otherwise.',
  },
  forecast_problem: {
    type: ['string', 'null'],
    description:
      'Why the forecast cannot be fetched when it is a setting to fix (state `forecast_problem`, English, naming the setting); null otherwise.',
  },
  plan_notify: planNotifySchema,
} as const;
const summaryRequired = Object.keys(summaryProperties);

const stationSummarySchema = { type: 'object', required: summaryRequired, properties: summaryProperties } as const;

const stationDetailSchema = {
  type: 'object',
  required: [
    ...summaryRequired,
    'data_quality',
    'missing_fields',
    'withheld_fields',
    'data_gaps',
    'limiting_check',
    'checks',
    'error',
    'forecast',
    'last_upload_refused',
    'source_message',
    'source_status',
    'source_error',
    'source_since',
    'rain_source',
    'mower',
    'lawn_mowers',
    'plan',
  ],
  properties: {
    ...summaryProperties,
    mower: mowerSummarySchema,
    lawn_mowers: lawnMowerSummariesSchema,
    last_upload_refused: {
      type: ['object', 'null'],
      required: ['at', 'protocol', 'outcome', 'reason', 'count'],
      properties: {
        at: { type: 'string' },
        protocol: { type: 'string' },
        outcome: {
          type: 'string',
          description:
            "Why, as a code: missing_credentials, unknown_passkey, unknown_station_id, wrong_password, unparsable, rejected or not_running (the upload counters' outcomes); empty when unknown.",
        },
        reason: { type: 'string', description: 'Why, in English words (for unparsable: which field or date could not be read).' },
        count: { type: 'integer' },
      },
      description:
        'The last refused upload (time, protocol, outcome code, reason, how many since) while no reading was accepted after it; null otherwise.',
    },
    data_quality: { ...nullableString, description: 'full, partial or minimal; modelled for a modelled station.' },
    source_message: {
      ...nullableString,
      description:
        "A modelled station's provider status in English words (e.g. no data yet, provider unreachable); null for measured stations.",
    },
    source_status: {
      type: ['string', 'null'],
      description:
        'The code of source_message: waiting, ok, no_data_provider_unreachable or provider_unreachable; null for measured stations.',
    },
    source_error: { ...nullableString, description: "A modelled station's last provider error (English, technical), or null." },
    source_since: {
      ...nullableString,
      format: 'date-time',
      description: "Since when a modelled station's provider has not answered, or null while it answers.",
    },
    rain_source: {
      type: ['string', 'null'],
      enum: ['gauge', 'model', null],
      description:
        'Where the rain comes from: the station\'s gauge, or the model (a modelled station, or gapFill.rain "model" for a broken gauge); null while unknown.',
    },
    missing_fields: { type: 'array', items: { type: 'string' } },
    withheld_fields: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'Fields held but not supplied (stale, history not covering the window), with the reason.',
    },
    data_gaps: {
      type: 'object',
      required: ['history', 'not_current', 'not_reported'],
      description:
        'The missing fields grouped by why, for one sentence: history windows not covered yet, current values held back, fields the station does not report.',
      properties: {
        history: {
          type: ['object', 'null'],
          required: ['kinds', 'covered_minutes', 'needed_minutes', 'covered_percent', 'required_percent', 'fields'],
          properties: {
            kinds: { type: 'array', items: { type: 'string', enum: ['rain', 'temperature'] } },
            covered_minutes: { type: 'integer', description: 'How long the readings cover so far.' },
            needed_minutes: { type: 'integer', description: 'The longest window still needed.' },
            covered_percent: { type: 'integer', description: 'How much of that window is covered.' },
            required_percent: { type: 'integer', description: 'The share a window needs before it is used.' },
            fields: { type: 'array', items: { type: 'string' } },
          },
        },
        not_current: { type: 'array', items: { type: 'string' }, description: 'Current values held back (too old, or none yet).' },
        not_reported: { type: 'array', items: { type: 'string' }, description: 'Fields the station does not report.' },
      },
    },
    limiting_check: nullableString,
    checks: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'executed', 'status', 'score', 'reasons', 'skipped_reason'],
        properties: {
          name: { type: 'string', description: 'temperature, soiltemp, rain, wind or humidity.' },
          executed: { type: 'boolean' },
          status: nullableString,
          score: { type: ['integer', 'null'] },
          reasons: { type: 'array', items: { type: 'string' }, description: 'German texts; may contain <b> markup.' },
          skipped_reason: nullableString,
        },
      },
    },
    error: {
      type: ['object', 'null'],
      required: ['code', 'message', 'missing'],
      properties: {
        code: {
          ...nullableString,
          description:
            "Why, as a code for a sentence in the reader's language: MISSING_REQUIRED_FIELDS (then `missing` names them); null when the state carried none.",
        },
        message: { type: 'string', description: 'The same in English (technical).' },
        missing: { type: 'array', items: { type: 'string' } },
      },
      description: 'Why no index could be calculated (required fields missing); null otherwise.',
    },
    plan: planSummarySchema,
    forecast: {
      type: ['object', 'null'],
      description: "The forecast unit's view when a forecast is configured; null otherwise.",
      required: ['available', 'next_window', 'rain_expected_in_minutes', 'hours'],
      properties: {
        available: { type: 'boolean', description: 'false while no forecast has been received: the page says "forecast unavailable".' },
        next_window: {
          type: ['object', 'null'],
          required: ['start', 'end', 'min_index'],
          properties: { start: { type: 'string' }, end: { type: 'string' }, min_index: nullableNumber },
        },
        rain_expected_in_minutes: nullableNumber,
        hours: {
          type: 'array',
          items: { type: 'object', required: ['time', 'index'], properties: { time: { type: 'string' }, index: { type: 'number' } } },
        },
      },
    },
  },
} as const;

const envelope = (properties: Record<string, unknown>) =>
  ({
    type: 'object',
    required: ['status', 'message', 'generated_at', ...Object.keys(properties)],
    properties: {
      status: { type: 'string', enum: ['ok'] },
      message: { type: 'string', description: 'Empty on success.' },
      generated_at: { type: 'string', description: 'Server time of the answer (ISO 8601, UTC); ages are relative to it.' },
      ...properties,
    },
  }) as const;

const errors = { '4xx': errorEnvelopeSchema, '5xx': errorEnvelopeSchema } as const;

export const stationIdParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', maxLength: 64 } } } as const;

export const stationsListResponses = { 200: envelope({ stations: { type: 'array', items: stationSummarySchema } }), ...errors } as const;
export const stationDetailResponses = { 200: envelope({ station: stationDetailSchema }), ...errors } as const;

export const historyQuerySchema = {
  type: 'object',
  properties: {
    hours: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_HISTORY_HOURS,
      default: DEFAULT_HISTORY_HOURS,
      description: 'How far back, in hours.',
    },
    step: {
      type: 'string',
      pattern: STEP_PATTERN,
      default: DEFAULT_HISTORY_STEP,
      description: `Width of one point: minutes (10m) or hours (1h), at most ${MAX_STEP_MINUTES / 60}h; at most ${MAX_HISTORY_POINTS} points.`,
    },
  },
} as const;

export const historyResponses = {
  200: envelope({
    history: {
      type: 'object',
      required: ['station', 'step_minutes', 'from', 'to', 'time', 'index', 'rain_mm', 'temperature', 'dew_point', 'humidity'],
      properties: {
        station: { type: 'string' },
        step_minutes: { type: 'integer' },
        from: { type: 'string', description: 'Start of the first step (ISO 8601, UTC).' },
        to: { type: 'string', description: 'End of the last step.' },
        time: { type: 'array', items: { type: 'integer' }, description: 'Start of each step, epoch seconds.' },
        index: {
          ...nullableNumbers,
          description: 'Last index calculated in the step (per minute in memory; per 10-minute slot across a restart).',
        },
        rain_mm: { ...nullableNumbers, description: 'Rain in the step, mm (stored); null where no reading reported rain.' },
        temperature: {
          ...nullableNumbers,
          description: '°C: mean of the readings (in memory), else the lowest stored minute temperature.',
        },
        dew_point: { ...nullableNumbers, description: '°C: reported, or from temperature and humidity (in memory).' },
        humidity: { ...nullableNumbers, description: '% (in memory).' },
      },
    },
  }),
  ...errors,
} as const;

export const STATIONS_PATH = `${API_PREFIX}/stations`;
/** The same paths inside the /v1 scope. */
const ROUTE = STATIONS_PATH.slice(API_PREFIX.length);
export const STATION_MESSAGES = { unknownStation: 'Unknown station. GET /v1/stations lists the configured ones.' } as const;

const ACCESS_DOC: Record<StatusPageAccess, string> = {
  open: 'No API key (http.statusPage is open).',
  key: 'Needs an enabled API key as Bearer header (http.statusPage is key).',
  off: '',
};

export interface StationsOptions {
  view: StationsView;
  mode: StatusPageAccess;
  clock: Clock;
}

function stationOf(view: StationsView, request: FastifyRequest): { id: string; name: string } {
  const { id } = request.params as { id: string };
  const station = view.stations().find((candidate) => candidate.id === id);
  if (!station) throw new HttpError(404, STATION_MESSAGES.unknownStation);
  return station;
}

async function stationsRoutes(app: FastifyInstance, deps: StationsOptions): Promise<void> {
  if (deps.mode === 'off') return;
  const { view, clock } = deps;
  await addPageResponseHandling(app);
  // The open page is read by anyone: holds give their public reason (docs/api.md, "Status page endpoints").
  const open = deps.mode === 'open';
  // With a key: a Bearer header only, as a key in a URL would land in browser history and proxy logs.
  const config = { access: open ? ('open' as const) : ('bearer' as const) };
  // For /openapi.json: whether a key is needed depends on http.statusPage.
  const docs = (summary: string, description: string) => ({
    summary,
    description: `${description} ${ACCESS_DOC[deps.mode]}`,
    security: deps.mode === 'key' ? [{ bearerAuth: [] }] : [],
  });
  const ok = (nowMs: number) => ({ status: 'ok' as const, message: '', generated_at: new Date(nowMs).toISOString() });

  app.get(
    ROUTE,
    {
      schema: {
        ...docs('Stations', 'Every configured station with its current index, mowable flag, last reading and availability.'),
        response: stationsListResponses,
      },
      config,
    },
    async () => {
      const nowMs = clock.now();
      return { ...ok(nowMs), stations: view.stations().map((station) => summarize(view, station, nowMs, open)) };
    },
  );

  app.get(
    `${ROUTE}/:id`,
    {
      schema: {
        ...docs(
          'One station',
          "The station's summary plus its five checks with German reasons, data quality, missing fields and forecast (when a forecast is configured).",
        ),
        params: stationIdParams,
        response: stationDetailResponses,
      },
      config,
    },
    async (request) => {
      const nowMs = clock.now();
      return { ...ok(nowMs), station: detail(view, stationOf(view, request), nowMs, open) };
    },
  );

  app.get(
    `${ROUTE}/:id/history`,
    // attachValidation: the handler answers a bad query with a message naming the rules, not a bare "Bad request."
    {
      schema: {
        ...docs(
          'Station history',
          'Series for charts, downsampled on the server from the minute history: one value per step for index, rain, temperature, dew point and humidity.',
        ),
        params: stationIdParams,
        querystring: historyQuerySchema,
        response: historyResponses,
      },
      attachValidation: true,
      config,
    },
    async (request) => {
      const station = stationOf(view, request);
      // The schema documents the query; this check (run whether or not the schema accepted it) words the answer.
      const { hours, step } = request.query as { hours?: unknown; step?: unknown };
      const query = parseHistoryQuery(hours, step);
      if (!query.ok) throw new HttpError(400, query.message);
      const nowMs = clock.now();
      const grid = stepGrid(minuteOf(nowMs), query.hours, query.stepMinutes);
      const endMinute = grid.firstMinute + grid.points * grid.stepMinutes;
      const buckets = view.buckets(station.id, grid.firstMinute * MINUTE_MS, endMinute * MINUTE_MS - 1);
      const series = downsample(grid, buckets, (visit) => view.forEachMinute(station.id, grid.firstMinute, endMinute, visit));
      return {
        ...ok(nowMs),
        history: {
          station: station.id,
          step_minutes: grid.stepMinutes,
          from: new Date(grid.firstMinute * MINUTE_MS).toISOString(),
          to: new Date(endMinute * MINUTE_MS).toISOString(),
          ...series,
        },
      };
    },
  );
}

/** Encapsulated (its compression and headers stay its own), and only in the /v1 scope (after the key hook). */
export const stationsPlugin = fp(stationsRoutes, { name: 'mowability-stations', encapsulate: true, dependencies: [API_KEYS_PLUGIN] });
