/**
 * Validation of the settings of modelled stations (`format: "open-meteo"`: readings from
 * Open-Meteo for the station's `location`, src/modelled/) and of gap filling (`gapFill`: a real
 * station's unmeasured fields from Open-Meteo). Every message names the key.
 */
import { GAP_FILL_FIELDS, MODELLED_FORMAT } from './types.js';

type Problem = (key: string, message: string) => void;

/** Keys that describe how hardware sends readings: meaningless for a modelled station. */
const HARDWARE_KEYS = ['topic', 'match', 'units', 'fields', 'timestampKey', 'upload', 'gapFill'];
const GAP_FILL_KEYS = ['source', 'fields'];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A modelled station needs its location and nothing about hardware. */
export function modelledProblems(raw: Record<string, unknown>, problem: Problem): void {
  if (raw.format !== MODELLED_FORMAT) return;
  if (raw.location === undefined) problem('location', `is required for format "${MODELLED_FORMAT}": {"latitude": 52.52, "longitude": 13.40} (the place whose weather is modelled)`);
  for (const key of HARDWARE_KEYS) {
    if (raw[key] !== undefined) problem(key, `is not used by format "${MODELLED_FORMAT}" (a modelled station has no hardware; its readings come from Open-Meteo)`);
  }
}

export function gapFillProblems(gapFill: unknown, location: unknown, problem: Problem): void {
  if (gapFill === undefined) return;
  if (!isPlainObject(gapFill)) return problem('gapFill', 'must be an object {"source": "open-meteo"}');
  for (const key of Object.keys(gapFill)) if (!GAP_FILL_KEYS.includes(key)) problem(`gapFill.${key}`, `is not allowed (only ${GAP_FILL_KEYS.join(', ')})`);
  if (gapFill.source !== MODELLED_FORMAT) problem('gapFill.source', `must be "${MODELLED_FORMAT}"`);
  if (location === undefined) problem('gapFill.source', `"${MODELLED_FORMAT}" needs the station's "location" {"latitude": ..., "longitude": ...}`);
  const fields = gapFill.fields;
  const allowed: readonly unknown[] = GAP_FILL_FIELDS;
  if (fields !== undefined && (!Array.isArray(fields) || fields.length === 0 || !fields.every((field) => allowed.includes(field)))) {
    problem('gapFill.fields', `must be a non-empty list of ${GAP_FILL_FIELDS.join(', ')}`);
  }
}
