/**
 * The week's plan for one lawn: the shapes the planner (a pure function in this folder), the planner
 * unit (its state field `plan`), the mower control (follows the slots), the iCalendar feed, the status
 * page's week strip and the Home Assistant sensors share. Defined once here; times are epoch ms.
 */

/** One sentence per language (the state's reasons are {en, de} throughout). */
export interface PlanText {
  readonly en: string;
  readonly de: string;
}

/** Where the mower's minutes per full cut come from. */
export type CapacitySource = 'area' | 'ledger' | 'default';

/** How much mowing the lawn needs (docs/model.md "The need"). */
export interface LawnNeed {
  /** Growth now, mm per day (degree-days of the last days × the turf's growth factor). */
  readonly growthMmPerDay: number;
  /** The estimated grass height now, mm (target height after the last cut plus the growth since). */
  readonly heightMm: number;
  readonly targetHeightMm: number;
  /** When the one-third rule calls for the next cut; null: no growth (dormant). */
  readonly cutDueAtMs: number | null;
  /** Minutes the mower needs for one full cut, and where that figure comes from. */
  readonly minutesPerFullCut: number;
  readonly capacitySource: CapacitySource;
  /** Mowing minutes the lawn needs from the start of this week to its end (local Monday 00:00). */
  readonly runtimeNeededMinutesThisWeek: number;
}

/** Growth since the last completed cut beyond the target (docs/model.md "Mowing debt"). */
export interface MowingDebt {
  readonly mm: number;
  readonly runtimeMinutes: number;
  /** Past the threshold: the plan says so and may take a relaxed slot. */
  readonly overThreshold: boolean;
}

/** How a slot's hours are rated by the existing checks (the index's band). */
export type SlotBand = 'OK' | 'WARNING';

export interface PlanSlot {
  /** Stable across re-plans while the slot survives: the iCalendar UID and the key of changes. */
  readonly id: string;
  readonly startMs: number;
  readonly endMs: number;
  readonly band: SlotBand;
  /** Taken only by the debt relaxation (a WARNING slot with dry blades). */
  readonly relaxed: boolean;
  /** Bumped on every change of this slot (the iCalendar SEQUENCE). */
  readonly sequence: number;
  /** The instant the slot last changed (the iCalendar DTSTAMP / LAST-MODIFIED). */
  readonly changedAtMs: number;
  /** Why this slot (the driest, the safest, the relaxation), both languages. */
  readonly reason: PlanText;
}

export type PlanStatus = 'on_track' | 'behind' | 'cannot_keep_up';

/** `rerated`: same times, the band of its hours changed (a relaxed WARNING slot whose hours turned OK, or back). */
export type PlanChangeKind = 'added' | 'removed' | 'moved' | 'shortened' | 'extended' | 'rerated';

/** One change against the previous plan, with why (the notification topic sends only these). */
export interface PlanChange {
  readonly slotId: string;
  readonly kind: PlanChangeKind;
  readonly reason: PlanText;
}

export interface LawnPlan {
  readonly lawnId: string;
  readonly computedAtMs: number;
  /** The end of the forecast hours the plan could rate; past it nothing is planned (and the plan says so). */
  readonly horizonEndMs: number;
  /** Oldest first; never overlapping; each at least the mower's gap apart. */
  readonly slots: readonly PlanSlot[];
  readonly need: LawnNeed;
  readonly debt: MowingDebt;
  /** Minutes of the slots within this week (local Monday 00:00 to the next). */
  readonly plannedMinutesThisWeek: number;
  readonly status: PlanStatus;
  readonly statusReason: PlanText;
  /** What changed against the previous plan; empty when nothing did. */
  readonly changes: readonly PlanChange[];
}
