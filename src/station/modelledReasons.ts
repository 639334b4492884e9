/**
 * Where a gap-filled (modelled) value decides a check, the check says so: a German reason line
 * "modelliert" naming the field, and `meta.modelled_fields`. Applied to the state payload of a
 * station whose units list `estimated_fields` (src/modelled/gapFill.ts); the core stays unaware.
 */
import type { CheckName } from '../core/index.js';

/** The checks each fillable field feeds (src/core/checks/). */
const CHECKS_OF_FIELD: Readonly<Record<string, readonly CheckName[]>> = {
  soil_moisture: ['rain'],
  soil_temperature: ['soiltemp'],
  wind_gusts: ['wind'],
  solar: ['humidity', 'rain', 'temperature'],
};
const FIELD_DE: Readonly<Record<string, string>> = {
  soil_moisture: 'Bodenfeuchte',
  soil_temperature: 'Bodentemperatur',
  wind_gusts: 'Windböen',
  solar: 'Globalstrahlung',
};

interface CheckLike {
  executed?: boolean;
  reasons?: string[];
  meta?: Record<string, unknown>;
}

export function markModelledReasons(checks: unknown, fields: readonly string[]): void {
  if (typeof checks !== 'object' || checks === null || fields.length === 0) return;
  const byCheck = new Map<string, string[]>();
  for (const field of fields) for (const check of CHECKS_OF_FIELD[field] ?? []) byCheck.set(check, [...(byCheck.get(check) ?? []), field]);
  for (const [name, used] of byCheck) {
    const check = (checks as Record<string, CheckLike | undefined>)[name];
    if (!check?.executed || !Array.isArray(check.reasons)) continue;
    // The core names any soil estimate a water balance; a modelled one is not.
    if (used.includes('soil_moisture'))
      check.reasons = check.reasons.map((reason) => reason.replace('nach Wasserbilanz', 'modelliert (Open-Meteo)'));
    check.reasons.push(`${used.map((field) => FIELD_DE[field] ?? field).join(', ')} modelliert (Open-Meteo, nicht gemessen).`);
    check.meta = { ...check.meta, modelled_fields: used };
  }
}
