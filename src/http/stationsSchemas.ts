/** Response and query schemas of the status page's endpoints (GET /v1/stations…); they also document them in /openapi.json. */
import { errorEnvelopeSchema } from './schemas.js';
import { DEFAULT_HISTORY_HOURS, DEFAULT_HISTORY_STEP, MAX_HISTORY_HOURS, MAX_HISTORY_POINTS, MAX_STEP_MINUTES, STEP_PATTERN } from './stationsSeries.js';

const nullableString = { type: ['string', 'null'] } as const;
const nullableNumber = { type: ['number', 'null'] } as const;
const nullableNumbers = { type: 'array', items: nullableNumber } as const;

const summaryProperties = {
  id: { type: 'string', description: 'Station id from the configuration.' },
  name: { type: 'string' },
  index: { type: ['integer', 'null'], description: 'Current Mowability Index 0-100; null before the first calculation or when required fields are missing.' },
  status: { ...nullableString, description: 'OK, WARNING or BLOCK; null like index.' },
  mowable: { type: ['boolean', 'null'], description: 'The published mowable flag (index with hysteresis and holds); null before the first calculation.' },
  mowable_reason: { ...nullableString, description: 'Why mowable is what it is (English).' },
  last_reading_at: { ...nullableString, description: 'Time of the last accepted reading (ISO 8601, UTC).' },
  last_reading_age_seconds: { type: ['integer', 'null'] },
  availability: { type: 'string', enum: ['online', 'offline'], description: "offline when the last reading is older than the station's freshness limit." },
  origin: { type: 'string', enum: ['measured', 'modelled'], description: 'modelled: a station without hardware whose readings come from Open-Meteo (format "open-meteo", docs/model.md).' },
} as const;
const summaryRequired = Object.keys(summaryProperties);

const stationSummarySchema = { type: 'object', required: summaryRequired, properties: summaryProperties } as const;

const stationDetailSchema = {
  type: 'object',
  required: [...summaryRequired, 'data_quality', 'missing_fields', 'withheld_fields', 'limiting_check', 'checks', 'error', 'forecast', 'last_upload_refused', 'source_message', 'rain_source'],
  properties: {
    ...summaryProperties,
    last_upload_refused: {
      type: ['object', 'null'],
      required: ['at', 'protocol', 'reason', 'count'],
      properties: { at: { type: 'string' }, protocol: { type: 'string' }, reason: { type: 'string' }, count: { type: 'integer' } },
      description: 'The last refused upload (time, protocol, reason, how many since) while no reading was accepted after it; null otherwise.',
    },
    data_quality: { ...nullableString, description: 'full, partial or minimal; modelled for a modelled station.' },
    source_message: { ...nullableString, description: "A modelled station's provider status in words (e.g. no data yet, provider unreachable); null for measured stations." },
    rain_source: { type: ['string', 'null'], enum: ['gauge', 'model', null], description: 'Where the rain comes from: the station\'s gauge, or the model (a modelled station, or gapFill.rain "model" for a broken gauge); null while unknown.' },
    missing_fields: { type: 'array', items: { type: 'string' } },
    withheld_fields: { type: 'object', additionalProperties: { type: 'string' }, description: 'Fields held but not supplied (stale, history not covering the window), with the reason.' },
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
      required: ['message', 'missing'],
      properties: { message: { type: 'string' }, missing: { type: 'array', items: { type: 'string' } } },
      description: 'Why no index could be calculated (required fields missing); null otherwise.',
    },
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
        hours: { type: 'array', items: { type: 'object', required: ['time', 'index'], properties: { time: { type: 'string' }, index: { type: 'number' } } } },
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
    hours: { type: 'integer', minimum: 1, maximum: MAX_HISTORY_HOURS, default: DEFAULT_HISTORY_HOURS, description: 'How far back, in hours.' },
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
        index: { ...nullableNumbers, description: 'Last index calculated in the step (kept in memory: empty after a restart).' },
        rain_mm: { ...nullableNumbers, description: 'Rain in the step, mm (stored); null where no reading reported rain.' },
        temperature: { ...nullableNumbers, description: '°C: mean of the readings (in memory), else the lowest stored minute temperature.' },
        dew_point: { ...nullableNumbers, description: '°C: reported, or from temperature and humidity (in memory).' },
        humidity: { ...nullableNumbers, description: '% (in memory).' },
      },
    },
  }),
  ...errors,
} as const;
