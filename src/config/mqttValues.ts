/**
 * Convict formats of MQTT settings and the value types they admit: topic prefixes and the
 * embedded broker's accounts. Here, in the config layer, because the schema needs them;
 * src/mqtt/ and src/lawn/ import them from here.
 */

/** Convict format for topic prefixes we publish under: no wildcards, no empty levels. */
export function validateTopicPrefix(value: unknown): void {
  if (typeof value !== 'string' || value === '') throw new Error('must be a non-empty MQTT topic');
  // NUL is forbidden in MQTT topic names (MQTT 5.0, section 1.5.4).
  // eslint-disable-next-line no-control-regex
  if (/[+#\u0000]/.test(value)) throw new Error('must not contain the wildcards + or # (we publish under it)');
  if (value.startsWith('/') || value.endsWith('/') || value.includes('//'))
    throw new Error('must not start or end with "/" or contain empty levels');
  if (value.startsWith('$')) throw new Error('must not start with "$" (reserved for the broker)');
}

/**
 * Command topics `<base>/<station>/<command>` other clients (a mower, Home Assistant) publish to, under
 * the otherwise daemon-owned base topic: `mowed` reports a cut to the lawn memory (src/lawn/). The
 * MQTT side opens them to other clients (src/mqtt/clientTopics.ts).
 */
export const MOWED_COMMAND = 'mowed';
export const STATION_COMMANDS: readonly string[] = [MOWED_COMMAND];

/** One account of the embedded broker (config `broker.users`). */
export interface BrokerUser {
  username: string;
  password: string;
}

/** User name of the daemon's own connection to the embedded broker (its password is random per process). */
export const INTERNAL_USERNAME = 'mowability-internal';

/** Convict format: a list of {username, password}, unique names, non-empty passwords. Never echoes passwords. */
export function validateBrokerUsers(value: unknown): void {
  if (!Array.isArray(value)) throw new Error('must be a list of {"username": ..., "password": ...}');
  const seen = new Set<string>();
  value.forEach((user: unknown, index) => {
    if (typeof user !== 'object' || user === null || Array.isArray(user)) throw new Error(`entry ${index} must be an object`);
    const { username, password, ...rest } = user as Record<string, unknown>;
    if (Object.keys(rest).length > 0) throw new Error(`entry ${index} has unknown keys: ${Object.keys(rest).join(', ')}`);
    if (typeof username !== 'string' || username === '') throw new Error(`entry ${index} needs a non-empty username`);
    if (typeof password !== 'string' || password.length < 8)
      throw new Error(`user "${username}" needs a password of at least 8 characters`);
    if (seen.has(username)) throw new Error(`user "${username}" is listed twice`);
    if (username === INTERNAL_USERNAME)
      throw new Error(`user name "${INTERNAL_USERNAME}" is reserved for the daemon's own connection; pick another`);
    seen.add(username);
  });
}
