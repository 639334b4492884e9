/**
 * GET /v1/stations/{id}/forecast: a station's forecast index and mowing
 * windows (docs/api.md), with the envelope and API keys of /v1/calculate. A
 * Bearer key works for every enabled key; api_key in the query only for keys
 * enabled for GET (it lands in URLs and logs). The forecast unit's `routes`
 * (./forecastModule.ts): the HTTP side registers it in the /v1 scope behind the
 * key hook like every unit route; the forecast comes from `forecastOf`.
 */
import type { UnitRoute } from '../station/unitRoute.js';
import type { Clock } from '../util/clock.js';
import { errorEnvelopeSchema, HttpError } from '../util/httpError.js';
import type { ForecastSource } from './forecastReport.js';

export const FORECAST_MESSAGES = {
  unknownStation: 'Unknown station.',
  notConfigured: 'No forecast is configured for this station (set "forecast" in its station settings).',
  // Only before the forecast unit has started: the daemon starts the station side and its units before HTTP listens,
  // so a listening daemon says this only while an embedding app starts; MQTT plays no part (./forecastModule.ts).
  unavailable:
    'The forecast is not available yet: the station side is still starting. Retry after the time given in the Retry-After header.',
} as const;

/** Seconds a client waits before asking again for a forecast that is not available yet (Retry-After). */
export const FORECAST_RETRY_AFTER_SECONDS = 5;

const nullableString = { type: ['string', 'null'] } as const;
const windowSchema = {
  type: 'object',
  required: ['start', 'end', 'min_index'],
  properties: {
    start: { type: 'string', description: 'ISO 8601 UTC; now when the window is already open.' },
    end: { type: 'string', description: 'ISO 8601 UTC; the end of the last OK hour.' },
    min_index: { type: 'integer', description: 'Lowest projected index within the window.' },
  },
} as const;
const hourSchema = {
  type: 'object',
  required: ['time', 'end', 'index', 'status', 'rain_mm', 'rain_expected', 'limiting_check', 'input', 'input_source'],
  properties: {
    time: { type: 'string', description: 'Start of the hour (now for the first one), ISO 8601 UTC.' },
    end: { type: 'string', description: 'End of the hour, ISO 8601 UTC.' },
    index: { type: ['integer', 'null'], description: 'Projected index 0-100; null when the forecast lacks a required field.' },
    status: { ...nullableString, description: 'OK, WARNING or BLOCK.' },
    rain_mm: { type: 'number', description: 'Expected rain in the hour: probability × amount (docs/model.md).' },
    rain_expected: { type: 'boolean', description: 'Expected rain of 0.2 mm or more.' },
    limiting_check: { ...nullableString, description: 'The worst check of the hour.' },
    input: { type: 'object', additionalProperties: { type: 'number' }, description: 'The projected calculation input.' },
    input_source: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'Per field: observed, forecast or combined (observed history plus forecast).',
    },
  },
} as const;
export const forecastResultSchema = {
  type: 'object',
  required: [
    'source',
    'available',
    'fetched_at',
    'age_minutes',
    'stale',
    'min_job_minutes',
    'next_window',
    'mowable_for_minutes',
    'rain_expected_in_minutes',
    'attribution',
    'windows',
    'hours',
  ],
  properties: {
    source: { type: 'string', description: 'open-meteo or mqtt.' },
    available: {
      type: 'boolean',
      description:
        'false until the first forecast arrives (provider never reached): next_window, mowable_for_minutes and rain_expected_in_minutes are then null (unknown).',
    },
    fetched_at: { ...nullableString, description: 'When the forecast was fetched or received; null before the first one.' },
    age_minutes: { type: ['integer', 'null'], description: 'Minutes since fetched_at.' },
    stale: { type: 'boolean', description: 'No forecast yet, or older than 3 fetch intervals: shown, but not used to hold mowable off.' },
    min_job_minutes: { type: 'integer', description: 'Shortest run of OK hours that counts as a window.' },
    next_window: { anyOf: [windowSchema, { type: 'null' }], description: 'The first window within 48 h; null when none.' },
    mowable_for_minutes: {
      type: ['integer', 'null'],
      description:
        'How long mowing stays possible from now (OK index, outside quiet hours, before the rain lead); 0 when not now; null while no forecast has been received (unknown).',
    },
    rain_expected_in_minutes: {
      type: ['integer', 'null'],
      description: 'Minutes until the first hour with rain expected; null when none within 48 h.',
    },
    attribution: { ...nullableString, description: 'The data licence to show with the data (Open-Meteo: CC BY 4.0).' },
    windows: { type: 'array', items: windowSchema, description: 'Every window within 48 h.' },
    hours: { type: 'array', items: hourSchema, description: 'Up to 48 projected hours.' },
  },
} as const;

const forecastResponses = {
  200: {
    type: 'object',
    required: ['status', 'mfi', 'message'],
    properties: { status: { type: 'string', enum: ['ok'] }, mfi: forecastResultSchema, message: { type: 'string' } },
  },
  '4xx': errorEnvelopeSchema,
  '5xx': errorEnvelopeSchema,
} as const;

/** The route over a forecast source, answering at `clock`'s now. */
export function forecastRoutes(forecastOf: ForecastSource, clock: Clock): readonly UnitRoute[] {
  return [
    {
      url: '/stations/:id/forecast',
      schema: {
        summary: "A station's forecast index and mowing windows",
        description:
          'Requires an API key (Bearer: any enabled key; api_key query: keys enabled for GET). 404 for an unknown station or one without a forecast setting.',
        params: { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[a-zA-Z0-9_-]{1,64}$' } } },
        security: [{ bearerAuth: [] }, { apiKeyQuery: [] }],
        response: forecastResponses,
      },
      // The scope's key hook runs before params validation, so an unauthenticated request learns nothing about station ids.
      access: 'bearerOrGetKey',
      answer: ({ params }) => {
        const forecast = forecastOf(params.id ?? '', clock.now());
        if (forecast === 'unknown_station') throw new HttpError(404, FORECAST_MESSAGES.unknownStation);
        if (forecast === 'not_configured') throw new HttpError(404, FORECAST_MESSAGES.notConfigured);
        if (forecast === 'unavailable')
          throw new HttpError(503, FORECAST_MESSAGES.unavailable, { 'retry-after': String(FORECAST_RETRY_AFTER_SECONDS) });
        return { status: 'ok', mfi: forecast, message: '' };
      },
    },
  ];
}
