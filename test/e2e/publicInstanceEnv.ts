/**
 * What the tests of several daemons on one PostgreSQL and one Redis share: each instance's
 * settings as docs/deployment.md runs it behind a proxy (http.trustProxy loopback, so a test speaks
 * for its own client addresses via X-Forwarded-For), and client addresses no other test uses.
 */

/** One instance's environment: its own SQLite file beside the shared store and rate-limit store; registration on, no broker. */
export function publicInstanceEnv(dbPath: string, storeUrl: string, rateLimitStore: string): Record<string, string> {
  return {
    MOWABILITY_DB_PATH: dbPath,
    MOWABILITY_HTTP_HOST: '127.0.0.1',
    MOWABILITY_HTTP_PORT: '0',
    MOWABILITY_BROKER_ENABLED: 'false',
    MOWABILITY_TIMEZONE: 'UTC',
    MOWABILITY_TRUST_PROXY: 'loopback',
    MOWABILITY_STORE_KIND: 'postgres',
    MOWABILITY_STORE_URL: storeUrl,
    MOWABILITY_RATE_LIMIT_STORE: rateLimitStore,
    MOWABILITY_REGISTRATION_ENABLED: 'true',
  };
}

/** A new client address under 10.`block`.x.y on each call (the rate limit is per address and shared). */
export function freshAddresses(block: number): () => string {
  let counter = 0;
  return () => `10.${block}.${(counter >> 8) & 255}.${counter++ & 255}`;
}
