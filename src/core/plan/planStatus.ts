/**
 * The plan's status and its sentence (docs/model.md, "Mowing debt"): on track, behind (debt past the
 * threshold, the relaxation said), or cannot keep up (the allowed dry time within the horizon is less than
 * the need: then what was proposed, how much of the need is planned and why the rest does not fit); always
 * with where the forecast, and so the plan, ends. Pure.
 */
import { BAR_NOUN, localWhen } from './planText.js';
import { STEP_MS, usable, type Step, type StepBar } from './steps.js';
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
  /** Minutes the plan should cover from now to the end of this week (the need left, or the debt). */
  readonly demandMinutes: number;
  /** Minutes the plan's slots that start (or go on) from now to the end of this week cover. */
  readonly plannedMinutes: number;
  readonly plannedMinutesThisWeek: number;
  readonly horizonEndMs: number;
  /** The end of this week (local Monday 00:00). */
  readonly weekEndMs: number;
  /** Minutes of this week's steps from now to the forecast's end that cannot be mown, by why. */
  readonly barredMinutes: Readonly<Partial<Record<StepBar, number>>>;
}

/** Minutes of the steps from now to `weekEndMs` that cannot be mown, by why (the status names the largest). */
export function barredMinutes(steps: readonly Step[], relaxed: boolean, weekEndMs: number): Partial<Record<StepBar, number>> {
  const out: Partial<Record<StepBar, number>> = {};
  for (const step of steps) {
    if (step.startMs >= weekEndMs || usable(step, relaxed)) continue;
    const bar = step.bar ?? 'unrated';
    out[bar] = (out[bar] ?? 0) + STEP_MS / 60_000;
  }
  return out;
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

/** "3 h 10 min" / „3 Std. 10 Min.“ */
export function durationText(minutes: number): PlanText {
  const whole = Math.max(0, Math.round(minutes));
  const hours = Math.floor(whole / 60);
  const rest = whole % 60;
  if (hours === 0) return { en: `${rest} min`, de: `${rest} Min.` };
  return rest === 0 ? { en: `${hours} h`, de: `${hours} Std.` } : { en: `${hours} h ${rest} min`, de: `${hours} Std. ${rest} Min.` };
}

/** What the relaxation proposed: "2 slots on dry blades at WARNING proposed" (empty without one). */
function proposedText(count: number): PlanText {
  if (count === 0) return { en: '', de: '' };
  return {
    en: `${count} ${count === 1 ? 'slot' : 'slots'} on dry blades at WARNING proposed`,
    de: `${count} Zeitfenster mit trockenen Halmen bei WARNING vorgeschlagen`,
  };
}

/** Why no more fits this week: no more allowed dry time up to the forecast's end (what bars the rest), and the week past it. */
function restText(s: StatusInput): PlanText {
  const { input } = s;
  const bars = (Object.entries(s.barredMinutes) as Array<[StepBar, number]>)
    .filter(([, minutes]) => minutes > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, 3);
  const listed = (lang: 'en' | 'de') => bars.map(([bar, minutes]) => `${BAR_NOUN[bar][lang]} ${durationText(minutes)[lang]}`).join(', ');
  const until = Math.min(s.weekEndMs, s.horizonEndMs);
  const dry: PlanText =
    until <= input.nowMs
      ? { en: 'there are no forecast hours left this week', de: 'diese Woche bleiben keine Vorhersagestunden' }
      : {
          en: `no more allowed dry time${bars.length > 0 ? ` (the other hours: ${listed('en')})` : ''} until ${s.horizonEndMs < s.weekEndMs ? 'the forecast ends' : 'the week ends'}`,
          de: `keine weitere erlaubte trockene Zeit bis ${s.horizonEndMs < s.weekEndMs ? 'zum Ende der Vorhersage' : 'zum Ende der Woche'}${bars.length > 0 ? ` (die übrigen Stunden: ${listed('de')})` : ''}`,
        };
  if (s.horizonEndMs >= s.weekEndMs) return { en: `The rest does not fit: ${dry.en}.`, de: `Der Rest passt nicht: ${dry.de}.` };
  return {
    en: `The rest does not fit: ${dry.en}, and the rest of the week lies beyond the forecast horizon.`,
    de: `Der Rest passt nicht: ${dry.de}, und der Rest der Woche liegt hinter dem Vorhersagehorizont.`,
  };
}

export function planStatus(s: StatusInput): { status: PlanStatus; reason: PlanText } {
  const { input } = s;
  const { need, debt } = input;
  const horizon = horizonText(input, s.horizonEndMs);
  const planned = durationText(s.plannedMinutes);
  const demand = durationText(s.demandMinutes);
  const proposed = proposedText(s.slots.filter((slot) => slot.relaxed && slot.endMs > input.nowMs).length);
  let status: PlanStatus;
  let head: PlanText;
  if (Math.round(s.plannedMinutes) < Math.round(s.demandMinutes)) {
    status = 'cannot_keep_up';
    const rest = restText(s);
    head = {
      en: `Cannot keep up: ${proposed.en === '' ? '' : `${proposed.en}, `}${planned.en} of the ${demand.en} of mowing still needed this week planned. ${rest.en}`,
      de: `Nicht zu schaffen: ${proposed.de === '' ? '' : `${proposed.de}, `}${planned.de} der ${demand.de} noch nötigen Mähzeit dieser Woche geplant. ${rest.de}`,
    };
  } else if (debt.overThreshold) {
    status = 'behind';
    const relaxation: PlanText =
      proposed.en === ''
        ? { en: '', de: '' }
        : {
            en: ` ${proposed.en} rather than another day without cutting, ${planned.en} of the ${demand.en} still needed this week planned.`,
            de: ` ${proposed.de} statt eines weiteren Tages ohne Schnitt, ${planned.de} der ${demand.de} noch nötigen Mähzeit dieser Woche geplant.`,
          };
    head = {
      en: `Behind: the grass is ${debt.mm} mm past the one-third rule (${debt.runtimeMinutes} min of mowing).${relaxation.en}`,
      de: `Im Rückstand: das Gras ist ${de(debt.mm)} mm über der Ein-Drittel-Regel (${debt.runtimeMinutes} Min. Mähen).${relaxation.de}`,
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
