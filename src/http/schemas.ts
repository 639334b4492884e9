/**
 * Response schemas. Every response is serialised through one of these, so a
 * field that is not declared here never reaches a client. Check meta,
 * skipped_parts and protocol entries are left open: their exact content is
 * internal to the calculation core and not part of docs/api.md.
 */
import { CHECK_NAMES } from '../core/vocabulary.js';

const nullableString = { type: ['string', 'null'] } as const;
const openObject = { type: 'object', additionalProperties: true } as const;

// The one error envelope's schema sits beside HttpError, so a station unit's route can declare it too.
import { errorEnvelopeSchema } from '../util/httpError.js';

export { errorEnvelopeSchema };

const checkSchema = {
  type: 'object',
  required: ['executed', 'status', 'score', 'data_confidence', 'reasons', 'skipped_parts', 'meta'],
  properties: {
    executed: { type: 'boolean', description: 'false if required input was missing and the check was skipped.' },
    skipped_reason: { type: 'string', description: 'English reason; present only when executed is false.' },
    status: { ...nullableString, description: 'OK, WARNING or BLOCK; null when skipped.' },
    score: { type: ['integer', 'null'], description: 'Check-internal score 0-100; null when skipped.' },
    data_confidence: { ...nullableString, description: 'high or medium (rain also low); null when skipped.' },
    reasons: {
      type: 'array',
      items: { type: 'string' },
      description: 'German explanation texts; may contain simple HTML such as <b> and <br>.',
    },
    skipped_parts: { ...openObject, description: 'Sub-evaluations not computed for lack of data (empty object if none).' },
    meta: { ...openObject, description: 'Internal calculation data and the input values used.' },
  },
} as const;

export const calculationResultSchema = {
  type: 'object',
  required: [
    'mfi_version',
    'season',
    'season_source',
    'index_score',
    'main_status',
    'data_quality',
    'score_basis',
    'available_fields',
    'missing_fields',
    'checks',
    'protocol',
    'calculated_at',
  ],
  properties: {
    mfi_version: { type: 'string', description: 'Version of the calculation logic.' },
    season: { type: 'string', description: 'spring, summer, autumn or winter.' },
    season_source: {
      type: 'string',
      description: "'auto' (from the server's month) or 'manual' (forced via the season input, debug/test only).",
    },
    index_score: { type: 'integer', description: 'Overall index 0-100; higher means better mowing conditions.' },
    main_status: { type: 'string', description: 'OK (score 70 or more), WARNING (40 to 69), BLOCK (below 40).' },
    data_quality: { type: 'string', description: 'full, partial or minimal.' },
    score_basis: {
      type: 'object',
      description: 'Which checks entered the score; the limiting (worst) check dominates it.',
      required: ['checks_used', 'checks_total', 'limiting_check'],
      properties: {
        checks_used: { type: 'integer', description: 'Number of checks that entered the score.' },
        checks_total: { type: 'integer', description: 'Number of possible checks.' },
        limiting_check: { ...nullableString, description: 'The worst check.' },
      },
    },
    available_fields: { type: 'array', items: { type: 'string' }, description: 'Received and valid input field names.' },
    missing_fields: { type: 'array', items: { type: 'string' }, description: 'Input field names not supplied or invalid (out of range).' },
    checks: {
      type: 'object',
      description: 'Results per check (up to five).',
      properties: Object.fromEntries(CHECK_NAMES.map((name) => [name, checkSchema])),
    },
    protocol: {
      type: 'object',
      description: 'Diagnostics.',
      required: ['skipped_checks', 'partial_checks'],
      properties: {
        skipped_checks: { type: 'array', items: openObject, description: 'Checks skipped entirely.' },
        partial_checks: { type: 'array', items: openObject, description: 'Checks with omitted sub-analyses.' },
        calculation_error: { type: 'string', description: 'Present only on an internal calculation failure.' },
      },
    },
    rain_source_info: {
      type: 'object',
      description: 'Present only if at least one of rain_1h, rain_12h, rain_24h was supplied.',
      required: ['windows_used', 'cumulative_source', 'not_provided', 'note'],
      properties: {
        windows_used: { type: 'array', items: { type: 'string' }, description: 'Rain windows used.' },
        cumulative_source: { type: 'string', description: 'Window giving the cumulative soil load (the broadest supplied).' },
        not_provided: { type: 'array', items: { type: 'string' }, description: 'Windows not supplied.' },
        note: { type: 'string', description: 'English explanation of how the windows are combined.' },
      },
    },
    calculated_at: { type: 'string', description: 'Calculation time, YYYY-MM-DD HH:MM:SS in the configured time zone.' },
  },
} as const;

const componentSchema = {
  type: 'object',
  required: ['status'],
  properties: {
    status: {
      type: 'string',
      description:
        "database, config: 'ok' or 'error'; maintenance: 'inactive' or 'active'; mqtt: 'ok', 'starting' or 'error'; store, rate_limit_store: 'ok', 'degraded' (away for less than store.outageGraceSeconds) or 'error'.",
    },
    message: { type: 'string', description: 'Present on a failing component, e.g. a database query failure text.' },
    code: {
      type: 'string',
      description:
        'mqtt only: what is the matter, one word for a page in any language (broker_not_listening, bridge_not_running, starting, not_connected, access_limited, connected); the message says it in English.',
    },
  },
} as const;

/** checks.clock: informational, it never decides the HTTP status (docs/api.md, health). */
const clockCheckSchema = {
  type: 'object',
  required: ['status', 'steps'],
  properties: {
    status: {
      type: 'string',
      description: "'synchronized' (NTP has set the clock), 'unsynchronized' (not yet) or 'unknown' (no systemd-timesyncd marker).",
    },
    steps: { type: 'integer', description: 'Steps of the wall clock seen since the start.' },
    last_step_ms: { type: 'integer', description: 'Size of the last step in ms, positive forward, negative back; present after a step.' },
    message: { type: 'string', description: 'Present while the clock is not synchronised or after a step.' },
  },
} as const;

export const healthResultSchema = {
  type: 'object',
  required: ['status', 'maintenance_mode', 'mfi_version', 'checks', 'response_time_ms'],
  properties: {
    status: { type: 'string', description: 'ok, error or maintenance.' },
    maintenance_mode: { type: 'boolean', description: 'true when maintenance mode is active.' },
    mfi_version: { ...nullableString, description: 'Version of the calculation logic; null when the database check fails.' },
    checks: {
      type: 'object',
      description: 'Component states.',
      required: ['database', 'maintenance', 'config'],
      // mqtt: only when MQTT is enabled; mqtt and clock are informational, they never decide the HTTP status.
      // store, rate_limit_store: only with a shared PostgreSQL / Redis (docs/deployment.md).
      properties: {
        database: componentSchema,
        maintenance: componentSchema,
        config: componentSchema,
        mqtt: componentSchema,
        store: componentSchema,
        rate_limit_store: componentSchema,
        clock: clockCheckSchema,
      },
    },
    response_time_ms: { type: 'integer', description: 'Server-internal processing time in milliseconds.' },
  },
} as const;

/** The response envelope of every endpoint; mfi is the endpoint's payload. */
export function envelope(mfi: object) {
  return {
    type: 'object',
    required: ['status', 'mfi', 'message'],
    properties: {
      status: {
        type: 'string',
        description: "'ok' on success, 'error' on failure, 'maintenance' when maintenance mode is active (health only).",
      },
      mfi,
      message: { type: 'string', description: 'Empty string on success; an English message otherwise.' },
    },
  } as const;
}

export const calculateResponses = {
  200: envelope(calculationResultSchema),
  '4xx': errorEnvelopeSchema,
  '5xx': errorEnvelopeSchema,
} as const;

export const healthResponses = {
  200: envelope(healthResultSchema),
  // Maintenance and failed checks carry the health result; a request during shutdown carries null.
  503: envelope({ ...healthResultSchema, type: ['object', 'null'] }),
  '4xx': errorEnvelopeSchema,
  '5xx': errorEnvelopeSchema,
} as const;
