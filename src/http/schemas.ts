/**
 * Response schemas. Every response is serialised through one of these, so a
 * field that is not declared here never reaches a client. Check meta,
 * skipped_parts and protocol entries are left open: their exact content is
 * internal to the calculation core and not part of the contract.
 */
const nullableString = { type: ['string', 'null'] } as const;
const openObject = { type: 'object', additionalProperties: true } as const;

export const errorEnvelopeSchema = {
  type: 'object',
  required: ['status', 'mfi', 'message'],
  properties: {
    status: { type: 'string' },
    mfi: { type: 'null' },
    message: { type: 'string' },
  },
} as const;

const checkSchema = {
  type: 'object',
  required: ['executed', 'status', 'score', 'data_confidence', 'reasons', 'skipped_parts', 'meta'],
  properties: {
    executed: { type: 'boolean' },
    skipped_reason: { type: 'string' },
    status: nullableString,
    score: { type: ['integer', 'null'] },
    data_confidence: nullableString,
    reasons: { type: 'array', items: { type: 'string' } },
    skipped_parts: openObject,
    meta: openObject,
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
    mfi_version: { type: 'string' },
    season: { type: 'string' },
    season_source: { type: 'string' },
    index_score: { type: 'integer' },
    main_status: { type: 'string' },
    data_quality: { type: 'string' },
    score_basis: {
      type: 'object',
      required: ['checks_used', 'checks_total', 'limiting_check'],
      properties: {
        checks_used: { type: 'integer' },
        checks_total: { type: 'integer' },
        limiting_check: nullableString,
      },
    },
    available_fields: { type: 'array', items: { type: 'string' } },
    missing_fields: { type: 'array', items: { type: 'string' } },
    checks: {
      type: 'object',
      properties: {
        temperature: checkSchema,
        soiltemp: checkSchema,
        rain: checkSchema,
        wind: checkSchema,
        humidity: checkSchema,
      },
    },
    protocol: {
      type: 'object',
      required: ['skipped_checks', 'partial_checks'],
      properties: {
        skipped_checks: { type: 'array', items: openObject },
        partial_checks: { type: 'array', items: openObject },
        calculation_error: { type: 'string' },
      },
    },
    rain_source_info: {
      type: 'object',
      required: ['windows_used', 'cumulative_source', 'not_provided', 'note'],
      properties: {
        windows_used: { type: 'array', items: { type: 'string' } },
        cumulative_source: { type: 'string' },
        not_provided: { type: 'array', items: { type: 'string' } },
        note: { type: 'string' },
      },
    },
    calculated_at: { type: 'string' },
  },
} as const;

const componentSchema = {
  type: 'object',
  required: ['status'],
  properties: { status: { type: 'string' }, message: { type: 'string' } },
} as const;

export const healthResultSchema = {
  type: 'object',
  required: ['status', 'maintenance_mode', 'mfi_version', 'checks', 'response_time_ms'],
  properties: {
    status: { type: 'string' },
    maintenance_mode: { type: 'boolean' },
    mfi_version: nullableString,
    checks: {
      type: 'object',
      required: ['database', 'maintenance', 'config'],
      // mqtt: only when MQTT is enabled; informational, it never decides the HTTP status.
      properties: { database: componentSchema, maintenance: componentSchema, config: componentSchema, mqtt: componentSchema },
    },
    response_time_ms: { type: 'integer' },
  },
} as const;

function envelope(mfi: object) {
  return {
    type: 'object',
    required: ['status', 'mfi', 'message'],
    properties: { status: { type: 'string' }, mfi, message: { type: 'string' } },
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
