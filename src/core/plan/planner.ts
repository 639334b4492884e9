/**
 * The week's plan for one lawn (docs/model.md, "The plan"), pure: time is passed in, nothing is read.
 *
 * What the planner unit calls: `planLawn(input)` with
 * - `hours`: the rated forecast hours, `indexHours(projectedHours, context)` (src/core/forecastWindows.ts);
 * - `allowedAt`: quiet hours, `(ms) => timeline.allowedAt(ms, location)` (src/core/forecastQuietHours.ts);
 *   absent: always allowed;
 * - `need` from `lawnNeed` (./need.ts) and `debt` from `mowingDebt(need)` (./debt.ts);
 * - `mownMinutesThisWeek`: the ledger's mowing minutes since this week's start (./week.ts `weekSpan`);
 * - `mower`: run length, shortest run, gap and charge time;
 * - `previous`: the last plan it published (null at start): what it keeps, and what `changes` are against.
 *
 * Stable: a previous slot whose steps are all still usable is kept exactly (same id, times, sequence); a
 * started slot is kept whatever happened; only a slot whose own steps changed is shortened, re-rated, moved
 * (its id kept, sequence bumped) or removed, each change with its reason. New slots fill what the kept
 * ones leave of the need (./placement.ts), each the best that leaves room for the rest (./capacity.ts);
 * slots no longer needed are removed, latest first. With the debt past its threshold a WARNING step with
 * dry blades is usable too (OK first; never BLOCK, rain, frost or quiet hours), and with no slot within a
 * day the first new slot is the best within the day, unless that costs the week's need.
 */
import type { HourIndex } from '../forecastWindows.js';
import { capacityOf, packedMinutes, type Capacity, type CapacityRules } from './capacity.js';
import { bestCandidate, gridOf, rateSpan, type Candidate, type Grid, type SearchRules, type Span } from './placement.js';
import { BAR_TEXT, joinText, localWhen, slotReason } from './planText.js';
import { barredMinutes, planStatus } from './planStatus.js';
import { STEP_MS, ratedSteps, usable, type Step, type StepBar } from './steps.js';
import type { LawnNeed, LawnPlan, MowingDebt, PlanChange, PlanChangeKind, PlanSlot, PlanText } from './types.js';
import { futureMinutes, minutesIn, weekSpan } from './week.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

export interface PlanMower {
  /** Minutes of one run (the driver's run length; a robot's run on one charge). */
  readonly runMinutes: number;
  /** The shortest run worth planning (the forecast's minimum job length). */
  readonly minRunMinutes: number;
  /** Minutes from the end of one run to the next start (mower.control.minGapHours × 60). */
  readonly gapMinutes: number;
  /** Minutes the mower charges after a run; the gap between slots is the larger of the two. */
  readonly chargeMinutes: number;
}

export interface PlanInput {
  readonly lawnId: string;
  readonly nowMs: number;
  readonly timeZone: string;
  readonly hours: readonly HourIndex[];
  readonly allowedAt?: (ms: number) => boolean;
  /** Minutes before an hour with rain expected that are not planned (forecast.rainLeadMinutes). */
  readonly rainLeadMinutes?: number;
  readonly need: LawnNeed;
  readonly debt: MowingDebt;
  readonly mownMinutesThisWeek: number;
  readonly mower: PlanMower;
  readonly previous?: LawnPlan | null;
}

interface Draft extends Span {
  band: PlanSlot['band'];
  relaxed: boolean;
  reason: PlanText;
  previous?: PlanSlot;
  change?: { kind: PlanChangeKind; reason: PlanText };
}

interface Context {
  readonly input: PlanInput;
  readonly grid: Grid;
  readonly byStart: Map<number, number>;
  readonly relaxation: boolean;
  readonly gapMs: number;
  readonly horizonEndMs: number;
}

/** The first reason a span cannot be mown, or null when every step of it is usable. */
function barOf(ctx: Context, span: Span): StepBar | null {
  for (let t = span.startMs; t < span.endMs; t += STEP_MS) {
    const i = ctx.byStart.get(t);
    if (i === undefined) return t >= ctx.horizonEndMs ? 'horizon' : 'unrated';
    const step = ctx.grid.steps[i]!;
    if (!usable(step, ctx.relaxation)) return step.bar ?? 'unrated';
  }
  return null;
}

/** The longest run of usable steps inside `span` (the first of equal ones). */
function longestUsable(ctx: Context, span: Span): Span | null {
  let best: Span | null = null;
  let from: number | null = null;
  for (let t = span.startMs; t <= span.endMs; t += STEP_MS) {
    const i = t < span.endMs ? ctx.byStart.get(t) : undefined;
    const ok = i !== undefined && usable(ctx.grid.steps[i]!, ctx.relaxation);
    if (ok && from === null) from = t;
    if (!ok && from !== null) {
      if (best === null || t - from > best.endMs - best.startMs) best = { startMs: from, endMs: t };
      from = null;
    }
  }
  return best;
}

function ratingOf(ctx: Context, span: Span): Candidate {
  const i = ctx.byStart.get(span.startMs)!;
  return rateSpan(ctx.grid, i, Math.round((span.endMs - span.startMs) / STEP_MS));
}

/** The previous plan's slots this plan keeps, shortens or re-rates, and those it drops (with why). */
function keepPrevious(ctx: Context, weekStartMs: number): { kept: Draft[]; dropped: Array<{ slot: PlanSlot; bar: StepBar }> } {
  const { input } = ctx;
  const previous = input.previous?.lawnId === input.lawnId ? input.previous.slots : [];
  const kept: Draft[] = [];
  const dropped: Array<{ slot: PlanSlot; bar: StepBar }> = [];
  const minMs = input.mower.minRunMinutes * MINUTE_MS;
  for (const slot of previous) {
    const base: Draft = {
      startMs: slot.startMs,
      endMs: slot.endMs,
      band: slot.band,
      relaxed: slot.relaxed,
      reason: slot.reason,
      previous: slot,
    };
    if (slot.endMs <= input.nowMs) {
      if (slot.endMs > weekStartMs) kept.push(base); // this week's history: shown, never changed
      continue;
    }
    if (slot.startMs <= input.nowMs) {
      kept.push(base); // started: kept whatever the forecast says now
      continue;
    }
    const bar = barOf(ctx, slot);
    if (bar === null) {
      const rating = ratingOf(ctx, slot);
      if (rating.band === slot.band) kept.push(base);
      else {
        const relaxed = rating.band === 'WARNING';
        const reason = slotReason(relaxed ? 'relaxed' : 'driest', rating.minIndex, rating.rainNearMm);
        kept.push({
          ...base,
          band: rating.band,
          relaxed,
          reason,
          change: { kind: 'rerated', reason: joinText(ratedText(rating.band), reason) },
        });
      }
      continue;
    }
    const part = longestUsable(ctx, slot);
    if (part !== null && part.endMs - part.startMs >= minMs) {
      const rating = ratingOf(ctx, part);
      const why = {
        en: `Shortened: the rest of it is no longer mowable (${BAR_TEXT[bar].en}).`,
        de: `Gekürzt: der Rest ist nicht mehr mähbar (${BAR_TEXT[bar].de}).`,
      };
      kept.push({
        ...part,
        band: rating.band,
        relaxed: rating.band === 'WARNING',
        reason: slot.reason,
        previous: slot,
        change: { kind: 'shortened', reason: why },
      });
    } else dropped.push({ slot, bar });
  }
  return { kept, dropped };
}

function ratedText(band: PlanSlot['band']): PlanText {
  return band === 'OK'
    ? { en: 'Its hours are now rated OK.', de: 'Seine Stunden sind jetzt OK.' }
    : {
        en: 'Its hours are now rated only WARNING (taken by the debt relaxation).',
        de: 'Seine Stunden sind jetzt nur WARNING (vom Mährückstand übernommen).',
      };
}

interface Bucket {
  readonly fromMs: number;
  readonly toMs: number;
  readonly demandMinutes: number;
}

/** What the rest of this week and the part of next week within the horizon need. */
function buckets(input: PlanInput, week: { startMs: number; endMs: number }, horizonEndMs: number): Bucket[] {
  let thisWeek = Math.max(0, input.need.runtimeNeededMinutesThisWeek - input.mownMinutesThisWeek);
  if (input.debt.overThreshold) thisWeek = Math.max(thisWeek, input.debt.runtimeMinutes);
  const nextShare = Math.max(0, Math.min(horizonEndMs, week.endMs + 7 * DAY_MS) - week.endMs) / (7 * DAY_MS);
  return [
    { fromMs: input.nowMs, toMs: week.endMs, demandMinutes: thisWeek },
    {
      fromMs: week.endMs,
      toMs: Math.max(week.endMs, horizonEndMs),
      demandMinutes: Math.ceil(input.need.runtimeNeededMinutesThisWeek * nextShare),
    },
  ];
}

/** The length a new slot should have: what is missing, in whole steps up, at most the run (whole steps down), at least the shortest run. */
function wantedMs(input: PlanInput, missingMinutes: number): number {
  const { runMinutes, minRunMinutes } = input.mower;
  const stepMinutes = STEP_MS / MINUTE_MS;
  const longest = Math.max(stepMinutes, Math.floor(runMinutes / stepMinutes) * stepMinutes);
  return Math.max(minRunMinutes, Math.min(longest, Math.ceil(missingMinutes / stepMinutes) * stepMinutes)) * MINUTE_MS;
}

/** What a search for a new slot in `bucket` needs: its rules and the room the steps still hold there. */
function roomOf(
  ctx: Context,
  drafts: readonly Draft[],
  bucket: Bucket,
  wanted: number,
): { rules: SearchRules; room: { rules: CapacityRules; room: () => Capacity } } {
  const { input } = ctx;
  const rules: SearchRules = {
    fromMs: Math.max(bucket.fromMs, input.nowMs),
    toMs: bucket.toMs,
    wantedMs: wanted,
    minMs: input.mower.minRunMinutes * MINUTE_MS,
    gapMs: ctx.gapMs,
    relaxed: ctx.relaxation,
  };
  const leastSteps = Math.max(1, Math.ceil(rules.minMs / STEP_MS));
  const runSteps = Math.max(1, Math.floor((input.mower.runMinutes * MINUTE_MS) / STEP_MS));
  const capacityRules: CapacityRules = {
    fromMs: rules.fromMs,
    toMs: rules.toMs,
    leastSteps,
    mostSteps: Math.max(leastSteps, runSteps),
    gapMs: ctx.gapMs,
    relaxed: ctx.relaxation,
  };
  return { rules, room: { rules: capacityRules, room: () => capacityOf(ctx.grid.steps, drafts, capacityRules) } };
}

function minutesOf(span: Span): number {
  return (span.endMs - span.startMs) / MINUTE_MS;
}

function draftOf(found: Candidate, kind: 'driest' | 'debt'): Draft {
  const relaxed = found.band === 'WARNING';
  return {
    startMs: found.startMs,
    endMs: found.endMs,
    band: found.band,
    relaxed,
    reason: slotReason(relaxed ? 'relaxed' : kind, found.minIndex, found.rainNearMm),
  };
}

/**
 * Adds slots to each bucket until its demand is met or nothing fits: each time the best candidate
 * (./placement.ts) among those that leave room for the rest of the demand (or, when the demand is more
 * than the room, for all the room there is), else the first slot of a set that fills the room. So the
 * plan holds the need whenever the allowed (past the debt threshold: and relaxable) time can hold it.
 */
function fill(ctx: Context, drafts: Draft[], bucketList: readonly Bucket[]): void {
  const { input } = ctx;
  for (const bucket of bucketList) {
    for (;;) {
      const missing = bucket.demandMinutes - futureMinutes(drafts, input.nowMs, bucket.fromMs, bucket.toMs);
      if (missing <= 0) break;
      const { rules, room: exact } = roomOf(ctx, drafts, bucket, wantedMs(input, missing));
      // The best candidate at all, when it and whole runs packed after it already hold what is missing (the common case):
      // the room's pick would be the same, without the exact room.
      const best = bestCandidate(ctx.grid, drafts, rules);
      if (best !== null && minutesOf(best) + packedMinutes(ctx.grid.steps, [...drafts, best], exact.rules) >= missing) {
        drafts.push(draftOf(best, 'driest'));
        continue;
      }
      const room = exact.room();
      const target = Math.min(missing, room.totalMinutes) - 1e-9;
      if (room.totalMinutes <= 0) break;
      const found = bestCandidate(ctx.grid, drafts, { ...rules, accept: (span) => room.withSlot(span) >= target });
      const span = found ?? room.firstBefore(Number.POSITIVE_INFINITY);
      if (span === null) break;
      drafts.push(draftOf(found ?? ratingOf(ctx, span), 'driest'));
    }
  }
}

/**
 * The debt's cut within a day: past the threshold with no slot within the next day, the best slot within
 * the day (a dry-bladed WARNING one allowed), unless any slot there would leave less of this week's need
 * plannable than the room without one holds.
 */
function relax(ctx: Context, drafts: Draft[], bucket: Bucket): void {
  const { input } = ctx;
  if (!input.debt.overThreshold) return;
  const dayEndMs = input.nowMs + DAY_MS;
  if (drafts.some((d) => d.endMs > input.nowMs && d.startMs < dayEndMs)) return;
  const missing = bucket.demandMinutes - futureMinutes(drafts, input.nowMs, bucket.fromMs, bucket.toMs);
  const { rules, room: exact } = roomOf(ctx, drafts, bucket, wantedMs(input, Math.max(missing, input.debt.runtimeMinutes)));
  const today = { ...rules, toMs: Math.min(rules.toMs, dayEndMs) };
  const best = bestCandidate(ctx.grid, drafts, today);
  // As in fill: when the best slot of the day and whole runs after it hold what is missing, the room would take it too.
  if (best !== null && minutesOf(best) + packedMinutes(ctx.grid.steps, [...drafts, best], exact.rules) >= missing) {
    drafts.push(draftOf(best, 'debt'));
    return;
  }
  const room = exact.room();
  const target = Math.min(Math.max(0, missing), room.totalMinutes) - 1e-9;
  if (room.withSlotBefore(dayEndMs) < target) return;
  const found = bestCandidate(ctx.grid, drafts, { ...today, accept: (span) => room.withSlot(span) >= target });
  const span = found ?? room.firstBefore(dayEndMs);
  if (span === null) return;
  drafts.push(draftOf(found ?? ratingOf(ctx, span), 'debt'));
}

/**
 * Removes future slots no longer needed (the need fell: a cut was completed), latest first. Never a started
 * slot, and with the debt over its threshold never a slot within the next day (the relaxation's), which
 * also does not count here: a relaxed cut added today does not push a later, unchanged slot out.
 */
function trim(ctx: Context, drafts: Draft[], bucketList: readonly Bucket[]): Draft[] {
  const { input } = ctx;
  const dayEndMs = input.debt.overThreshold ? input.nowMs + DAY_MS : input.nowMs;
  const removable = (d: Draft) => d.startMs > input.nowMs && d.startMs >= dayEndMs;
  const removed: Draft[] = [];
  for (const bucket of bucketList) {
    const inBucket = drafts.filter((d) => removable(d) && d.startMs >= bucket.fromMs && d.startMs < bucket.toMs);
    let planned = futureMinutes(inBucket, input.nowMs, bucket.fromMs, bucket.toMs);
    for (const draft of inBucket.sort((a, b) => b.startMs - a.startMs)) {
      const minutes = (draft.endMs - draft.startMs) / MINUTE_MS;
      if (planned - minutes < bucket.demandMinutes) continue;
      planned -= minutes;
      removed.push(draft);
    }
  }
  for (const draft of removed) drafts.splice(drafts.indexOf(draft), 1);
  return removed;
}

function newId(lawnId: string, span: Span, nowMs: number, used: Set<string>): string {
  const base = `${lawnId}-${span.startMs.toString(36)}-${nowMs.toString(36)}`;
  let id = base;
  for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
  used.add(id);
  return id;
}

function toSlot(draft: Draft, id: string, sequence: number, changedAtMs: number): PlanSlot {
  return {
    id,
    startMs: draft.startMs,
    endMs: draft.endMs,
    band: draft.band,
    relaxed: draft.relaxed,
    sequence,
    changedAtMs,
    reason: draft.reason,
  };
}

/** Slots with ids and sequences, and the changes against the previous plan. */
function finish(
  ctx: Context,
  drafts: Draft[],
  dropped: Array<{ slot: PlanSlot; bar: StepBar }>,
  trimmed: Draft[],
): { slots: PlanSlot[]; changes: PlanChange[] } {
  const { nowMs, lawnId, timeZone } = ctx.input;
  const used = new Set<string>(drafts.flatMap((d) => (d.previous ? [d.previous.id] : [])));
  const fresh = drafts.filter((d) => d.previous === undefined).sort((a, b) => a.startMs - b.startMs);
  const moves = [...dropped].sort((a, b) => a.slot.startMs - b.slot.startMs);
  const changes: PlanChange[] = [];
  const slots: PlanSlot[] = [];
  for (const draft of drafts.filter((d) => d.previous !== undefined)) {
    const prev = draft.previous!;
    if (draft.change === undefined) slots.push(prev);
    else {
      slots.push(toSlot(draft, prev.id, prev.sequence + 1, nowMs));
      changes.push({ slotId: prev.id, kind: draft.change.kind, reason: draft.change.reason });
    }
  }
  for (const draft of fresh) {
    const move = moves.shift();
    if (move !== undefined) {
      const from = localWhen(move.slot.startMs, timeZone);
      const why = BAR_TEXT[move.bar];
      slots.push(toSlot(draft, move.slot.id, move.slot.sequence + 1, nowMs));
      changes.push({
        slotId: move.slot.id,
        kind: 'moved',
        reason: joinText({ en: `Moved from ${from.en}: ${why.en}.`, de: `Verschoben von ${from.de}: ${why.de}.` }, draft.reason),
      });
    } else {
      const id = newId(lawnId, draft, nowMs, used);
      slots.push(toSlot(draft, id, 0, nowMs));
      changes.push({ slotId: id, kind: 'added', reason: draft.reason });
    }
  }
  for (const move of moves) {
    const why = BAR_TEXT[move.bar];
    changes.push({
      slotId: move.slot.id,
      kind: 'removed',
      reason: {
        en: `Removed: ${why.en}, and no other mowable time was found for it.`,
        de: `Entfernt: ${why.de}, und keine andere mähbare Zeit dafür gefunden.`,
      },
    });
  }
  for (const draft of trimmed) {
    if (draft.previous === undefined) continue;
    changes.push({
      slotId: draft.previous.id,
      kind: 'removed',
      reason: { en: 'Removed: the need is covered without it.', de: 'Entfernt: der Bedarf ist ohne dieses Zeitfenster gedeckt.' },
    });
  }
  slots.sort((a, b) => a.startMs - b.startMs || a.id.localeCompare(b.id));
  return { slots, changes };
}

export function planLawn(input: PlanInput): LawnPlan {
  const steps: Step[] = ratedSteps(input.hours, {
    nowMs: input.nowMs,
    timeZone: input.timeZone,
    allowedAt: input.allowedAt,
    rainLeadMinutes: input.rainLeadMinutes,
  });
  const horizonEndMs = input.hours.reduce((end, hour) => Math.max(end, hour.endMs), input.nowMs);
  const ctx: Context = {
    input,
    grid: gridOf(steps, input.hours),
    byStart: new Map(steps.map((step, i) => [step.startMs, i])),
    relaxation: input.debt.overThreshold,
    gapMs: Math.max(0, input.mower.gapMinutes, input.mower.chargeMinutes) * MINUTE_MS,
    horizonEndMs,
  };
  const week = weekSpan(input.nowMs, input.timeZone);
  const { kept, dropped } = keepPrevious(ctx, week.startMs);
  const drafts = [...kept];
  const bucketList = buckets(input, week, horizonEndMs);
  relax(ctx, drafts, bucketList[0]!); // first: the debt's cut within a day counts towards the need the new slots fill
  fill(ctx, drafts, bucketList);
  const trimmed = trim(ctx, drafts, bucketList);
  const { slots, changes } = finish(ctx, drafts, dropped, trimmed);
  // The status judges this week (the need's week); next week's share within the horizon only places slots.
  const thisWeek = bucketList[0]!;
  const demand = thisWeek.demandMinutes;
  const planned = futureMinutes(slots, input.nowMs, thisWeek.fromMs, thisWeek.toMs);
  const plannedMinutesThisWeek = Math.round(minutesIn(slots, week.startMs, week.endMs));
  const status = planStatus({
    input,
    slots,
    demandMinutes: demand,
    plannedMinutes: planned,
    plannedMinutesThisWeek,
    horizonEndMs,
    weekEndMs: week.endMs,
    barredMinutes: barredMinutes(ctx.grid.steps, ctx.relaxation, week.endMs),
  });
  return {
    lawnId: input.lawnId,
    computedAtMs: input.nowMs,
    horizonEndMs,
    slots,
    need: input.need,
    debt: input.debt,
    plannedMinutesThisWeek,
    status: status.status,
    statusReason: status.reason,
    changes,
  };
}
