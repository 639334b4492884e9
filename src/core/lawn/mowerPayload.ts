/**
 * A mower's state message, pure: plain text (`mowing`, Home Assistant's lawn_mower activity as
 * mqtt_statestream publishes it), a JSON string (`"mowing"`), or a JSON object whose field at a
 * dotted path holds the state (`{"state": "mowing"}`, `{"dat": {"ls": 7}}`). Compared without case,
 * so Husqvarna's `MOWING` and a bridge's `Mowing` match `mowing`.
 */

/** Home Assistant's lawn_mower activity while cutting (LawnMowerActivity.MOWING); other states end a session. */
export const DEFAULT_MOWING_STATES: readonly string[] = ['mowing'];
/** The JSON field read from object payloads when the station's mower config names none. */
export const DEFAULT_MOWER_KEY = 'state';
/** A run of "mowing" shorter than this is a test run or a false start, not a cut. */
export const DEFAULT_MOWER_MIN_MINUTES = 10;
export const MAX_MOWER_MIN_MINUTES = 1440;
/** A state report is at most a few hundred bytes (Landroid's full status is ~1 kB); longer is refused unread. */
export const MAX_MOWER_PAYLOAD_BYTES = 4096;
/** Levels of a dotted key; deeper is not a state field. */
export const MAX_MOWER_KEY_DEPTH = 8;

/** The state word in a payload, lower-cased; undefined when the payload holds none. */
export function mowerStateWord(text: string, key: string = DEFAULT_MOWER_KEY): string | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('"')) return word(trimmed);
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  if (typeof value === 'string') return word(value);
  for (const level of key.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.hasOwn(value, level)) return undefined;
    value = (value as Record<string, unknown>)[level];
  }
  return typeof value === 'string' || typeof value === 'number' ? word(String(value)) : undefined;
}

function word(text: string): string | undefined {
  const trimmed = text.trim().toLowerCase();
  return trimmed === '' ? undefined : trimmed;
}

/** Whether a state word means "mowing" for these (configured) states. */
export function isMowingState(state: string, mowingStates: readonly string[] = DEFAULT_MOWING_STATES): boolean {
  return mowingStates.some((candidate) => candidate.trim().toLowerCase() === state);
}
