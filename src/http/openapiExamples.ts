/**
 * Example responses for the OpenAPI document, taken from real answers of this
 * service (POST /v1/calculate with the example input of ./openapiDocs.ts;
 * GET /health). Shortened where the contract leaves content open (meta, and
 * only two of the five checks shown).
 */
import { MESSAGES } from './errors.js';

export const calculateOkExample = {
  status: 'ok',
  mfi: {
    mfi_version: '1.0.0',
    season: 'summer',
    season_source: 'auto',
    index_score: 95,
    main_status: 'OK',
    data_quality: 'partial',
    score_basis: { checks_used: 5, checks_total: 5, limiting_check: 'humidity' },
    available_fields: ['temperature', 'precipitation_rate', 'humidity', 'wind_speed', 'soil_temperature', 'rain_1h', 'rain_24h'],
    missing_fields: ['wind_gusts', 'dew_point', 'solar', 'soil_moisture', 'rain_12h', 'rain_14d', 'minutes_since_rain', 'min_temp_3h', 'min_temp_3d', 'min_temp_14d'],
    checks: {
      wind: {
        executed: true,
        status: 'OK',
        score: 100,
        data_confidence: 'medium',
        reasons: ['Wind 12 km/h (Bft 3), Böen geschätzt 18 km/h – unkritisch.'],
        skipped_parts: {},
        meta: { wind: 12, gust: 18, season: 'summer' },
      },
      humidity: {
        executed: true,
        status: 'OK',
        score: 94,
        data_confidence: 'medium',
        reasons: ['Taupunktdifferenz 6,7 K (Luftfeuchte 65 %) – keine Taubildung, Halme trocken.'],
        skipped_parts: { sun_drying: { reason: 'No solar irradiance; active drying by the sun cannot be credited.', missing: ['solar'] } },
        meta: { humidity: 65, temperature: 18.5, season: 'summer', dew_point_depression: 6.71, drying_potential: 0.44 },
      },
    },
    protocol: {
      skipped_checks: [],
      partial_checks: [
        { check: 'temperature', parts: ['frost_history'] },
        { check: 'humidity', parts: ['sun_drying'] },
      ],
    },
    calculated_at: '2026-06-15 14:00:00',
    rain_source_info: {
      windows_used: ['rain_1h', 'rain_24h'],
      cumulative_source: 'rain_24h',
      not_provided: ['rain_12h'],
      note: 'Differences between the supplied windows form time slices (0-1 h, 1-12 h, 12-24 h) for surface moisture; more recent slices weigh more.',
    },
  },
  message: '',
} as const;

export const healthOkExample = {
  status: 'ok',
  mfi: {
    status: 'ok',
    maintenance_mode: false,
    mfi_version: '1.0.0',
    checks: { database: { status: 'ok' }, maintenance: { status: 'inactive' }, config: { status: 'ok' } },
    response_time_ms: 2,
  },
  message: '',
} as const;

export const healthMaintenanceExample = {
  status: 'maintenance',
  mfi: {
    status: 'maintenance',
    maintenance_mode: true,
    mfi_version: '1.0.0',
    checks: { database: { status: 'ok' }, maintenance: { status: 'active' }, config: { status: 'ok' } },
    response_time_ms: 2,
  },
  message: MESSAGES.maintenance,
} as const;

export const healthDownExample = {
  status: 'error',
  mfi: {
    status: 'error',
    maintenance_mode: false,
    mfi_version: null,
    checks: {
      database: { status: 'error', message: 'SQLITE_CANTOPEN: unable to open database file' },
      maintenance: { status: 'inactive' },
      config: { status: 'ok' },
    },
    response_time_ms: 3,
  },
  message: MESSAGES.systemChecksFailed,
} as const;
