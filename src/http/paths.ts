/** Route paths used in more than one place (router, 405 rule, metrics), named once. */
/** The versioned API: every route under it is behind the key hook of ./auth.ts unless it says otherwise. */
export const API_PREFIX = '/v1';
export const CALCULATE_PATH = `${API_PREFIX}/calculate`;
export const OPENAPI_PATH = '/openapi.json';
export const METRICS_PATH = '/metrics';
export const REGISTRATIONS_PATH = `${API_PREFIX}/registrations`;
/** The health check answers on both (docs/api.md, "GET /health and /v1/health"). */
export const HEALTH_PATHS = ['/health', '/v1/health'] as const;
