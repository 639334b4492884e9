/** Route paths used in more than one place (router, 405 rule, metrics), named once. */
export const CALCULATE_PATH = '/v1/calculate';
export const OPENAPI_PATH = '/openapi.json';
export const METRICS_PATH = '/metrics';
export const REGISTRATIONS_PATH = '/v1/registrations';
/** The health check answers on both (the spec names /health; /v1/health sits beside the API). */
export const HEALTH_PATHS = ['/health', '/v1/health'] as const;
