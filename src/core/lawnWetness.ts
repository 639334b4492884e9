/**
 * How the lawn memory's wet spell reaches the index (docs/model.md "Lawn memory"): an overdue lawn after a
 * long wet spell turns an endless BLOCK into a WARNING once the rain has stopped. (The blade water,
 * `blade_drying_minutes`, is rated by the rain check's surface wetness, ./checks/surfaceWetness.ts.) Pure.
 */
import type { ExtensionInput } from './extensionFields.js';
import type { CheckName, Status } from './types.js';

/** Mow need from which the lawn counts as overdue (grown close to the one-third limit). */
export const OVERGROWTH_MOW_NEED = 80;
/** Hours of (nearly) continuously wet blades that make a wet spell. */
export const WET_SPELL_HOURS = 48;
/** The index an overdue lawn after a wet spell gets at least: the bottom of WARNING. */
export const OVERGROWTH_FLOOR = 40;
export const OVERGROWTH_REASON =
  '<b>Rasen überfällig nach langer Nässe</b> – leicht feuchtes Gras schneiden ist besser, ' +
  'als es weit über die Ein-Drittel-Regel wachsen zu lassen (K-State): hoch schneiden, scharfes Messer, Schnittgut entfernen.';

/** Checks whose BLOCK only says "wet", which the relief may lift; any other BLOCK (frost, heat, wind) stands. */
const WET_CHECKS: readonly CheckName[] = ['rain', 'humidity'];

export interface OvergrowthInput {
  extensions: ExtensionInput;
  precipitationRate: number | undefined;
  indexScore: number;
  status: Status;
  /** Scores of the checks that ran. */
  scores: ReadonlyArray<{ name: CheckName; score: number }>;
}

/** The lifted index (WARNING, never OK) or null when the relief does not apply. */
export function overgrowthRelief(input: OvergrowthInput): number | null {
  const { extensions } = input;
  if ((extensions.mow_need ?? 0) < OVERGROWTH_MOW_NEED || (extensions.wet_spell_hours ?? 0) < WET_SPELL_HOURS) return null;
  if (input.precipitationRate !== 0 || input.status !== 'BLOCK') return null;
  if (input.scores.some((check) => !WET_CHECKS.includes(check.name) && check.score < OVERGROWTH_FLOOR)) return null;
  return Math.max(input.indexScore, OVERGROWTH_FLOOR);
}
