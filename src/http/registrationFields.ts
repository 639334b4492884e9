/**
 * Validation of a registration body (JSON or form): each problem gets a clear
 * 400 naming the field. Only what review needs is kept (docs/api.md says what
 * is stored and why).
 */
import { USAGE_KINDS, type UsageKind } from '../store/registrationStore.js';

export interface RegistrationFields {
  name: string;
  email: string;
  intendedUse: string;
  usageKind: UsageKind;
}

export const REGISTRATION_LIMITS = { name: 200, email: 254, intendedUseMin: 10, intendedUseMax: 2000 } as const;

/** A practical address check (RFC 5321 lengths, one @, a dot in the domain); delivery is the operator's business. */
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]+$/;
// C0/C1 controls and bidi overrides make a registration unreadable (or misleading) in the review terminal.
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const ACCEPTED = new Set([true, 'true', 'on', 'yes', '1']);

export const registrationBodySchema = {
  type: 'object',
  required: ['name', 'email', 'intended_use', 'usage', 'accept_terms'],
  properties: {
    name: { type: 'string', maxLength: REGISTRATION_LIMITS.name, description: 'Your name.' },
    email: { type: 'string', maxLength: REGISTRATION_LIMITS.email, description: 'Where the operator can reach you about the review.' },
    intended_use: { type: 'string', minLength: REGISTRATION_LIMITS.intendedUseMin, maxLength: REGISTRATION_LIMITS.intendedUseMax, description: 'What you want to use the key for.' },
    usage: { type: 'string', enum: [...USAGE_KINDS], description: 'private or commercial use.' },
    accept_terms: { type: ['boolean', 'string'], description: 'true (form: "true", "on", "yes" or "1"): you accept the terms of use.' },
  },
} as const;

export type FieldsOutcome = { ok: true; fields: RegistrationFields } | { ok: false; message: string };

function text(body: Record<string, unknown>, field: string, max: number, min = 1): string | { message: string } {
  const raw = Array.isArray(body[field]) ? (body[field] as unknown[])[0] : body[field];
  if (typeof raw !== 'string' || raw.trim() === '') return { message: `Invalid registration: "${field}" is required.` };
  const value = raw.trim();
  if (value.length > max) return { message: `Invalid registration: "${field}" must be at most ${max} characters.` };
  if (value.length < min) return { message: `Invalid registration: "${field}" must be at least ${min} characters.` };
  if (UNPRINTABLE.test(value)) return { message: `Invalid registration: "${field}" contains control characters.` };
  return value;
}

export function registrationFields(body: unknown): FieldsOutcome {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, message: 'The request body must be a JSON object or form fields.' };
  const record = body as Record<string, unknown>;
  const name = text(record, 'name', REGISTRATION_LIMITS.name);
  if (typeof name !== 'string') return { ok: false, ...name };
  const email = text(record, 'email', REGISTRATION_LIMITS.email);
  if (typeof email !== 'string') return { ok: false, ...email };
  if (!EMAIL.test(email)) return { ok: false, message: 'Invalid registration: "email" must be an e-mail address.' };
  const intendedUse = text(record, 'intended_use', REGISTRATION_LIMITS.intendedUseMax, REGISTRATION_LIMITS.intendedUseMin);
  if (typeof intendedUse !== 'string') return { ok: false, ...intendedUse };
  const usage = text(record, 'usage', 20);
  if (typeof usage !== 'string' || !(USAGE_KINDS as readonly string[]).includes(usage)) {
    return { ok: false, message: `Invalid registration: "usage" must be one of ${USAGE_KINDS.join(', ')}.` };
  }
  const terms = Array.isArray(record.accept_terms) ? (record.accept_terms as unknown[])[0] : record.accept_terms;
  if (!ACCEPTED.has(typeof terms === 'string' ? terms.toLowerCase() : (terms as boolean))) {
    return { ok: false, message: 'Invalid registration: the terms of use must be accepted ("accept_terms": true).' };
  }
  return { ok: true, fields: { name, email, intendedUse, usageKind: usage as UsageKind } };
}
