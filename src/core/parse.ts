import { FIELD_SPECS } from './fields.js';
import type { CalculationInput, FieldName, FieldSpec } from './fields.js';
import { EXTENSION_FIELD_SPECS } from './extensionFields.js';
import type { ExtensionInput } from './extensionFields.js';

/** A complete finite decimal number: optional sign, digits with optional fraction, optional exponent. */
const DECIMAL_PATTERN = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

const SPEC_BY_NAME: ReadonlyMap<string, FieldSpec> = new Map(FIELD_SPECS.map((spec) => [spec.name, spec]));

export interface ParsedInput {
  /** Valid values only. */
  values: CalculationInput;
  /** Valid field names in the order of docs/api.md's examples. */
  available: FieldName[];
  /** Missing or invalid field names in the order of docs/api.md's examples. */
  missing: FieldName[];
}

/**
 * A finite number from a JSON number or a string holding a complete decimal number (surrounding
 * white space allowed); undefined for anything else. The one number rule of HTTP input and of
 * station payloads (src/ingest/units.ts).
 */
export function toFiniteNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  if (!DECIMAL_PATTERN.test(trimmed)) return undefined;
  const parsed = Number(trimmed);
  return Number.isFinite(parsed) ? parsed : undefined;
}

/**
 * Parses one untrusted value for a field: numbers and strings holding a
 * complete finite decimal number, inside the field's valid range (inclusive).
 * Returns undefined for anything else (also for unknown field names).
 */
export function parseFieldValue(name: string, value: unknown): number | undefined {
  const spec = SPEC_BY_NAME.get(name);
  return spec === undefined ? undefined : parseSpecValue(spec, value);
}

/** parseFieldValue for a known field. */
function parseSpecValue(spec: FieldSpec, value: unknown): number | undefined {
  const parsed = toFiniteNumber(value);
  if (parsed === undefined || parsed < spec.min || parsed > spec.max) return undefined;
  return parsed === 0 ? 0 : parsed; // -0 becomes 0
}

function readOwn(raw: unknown, name: string): unknown {
  if (typeof raw !== 'object' || raw === null) return undefined;
  try {
    // Own properties only: keys such as __proto__ or constructor must never leak in through the prototype.
    return Object.hasOwn(raw, name) ? (raw as Record<string, unknown>)[name] : undefined;
  } catch {
    // A hostile getter or proxy counts as an invalid value.
    return undefined;
  }
}

/** Parses an untrusted record field -> value; unknown keys are ignored. Never throws. */
export function parseInput(raw: unknown): ParsedInput {
  const values: CalculationInput = {};
  const available: FieldName[] = [];
  const missing: FieldName[] = [];
  const record = typeof raw === 'object' && raw !== null ? raw : undefined;
  for (const spec of FIELD_SPECS) {
    const parsed = record === undefined ? undefined : parseSpecValue(spec, readOwn(record, spec.name));
    if (parsed === undefined) {
      missing.push(spec.name);
    } else {
      values[spec.name] = parsed;
      available.push(spec.name);
    }
  }
  return { values, available, missing };
}

/** Parses the extension fields (e.g. minutes_since_irrigation) of an untrusted record. Never throws. */
export function parseExtensions(raw: unknown): ExtensionInput {
  const values: ExtensionInput = {};
  for (const spec of EXTENSION_FIELD_SPECS) {
    const parsed = toFiniteNumber(readOwn(raw, spec.name));
    if (parsed !== undefined && parsed >= spec.min && parsed <= spec.max) values[spec.name] = Object.is(parsed, -0) ? 0 : parsed;
  }
  return values;
}
