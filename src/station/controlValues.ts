/**
 * The values Home Assistant may set for a station (the `mowable` hysteresis and the lawn's mower
 * class) and the strict reading of their command payloads: bounds as the configuration's (`station.*`
 * in src/config/stationSchema.ts, `lawn.mowerClass`), the numbers as plain decimal text only (no
 * NaN, no Infinity, no exponent, no JSON), a short payload. Pure: every refusal is a reason in English
 * and German, never an exception.
 */
import { MOWER_CLASSES, type MowerClass } from '../core/index.js';
import type { ControlSetting } from '../config/mqttValues.js';
import type { Reason } from './unit.js';

/** Longer payloads are refused unread: a number or a class name is a few bytes. */
export const MAX_CONTROL_PAYLOAD_BYTES = 32;
/** The on-delay's largest value from Home Assistant (a day); the configuration allows any whole number of minutes. */
export const MAX_ON_DELAY_MINUTES = 1440;

/** The effective values of one station: the configuration's, or what Home Assistant set. */
export interface ControlValues {
  mowable_on_threshold: number;
  mowable_off_threshold: number;
  mowable_on_delay_minutes: number;
  mower_class: MowerClass;
}

/** What a payload asks: a value, or back to the configuration's (`reset`, or an empty payload). */
export type ControlRequest = { kind: 'set'; value: number | MowerClass } | { kind: 'reset' } | { kind: 'refused'; reason: Reason };

const refused = (en: string, de: string): ControlRequest => ({ kind: 'refused', reason: { en, de } });

/** Plain decimal text: an optional sign, up to 6 digits, an optional fraction of up to 6 digits. */
const DECIMAL = /^[+-]?\d{1,6}(?:\.\d{1,6})?$/;

/** Reads one command payload for `key`; `current`: the station's values, for the rule off ≤ on. */
export function readControlPayload(key: ControlSetting, payload: Buffer, current: ControlValues): ControlRequest {
  if (payload.length > MAX_CONTROL_PAYLOAD_BYTES)
    return refused(`payload longer than ${MAX_CONTROL_PAYLOAD_BYTES} bytes`, `Nachricht länger als ${MAX_CONTROL_PAYLOAD_BYTES} Bytes`);
  const text = payload.toString('utf8').trim();
  if (text === '' || text.toLowerCase() === 'reset') return { kind: 'reset' };
  if (key === 'mower_class') return readMowerClass(text);
  if (!DECIMAL.test(text)) return refused('not a plain decimal number (e.g. 70)', 'keine einfache Dezimalzahl (z. B. 70)');
  const value = Number(text);
  if (!Number.isFinite(value)) return refused('not a finite number', 'keine endliche Zahl');
  return numberProblem(key, value, current) ?? { kind: 'set', value };
}

function readMowerClass(text: string): ControlRequest {
  if ((MOWER_CLASSES as readonly string[]).includes(text)) return { kind: 'set', value: text as MowerClass };
  return refused(`must be one of ${MOWER_CLASSES.join(', ')}`, `muss eines von ${MOWER_CLASSES.join(', ')} sein`);
}

/** Why `value` may not become `key` given the station's other values, as the configuration's rules say; undefined when it may. */
export function numberProblem(key: ControlSetting, value: number, current: ControlValues): ControlRequest | undefined {
  if (key === 'mowable_on_delay_minutes') {
    if (!Number.isInteger(value) || value < 0 || value > MAX_ON_DELAY_MINUTES)
      return refused(
        `the on-delay must be a whole number of minutes from 0 to ${MAX_ON_DELAY_MINUTES}`,
        `die Einschaltverzögerung muss eine ganze Zahl von Minuten von 0 bis ${MAX_ON_DELAY_MINUTES} sein`,
      );
    return undefined;
  }
  if (value < 0 || value > 100)
    return refused('a threshold must be a number from 0 to 100', 'eine Schwelle muss zwischen 0 und 100 liegen');
  if (key === 'mowable_off_threshold' && value > current.mowable_on_threshold)
    return refused(
      `the off-threshold ${value} must not be above the on-threshold ${current.mowable_on_threshold}`,
      `die Ausschaltschwelle ${value} darf nicht über der Einschaltschwelle ${current.mowable_on_threshold} liegen`,
    );
  if (key === 'mowable_on_threshold' && value < current.mowable_off_threshold)
    return refused(
      `the on-threshold ${value} must not be below the off-threshold ${current.mowable_off_threshold}`,
      `die Einschaltschwelle ${value} darf nicht unter der Ausschaltschwelle ${current.mowable_off_threshold} liegen`,
    );
  return undefined;
}

/** A stored value (the database's JSON) read back as strictly as a payload: a damaged or outdated row is not used. */
export function storedControlValue(key: ControlSetting, json: string, current: ControlValues): number | MowerClass | undefined {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (key === 'mower_class')
    return typeof value === 'string' && (MOWER_CLASSES as readonly string[]).includes(value) ? (value as MowerClass) : undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  return numberProblem(key, value, current) === undefined ? value : undefined;
}
