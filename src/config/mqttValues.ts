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

/** The topic level under `<base>/<station>/` of the mower control's topics (src/mower/). */
export const MOWER_TOPIC_LEVEL = 'mower';
/** The topic level under `<base>/<station>/` of the Home Assistant controls (src/station/stationControls.ts). */
export const CONTROL_TOPIC_LEVEL = 'control';

/** The mower control's command topics under `<base>/<station>/`: the switch "Automatic mowing", the buttons "Mow now" and "Dock now". */
export const MOWER_COMMANDS = {
  automaticSet: `${MOWER_TOPIC_LEVEL}/automatic/set`,
  mowNow: `${MOWER_TOPIC_LEVEL}/mow_now`,
  dockNow: `${MOWER_TOPIC_LEVEL}/dock_now`,
} as const;

/** The Home Assistant controls' keys that take a value: `<base>/<station>/control/<key>/set`. */
export const CONTROL_SETTINGS = ['mowable_on_threshold', 'mowable_off_threshold', 'mowable_on_delay_minutes', 'mower_class'] as const;
export type ControlSetting = (typeof CONTROL_SETTINGS)[number];

/** The button "Mowed now": `<base>/<station>/control/mowed_now`. */
export const MOWED_NOW_COMMAND = `${CONTROL_TOPIC_LEVEL}/mowed_now`;

/** `<base>/<station>/control/<key>/set` of one control setting. */
export function controlSetPath(key: ControlSetting): string {
  return `${CONTROL_TOPIC_LEVEL}/${key}/set`;
}

/**
 * Command topics `<base>/<station>/<path>` only Home Assistant may publish to: on the embedded broker the
 * daemon's own side and the account named in `homeassistant.commandAccount`, nobody else
 * (src/mqtt/clientTopics.ts); on an external broker the broker's ACL decides (docs/mqtt.md).
 */
export const HOME_ASSISTANT_COMMANDS: readonly string[] = [
  ...Object.values(MOWER_COMMANDS),
  MOWED_NOW_COMMAND,
  ...CONTROL_SETTINGS.map(controlSetPath),
];

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
