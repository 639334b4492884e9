/**
 * The plan's status and its sentence (docs/model.md, "Mowing debt"): on track, behind (debt past the
 * threshold, the relaxation said), or cannot keep up (the allowed dry time within the horizon is less than
 * the need); always with where the forecast, and so the plan, ends. Pure.
 */
import { localWhen } from './planText.js';
import type { LawnNeed, MowingDebt, PlanSlot, PlanStatus, PlanText } from './types.js';

/** What of the plan's input the status reads. */
export interface StatusFacts {
  readonly nowMs: number;
  readonly timeZone: string;
  readonly need: LawnNeed;
  readonly debt: MowingDebt;
  readonly mownMinutesThisWeek: number;
}

export interface StatusInput {
  readonly input: StatusFacts;
  readonly slots: readonly PlanSlot[];
  /** Minutes the plan should cover from now to the horizon. */
  readonly demandMinutes: number;
  /** Minutes the plan's slots cover from now on. */
  readonly plannedMinutes: number;
  readonly plannedMinutesThisWeek: number;
  readonly horizonEndMs: number;
}

function horizonText(input: StatusFacts, horizonEndMs: number): PlanText {
  if (horizonEndMs <= input.nowMs) {
    return { en: 'There are no forecast hours: nothing is planned.', de: 'Es gibt keine Vorhersagestunden: nichts ist geplant.' };
  }
  const end = localWhen(horizonEndMs, input.timeZone);
  return {
    en: `Nothing is planned past ${end.en}, where the forecast ends.`,
    de: `Nach ${end.de} ist nichts geplant: dort endet die Vorhersage.`,
  };
}

function de(value: number): string {
  return String(value).replace('.', ',');
}

export function planStatus(s: StatusInput): { status: PlanStatus; reason: PlanText } {
  const { input } = s;
  const { need, debt } = input;
  const horizon = horizonText(input, s.horizonEndMs);
  const planned = Math.round(s.plannedMinutes);
  const demand = Math.round(s.demandMinutes);
  let status: PlanStatus;
  let head: PlanText;
  if (planned < demand) {
    status = 'cannot_keep_up';
    head = {
      en: `Cannot keep up: the allowed dry time until the forecast ends holds only ${planned} of the ${demand} minutes of mowing needed.`,
      de: `Nicht zu schaffen: die erlaubte trockene Zeit bis zum Ende der Vorhersage reicht nur für ${planned} der ${demand} nötigen Mähminuten.`,
    };
  } else if (debt.overThreshold) {
    status = 'behind';
    const relaxed = s.slots.some((slot) => slot.relaxed && slot.endMs > input.nowMs);
    head = {
      en: `Behind: the grass is ${debt.mm} mm past the one-third rule (${debt.runtimeMinutes} min of mowing)${relaxed ? '; a WARNING slot with dry blades is taken rather than another day without cutting' : ''}.`,
      de: `Im Rückstand: das Gras ist ${de(debt.mm)} mm über der Ein-Drittel-Regel (${debt.runtimeMinutes} Min. Mähen)${relaxed ? '; ein WARNING-Zeitfenster mit trockenen Halmen wird genommen statt eines weiteren Tages ohne Schnitt' : ''}.`,
    };
  } else {
    status = 'on_track';
    head = {
      en: `On track: ${s.plannedMinutesThisWeek} min planned and ${Math.round(input.mownMinutesThisWeek)} min mown this week, ${need.runtimeNeededMinutesThisWeek} min needed.`,
      de: `Im Plan: diese Woche ${s.plannedMinutesThisWeek} Min. geplant und ${Math.round(input.mownMinutesThisWeek)} Min. gemäht, ${need.runtimeNeededMinutesThisWeek} Min. nötig.`,
    };
  }
  return { status, reason: { en: `${head.en} ${horizon.en}`, de: `${head.de} ${horizon.de}` } };
}
